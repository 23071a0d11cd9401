"""A tournament's players and their members as plain rows, for the pages that show all of them.

Building a model object per player, member and club costs a 300-player Swiss' standings,
crosstable or pairings a sixth of their time each time a save makes the page be drawn anew; the
pages read only a few fields of each. These rows carry those fields and behave like the models
where the pages and ``clubrating.clubs.privacy`` read them (the name, the member page's address,
the club's name, the fields the privacy rule decides by). Writers, exports and forms keep reading
the models (``rounds._players``).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.core.db import fetch_rows
from clubrating.tournaments.models import Tournament
from clubrating.tournaments.selectors.rounds import version_rows

# The member fields the pages print and the privacy rule reads (``clubs.privacy``).
MEMBER_FIELDS = ("pk", "first_name", "last_name", "club_id", "club__name", "user_id", "profile_restricted",
                 "guardian_consent_on", "birth_date", "birth_year", "fide_rating", "fide_id")


class PlainClub:
    """A member's club: its key and name (``str()`` is the name, as the model's)."""

    __slots__ = ("name", "pk")

    def __init__(self, pk: int, name: str) -> None:
        self.pk, self.name = pk, name

    def __str__(self) -> str:
        return self.name


class PlainMember:
    """A member as the pages read him (``MEMBER_FIELDS``); ``str()`` and ``full_name`` as the model's."""

    __slots__ = ("birth_date", "birth_year", "club", "club_id", "fide_id", "fide_rating", "first_name",
                 "guardian_consent_on", "last_name", "pk", "profile_restricted", "user_id")

    def __init__(self, pk: int, first_name: str = "", last_name: str = "", club_id: int | None = None,
                 club_name: str | None = None, user_id: int | None = None, profile_restricted: bool = False,
                 guardian_consent_on=None, birth_date=None, birth_year: int | None = None,
                 fide_rating: int | None = None, fide_id: int | None = None,
                 clubs: dict | None = None) -> None:
        self.pk, self.first_name, self.last_name = pk, first_name, last_name
        self.club_id, self.user_id, self.profile_restricted = club_id, user_id, profile_restricted
        self.guardian_consent_on = guardian_consent_on
        self.birth_date, self.birth_year = birth_date, birth_year
        self.fide_rating, self.fide_id = fide_rating, fide_id
        club = None
        if club_id is not None:
            club = clubs.get(club_id) if clubs is not None else None
            if club is None:
                club = PlainClub(club_id, club_name or "")
                if clubs is not None:
                    clubs[club_id] = club
        self.club = club

    @property
    def id(self) -> int:
        return self.pk

    @property
    def full_name(self) -> str:
        return Member.full_name.fget(self)

    def __str__(self) -> str:
        return self.full_name

    def get_absolute_url(self) -> str:
        return reverse("clubs:member_detail", args=[self.pk])


class PlainPlayer:
    """A registration as the pages read it (``rounds.PLAYER_FIELDS``), with its ``member``."""

    __slots__ = ("fide_rating", "final_rank", "member", "member_id", "pk", "rating", "start_rank", "team_id",
                 "withdrawn_from_round")

    def __init__(self, pk, member_id, start_rank, rating, fide_rating, team_id, final_rank,
                 withdrawn_from_round, member: PlainMember | None = None) -> None:
        self.pk, self.member_id, self.start_rank, self.rating = pk, member_id, start_rank, rating
        self.fide_rating, self.team_id, self.final_rank = fide_rating, team_id, final_rank
        self.withdrawn_from_round, self.member = withdrawn_from_round, member

    @property
    def id(self) -> int:
        return self.pk


def keys_in(queryset: QuerySet, field: str, ids) -> QuerySet:
    """``queryset``'s rows whose ``field`` (a key) is one of ``ids``. On PostgreSQL the keys are
    one array parameter (``= ANY(%s)``): as ``IN (%s, %s, …)`` Django's client-side binding
    parses the statement's thousands of placeholders one by one, which cost a 300-player Swiss'
    evaluation more than reading its 2,500 rating records. Elsewhere ``__in``."""
    ids = list(ids)
    if connection.vendor != "postgresql":
        return queryset.filter(**{f"{field}__in": ids})
    meta = queryset.model._meta
    column = f'"{meta.db_table}"."{meta.get_field(field).column}"'  # names from the model, not input
    return queryset.extra(where=[f"{column} = ANY(%s)"], params=[ids])


def plain_members(ids) -> dict[int, PlainMember]:
    """{member id: PlainMember} of the members ``ids``, read by key (one query)."""
    clubs: dict[int, PlainClub] = {}
    # Plain tuples through the binary cursor (numbers, dates, texts: no converters needed).
    rows = fetch_rows(keys_in(Member.objects.order_by(), "id", ids).values_list(*MEMBER_FIELDS))
    return {row[0]: PlainMember(*row, clubs=clubs) for row in rows}


def plain_players(tournament: Tournament) -> list[PlainPlayer]:
    """The tournament's players by starting rank (numbered first), each with his member: as
    ``rounds._players`` reads them, as plain rows; the players are those the tournament's version
    was read from (``rounds.version_rows``), their members one query."""
    rows = sorted(version_rows(tournament)["players"],
                  key=lambda row: (row[2] is None, row[2] or 0, row[0]))
    members = plain_members({row[1] for row in rows})
    return [PlainPlayer(*row, member=members[row[1]]) for row in rows]
