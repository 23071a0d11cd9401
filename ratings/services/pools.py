"""Pools, their periods, and which pools rate a tournament."""

import datetime
from typing import Literal

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from clubrating.core.db import plain_rows, server_bound
from clubrating.tournaments.models import GameCategory, Tournament
from ratings.adapters import pool_rules
from ratings.models import Expectation, PeriodState, RatingPeriod, RatingPool, TournamentRating
from ratings.rules.presets import PRESETS
from ratings.services.calendar import period_bounds
from ratings.services.db import pools_locked
from ratings.services.errors import RatingsError
from ratings.services.inactivity import default_inactivity_years


@transaction.atomic
def pool_create(
    *,
    name: str,
    rules: str = "oesb-classic",
    category: str = GameCategory.STANDARD,
    start_date: datetime.date,
    expectation: str = Expectation.PRESET,
    inactivity_years: int | None | Literal["preset"] = "preset",
) -> RatingPool:
    """Create a pool and open its first period (from ``start_date`` to the calendar period's end).

    ``inactivity_years``: lists leave out members without a rated game for more than that many
    years (ÖSB TUWO § 27 d); None keeps them; "preset" is 7 for the ``oesb`` rule sets, else None."""
    name = name.strip()
    if not name:
        raise RatingsError(_("A rating pool needs a name."))
    if rules not in PRESETS:
        raise RatingsError(
            _("Unknown rule set “%(rules)s”; valid: %(valid)s.")
            % {"rules": rules, "valid": ", ".join(PRESETS)}
        )
    if category not in GameCategory.values:
        raise RatingsError(
            _("Unknown game category “%(category)s”; valid: %(valid)s.")
            % {"category": category, "valid": ", ".join(GameCategory.values)}
        )
    if expectation not in Expectation.values:
        raise RatingsError(_("Unknown expectation “%(value)s”.") % {"value": expectation})
    if inactivity_years == "preset":
        inactivity_years = default_inactivity_years(rules)
    if inactivity_years is not None and inactivity_years < 1:
        raise RatingsError(_("The years until inactive players are removed must be at least 1."))
    if RatingPool.objects.filter(name=name).exists():
        raise RatingsError(_("A rating pool named “%(name)s” already exists.") % {"name": name})
    pool = RatingPool.objects.create(
        name=name, rules=rules, category=category, start_date=start_date, expectation=expectation,
        inactivity_years=inactivity_years,
    )
    end = period_bounds(pool_rules(pool), start_date)[1]
    RatingPeriod.objects.create(pool=pool, start=start_date, end=end)
    return pool


def pool_get(name: str) -> RatingPool:
    try:
        return RatingPool.objects.get(name=name)
    except RatingPool.DoesNotExist:
        raise RatingsError(_("There is no rating pool named “%(name)s”.") % {"name": name}) from None


def pool_lock(pool: RatingPool, *, wait: bool = True) -> RatingPool:
    """Serialise every rating change of a pool (a row lock on PostgreSQL; SQLite's IMMEDIATE
    transactions already serialise writers). Closing, reopening, recalculating and importing
    take it; result saves take the shared form and lock their members (``members_lock``).
    ``wait=False`` (a save by an official, e.g. a round moved to another day): refused like a
    result save (``pools_share_lock``) while a long holder keeps it."""
    if wait:
        return RatingPool.objects.select_for_update().get(pk=pool.pk)
    return pools_locked([pool.pk], "UPDATE")[0]


def pools_share_lock(pool_ids: set[int]) -> list[RatingPool]:
    """The pools, locked so that result saves run side by side while ``pool_lock``'s holders
    (closing, reopening, recalculating, importing) wait for them. A save finding such a holder
    waits at most ``SAVE_LOCK_WAIT`` on PostgreSQL, then is refused (``code="busy"``); the
    caller's transaction (savepoint) rolls back. SQLite serialises writers anyway."""
    if not pool_ids:
        return []
    return pools_locked(sorted(pool_ids), "SHARE")


def open_period(pool: RatingPool) -> RatingPeriod:
    return RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)


@transaction.atomic
def tournament_rate_in_pool(*, tournament: Tournament, pool: RatingPool) -> TournamentRating:
    """Say explicitly that ``pool`` rates ``tournament`` (replaces the category default).

    Call before results are recorded, or run ``pool_recalculate`` afterwards.
    """
    link, _created = TournamentRating.objects.get_or_create(tournament=tournament, pool=pool)
    return link


def tournament_pools(tournament: Tournament) -> QuerySet[RatingPool]:
    """Pools that rate ``tournament``: its explicit links, else every pool of its category."""
    if not tournament.rated:
        return RatingPool.objects.none()
    links = TournamentRating.objects.filter(tournament=tournament)
    # One query: the linked pools, or (no link at all) those of the category.
    return RatingPool.objects.filter(
        Exists(links.filter(pool=OuterRef("pk"))) | (Q(category=tournament.category) & ~Exists(links))
    ).order_by("pk")


def tournament_pool_starts(tournament: Tournament) -> dict[int, datetime.date]:
    """The pools of ``tournament_pools``, each id with the pool's start date (what a result
    save needs to tell which pools rate the game's date). On PostgreSQL the same filter as
    a prepared statement: every save asks, and the ORM took longer to build it than the
    database to answer."""
    if not server_bound():
        return dict(tournament_pools(tournament).values_list("pk", "start_date"))
    if not tournament.rated:
        return {}
    return dict(plain_rows(_POOL_STARTS_SQL, [tournament.pk, tournament.category, tournament.pk]))


def tournament_pool_names(tournament: Tournament) -> list[tuple[int, str]]:
    """(id, name) of the pools of ``tournament_pools``, in their order: what every page of the
    tournament shows of them (its rating columns' heading, its cached tables' versions). On
    PostgreSQL one prepared statement."""
    if not tournament.rated:
        return []
    if server_bound():
        return [tuple(row) for row in plain_rows(_POOL_NAMES_SQL, [tournament.pk, tournament.category,
                                                                    tournament.pk])]
    return list(tournament_pools(tournament).values_list("pk", "name"))


def tournament_pool_starts_sql(tournament: Tournament, day: datetime.date) -> tuple[str, list]:
    """``tournament_pool_starts`` as one plain statement (PostgreSQL), to be read with others:
    rows (``id``: the pool, ``rates``: whether it has started by ``day``). The tournament is rated."""
    return (f"SELECT s.id, s.start_date <= %s AS rates FROM ({_POOL_STARTS_SQL}) AS s",
            [day, tournament.pk, tournament.category, tournament.pk])


# ``tournament_pools``' filter: the linked pools, or (no link at all) those of the category.
_POOL_STARTS_SQL = (
    f"SELECT p.id, p.start_date FROM {RatingPool._meta.db_table} AS p "
    f"WHERE EXISTS (SELECT 1 FROM {TournamentRating._meta.db_table} AS l "
    "WHERE l.tournament_id = %s AND l.pool_id = p.id) "
    f"OR (p.category = %s AND NOT EXISTS (SELECT 1 FROM {TournamentRating._meta.db_table} AS l "
    "WHERE l.tournament_id = %s)) ORDER BY p.id"
)


_POOL_NAMES_SQL = _POOL_STARTS_SQL.replace("SELECT p.id, p.start_date ", "SELECT p.id, p.name ", 1)


def pool_tournaments_filter(pool: RatingPool) -> Q:
    """A Q on Tournament selecting the tournaments ``pool`` rates (same rule as above)."""
    linked = TournamentRating.objects.filter(tournament=OuterRef("pk"))
    return Q(rated=True) & (Exists(linked.filter(pool=pool)) | (Q(category=pool.category) & ~Exists(linked)))
