"""Who may see which of a member's data: the one place that decides, for every page, print
layout, PDF, export and file the site hands out.

The defaults follow the federations' practice for published rating lists and the Austrian data
protection law (DSGVO, Art. 5 data minimisation, Art. 8 children's consent):

* name, club, title, national and FIDE ratings and IDs: public wherever the club's lists are;
* the birth year (age categories): only where the own club chooses so (``Club.public_birth_years``);
* full birth date, sex, e-mail and phone: officials (and the member himself) only;
* a restricted profile (the member's own choice, or a minor without his guardians' recorded
  consent): visitors and other members see his name in lists and standings, nothing else of him,
  and no member page;
* a team is a club's: beside his team (a league's rosters, lineups, match cards, reports, board
  statistics; a team competition's boards) a name tells the club, so there the name is shown only
  to those who may see the club (``name_beside_team_visible``). The league's working pages (the
  season's directors, the teams' captains) name everyone: they line up and confirm the games.

Audiences are ordered: an official sees everything a member sees, and so on.
"""

from __future__ import annotations

import datetime
from enum import IntEnum

from django.db.models import Q
from django.utils.translation import gettext_lazy

# Age of majority in Austria (ABGB § 21).
MAJORITY_AGE = 18


class Audience(IntEnum):
    VISITOR = 0     # not logged in
    MEMBER = 1      # logged in, looking at someone else
    SELF = 2        # the member himself
    OFFICIAL = 3    # officials, rating officers, staff


# Fields that are a sporting record: shown wherever the member's name is shown (lists, standings).
# "ratings" are the national and FIDE ratings shown in lists and standings.
PUBLIC_FIELDS = frozenset({"name", "club", "title", "national_id", "fide_id", "ratings"})
# Fields that leave the officials' pages only for the member himself.
PRIVATE_FIELDS = frozenset({"birth_date", "sex", "email", "phone"})
BIRTH_YEAR = "birth_year"
ALL_FIELDS = PUBLIC_FIELDS | PRIVATE_FIELDS | {BIRTH_YEAR}
# What visitors and other members see of a restricted profile.
RESTRICTED_FIELDS = frozenset({"name", "ratings"})


def is_minor(*, birth_date: datetime.date | None, birth_year: int | None, today: datetime.date) -> bool:
    """Under 18 today. With the year only, a member counts as a minor until the end of the year
    in which he turns 18 (he may still be 17 until then); with neither, as an adult."""
    if birth_date is not None:
        had_birthday = (today.month, today.day) >= (birth_date.month, birth_date.day)
        return today.year - birth_date.year - (0 if had_birthday else 1) < MAJORITY_AGE
    if birth_year is not None:
        return today.year - birth_year <= MAJORITY_AGE
    return False


def profile_restricted(member, *, today: datetime.date | None = None) -> bool:
    """The member chose to restrict his profile, or he is a minor without recorded consent."""
    if member.profile_restricted:
        return True
    if member.guardian_consent_on is not None:
        return False
    return is_minor(birth_date=member.birth_date, birth_year=member.birth_year,
                    today=today or datetime.date.today())


def restricted_q(*, today: datetime.date, prefix: str = "") -> Q:
    """``profile_restricted`` as a database condition on members (``prefix``: the path to the
    member, e.g. ``"member__"``), for lists of thousands of rows; the same rule as above."""
    # Born after this day: not yet 18 today (on 29 February, born after 28 February).
    day = 28 if (today.month, today.day) == (2, 29) else today.day
    born_after = datetime.date(today.year - MAJORITY_AGE, today.month, day)
    minor = Q(**{f"{prefix}birth_date__gt": born_after}) | Q(
        **{f"{prefix}birth_date__isnull": True, f"{prefix}birth_year__gte": today.year - MAJORITY_AGE})
    no_consent = Q(**{f"{prefix}guardian_consent_on__isnull": True})
    return Q(**{f"{prefix}profile_restricted": True}) | (no_consent & minor)


def fields_for(*, restricted: bool, audience: Audience, birth_years_public: bool) -> frozenset[str]:
    """The fields ``audience`` may see of a member whose profile is ``restricted`` or not: for
    lists that know the restriction from the database (``restricted_q``) row by row."""
    if audience >= Audience.SELF:
        return ALL_FIELDS
    if restricted:
        return RESTRICTED_FIELDS
    return PUBLIC_FIELDS | ({BIRTH_YEAR} if birth_years_public else frozenset())


def visible_fields(member, *, audience: Audience, birth_years_public: bool,
                   today: datetime.date | None = None) -> frozenset[str]:
    """The fields of ``member`` that ``audience`` may see."""
    restricted = audience < Audience.SELF and profile_restricted(member, today=today)
    return fields_for(restricted=restricted, audience=audience, birth_years_public=birth_years_public)


def may_see(member, field: str, *, audience: Audience, birth_years_public: bool,
            today: datetime.date | None = None) -> bool:
    return field in visible_fields(member, audience=audience, birth_years_public=birth_years_public,
                                   today=today)


def row_audience(member, *, audience: Audience, user_id: int | None) -> Audience:
    """In a list of many members, the viewer's own row is seen as by the member himself."""
    if audience < Audience.SELF and user_id is not None and member.user_id == user_id:
        return Audience.SELF
    return audience


def column_visible(field: str, *, audience: Audience, birth_years_public: bool) -> bool:
    """Whether a list of many members (rating list, member list, players) may have a column or
    filter for ``field`` at all; restricted members' cells are blanked row by row."""
    if audience >= Audience.OFFICIAL:
        return True
    if field in PRIVATE_FIELDS:
        return False
    if field == BIRTH_YEAR:
        return birth_years_public
    return field in PUBLIC_FIELDS


def shown_club(member, *, audience: Audience, birth_years_public: bool = False,
                today: datetime.date | None = None) -> str:
    """The member's club as ``audience`` may see it: its name, or "" (no club, or not to be shown)."""
    if member.club_id is None or not may_see(member, "club", audience=audience,
                                             birth_years_public=birth_years_public, today=today):
        return ""
    return str(member.club)


def name_beside_team_in(fields: frozenset[str]) -> bool:
    """Whether a reader who may see ``fields`` of a member (``visible_fields``, ``fields_for``) may
    read his name beside his team (see above): where his club is not to be shown, neither is his
    name among a club's players."""
    return "club" in fields


def name_beside_team_visible(member, *, audience: Audience, today: datetime.date | None = None) -> bool:
    """``name_beside_team_in`` for one member and ``audience``."""
    fields = visible_fields(member, audience=audience, birth_years_public=False, today=today)
    return name_beside_team_in(fields)


# What stands for a name withheld beside a team.
WITHHELD_NAME = gettext_lazy("protected profile")


def member_page_visible_for(*, restricted: bool, audience: Audience) -> bool:
    """A restricted profile has no member page for visitors and other members."""
    return audience >= Audience.SELF or not restricted


def member_page_visible(member, *, audience: Audience, today: datetime.date | None = None) -> bool:
    return member_page_visible_for(
        restricted=audience < Audience.SELF and profile_restricted(member, today=today), audience=audience)
