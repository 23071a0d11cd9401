"""Closing a period: what stays unfinished, and the games that wait for a rating."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Max, Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game, Result, Tournament
from ratings.awaited import members_awaited, pools_awaited
from ratings.models import PeriodState, PoolMember, RatingPeriod, RatingPool, RatingRecord
from ratings.services.pools import pool_tournaments_filter


@dataclass
class UnfinishedTournament:
    tournament: Tournament
    open_games: int
    rounds: list[int]


@dataclass
class PendingMember:
    member: Member
    games: int
    newcomer: bool
    awaited: list[Member] = field(default_factory=list)  # whose first rating (``awaited``)


@dataclass
class LaterRound:
    """A paired round dated after the day an early closing ends the period on."""

    number: int
    date: datetime.date
    games: int
    results: int  # of its games, those with a result (rated now, in the period being closed)


@dataclass
class MovingTournament:
    """A running tournament whose rounds after that day fall into the next period."""

    tournament: Tournament
    rounds: list[LaterRound]

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rounds)


@dataclass
class ClosePreview:
    tournaments: list[UnfinishedTournament]
    pending: list[PendingMember]
    # Closing early: the day the period then ends on, and the tournaments that run beyond it.
    early_end: datetime.date | None = None
    moving: list[MovingTournament] = field(default_factory=list)
    pending_more: int = 0  # pending members beyond ``pending_limit`` (``period_close_preview``)

    @property
    def open_games(self) -> int:
        return sum(t.open_games for t in self.tournaments)

    def __bool__(self) -> bool:
        return bool(self.tournaments or self.pending)


def _moving_tournaments(pool: RatingPool, period: RatingPeriod, end: datetime.date) -> list[MovingTournament]:
    """The pool's tournaments running on ``end`` (or with paired games dated after it) whose
    rounds dated after ``end`` and up to the period's last day fall into the next period when an
    early closing ends the period on ``end``. Two queries."""
    rated = Tournament.objects.filter(pool_tournaments_filter(pool))
    games = (
        Game.objects.with_played_on()
        .filter(round__tournament__in=rated, day__gt=end, day__lte=period.end)
        .values_list("round__tournament_id", "round__number", "day", "result")
    )
    rounds: dict[int, dict[int, LaterRound]] = defaultdict(dict)
    for tournament_id, number, day, result in games:
        later = rounds[tournament_id].setdefault(number, LaterRound(number, day, 0, 0))
        later.games += 1
        later.results += result != Result.NOT_PLAYED
    running = rated.filter(Q(pk__in=list(rounds)) | Q(start_date__lte=end, end_date__gt=end))
    return [
        MovingTournament(t, sorted(rounds[t.pk].values(), key=lambda r: r.number))
        for t in running.order_by("start_date", "name")
    ]


def period_close_preview(*, period: RatingPeriod, end: datetime.date | None = None,
                         pending_limit: int | None = None) -> ClosePreview:
    """What closing ``period`` now leaves unfinished: the pool's tournaments with paired games
    dated inside the period and no result yet (they can no longer be entered once it is closed,
    unless the period is reopened), and the members whose games stay pending (a newcomer's games
    wait for the first rating, ratings.md §1.7) and move to the next period. Games dated after
    the period's end are not affected by closing it. ``end``: the day an early closing ends the
    period on (docs/rules.md §4.3); the running tournaments' rounds after it are listed, as they
    fall into the next period. Two queries (four when closing early)."""
    pool = period.pool
    last = end or period.end
    rows = (
        Game.objects.with_played_on()
        .filter(round__tournament__in=Tournament.objects.filter(pool_tournaments_filter(pool)),
                result=Result.NOT_PLAYED, day__gte=max(period.start, pool.start_date), day__lte=last)
        .values_list("round__tournament_id", "round__number")
    )
    by_tournament: dict[int, UnfinishedTournament] = {}
    found: dict[int, list[int]] = defaultdict(list)
    for tournament_id, number in rows:
        found[tournament_id].append(number)
    # (``division_id``: a league division's results are entered on the league's pages.)
    unfinished = Tournament.objects.filter(pk__in=found).annotate(division_id=Max("division__id"))
    for tournament in unfinished.order_by("start_date", "name"):
        numbers = found[tournament.pk]
        by_tournament[tournament.pk] = UnfinishedTournament(tournament, len(numbers), sorted(set(numbers)))
    pending = (
        RatingRecord.objects.filter(pool=pool, period=period, pending=True)
        .values("member_id").annotate(games=Count("pk")).order_by()
    )
    counts = {row["member_id"]: row["games"] for row in pending}
    newcomers = set(
        PoolMember.objects.filter(pool=pool, member_id__in=counts, rating__isnull=True)
        .values_list("member_id", flat=True)
    )
    members = Member.objects.filter(pk__in=counts).order_by("last_name", "first_name", "pk")
    if pending_limit is not None:  # (the rest counted: a federation's newcomers are thousands)
        members = members[:pending_limit]
    members = list(members)
    awaited = members_awaited(pool_id=pool.pk, period_id=period.pk,
                              member_ids=[m.pk for m in members]) if members else {}
    return ClosePreview(
        pending_more=max(0, len(counts) - pending_limit) if pending_limit is not None else 0,
        tournaments=list(by_tournament.values()),
        pending=[PendingMember(m, counts[m.pk], m.pk in newcomers, awaited.get(m.pk, [])) for m in members],
        early_end=end,
        moving=_moving_tournaments(pool, period, end) if end is not None and end < period.end else [],
    )


def tournament_outside_periods(*, tournament: Tournament, pool: RatingPool) -> str:
    """A notice when no game day of ``tournament`` lies in a rating period of ``pool`` (nor after
    the pool's start), so that rating it changes nobody's rating; "" when some day does."""
    start = tournament.start_date
    end = tournament.end_date or start
    inside = end >= pool.start_date and RatingPeriod.objects.filter(
        pool=pool, start__lte=end, end__gte=start).exists()
    if inside:
        return ""
    return _("The tournament (%(start)s–%(end)s) lies outside every rating period of “%(pool)s”: "
             "its games change no rating.") % {
        "start": date_format(start, "SHORT_DATE_FORMAT"), "end": date_format(end, "SHORT_DATE_FORMAT"),
        "pool": pool.name}


@dataclass
class WaitingGames:
    """The games of a pool whose rating waits, by the reason (``waits_for_period``, pending)."""

    after_open_period: int = 0  # dated after the open period: rated once it is closed
    behind_reopened: int = 0  # in a period waiting while the one before it is reopened
    newcomers: int = 0  # waiting for a newcomer's first rating (his own or his opponent's)
    awaited: list = field(default_factory=list)  # [(newcomer, his pending games)] (``awaited``)

    @property
    def total(self) -> int:
        return self.after_open_period + self.behind_reopened + self.newcomers


def pools_waiting_games(*, pool_ids: Iterable[int] | None = None) -> dict[int, WaitingGames]:
    """{pool id: WaitingGames} for the pools with waiting games (of ``pool_ids``). Two queries,
    counted by the database (a game counts once per reason)."""
    # Read by index: the records with no period, the pending ones (``record_pending``) and those of
    # waiting periods, which keep a calculation that is not final (``waiting_calculation_hidden``);
    # every other record waits for nothing (a record with no calculation in the open period counts
    # towards a newcomer's first rating).
    periods = RatingPeriod.objects.filter(state=PeriodState.WAITING)
    if pool_ids is not None:
        pool_ids = list(pool_ids)
        periods = periods.filter(pool_id__in=pool_ids)
    waiting_periods = list(periods.values_list("pk", flat=True))
    records = RatingRecord.objects.filter(
        Q(period__isnull=True) | Q(pending=True) | Q(period__in=waiting_periods))
    if pool_ids is not None:
        records = records.filter(pool_id__in=pool_ids)
    waiting: dict[int, WaitingGames] = {}
    rows = records.values_list("pool_id", "pending", "period_id", "period__state").annotate(
        games=Count("game_id", distinct=True)).order_by()
    for pool_id, pending, period_id, state, games in rows:
        entry = waiting.setdefault(pool_id, WaitingGames())
        if pending and state != PeriodState.WAITING:
            entry.newcomers += games
        elif period_id is None:
            entry.after_open_period += games
        elif state == PeriodState.WAITING:
            entry.behind_reopened += games
    for pool_id, newcomers in pools_awaited(pool_ids=[p for p, e in waiting.items() if e.newcomers]).items():
        waiting[pool_id].awaited = newcomers
    return {pool_id: entry for pool_id, entry in waiting.items() if entry.total}
