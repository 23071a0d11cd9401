"""A member's page: his pools, list history, rated games, performances and half rating."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import OuterRef, QuerySet, Subquery

from clubrating.clubs.models import Member
from clubrating.tournaments.models import GameCategory, TournamentPlayer
from ratings.adapters import pool_rules
from ratings.models import ListEntry, PeriodState, PoolMember, PublishedList, RatingPool, RatingRecord
from ratings.rules.halfrating import FULL_RATING_GAMES, half_rating, half_rating_valid_until
from ratings.rules.performance import performance_exact
from ratings.selectors.lists import member_ratings


@dataclass
class TournamentPerformance:
    """A member's tournament in one pool. ``games``, ``points`` and ``opponents`` cover the games
    against opponents with a rating, so that performance = average + dp(points / games) holds
    (FIDE Rating Regulations 8.1.1); the other games (against newcomers still without a first
    rating) are ``unrated``. ``change`` sums the rated games' changes (None without any: the
    games of a newcomer count towards his first rating)."""

    tournament: object
    games: int = 0
    points: float = 0.0
    opponents: list[float] = field(default_factory=list)
    change: float | None = None
    unrated: int = 0
    unrated_points: float = 0.0
    pending: int = 0

    @property
    def average(self) -> float | None:
        return sum(self.opponents) / len(self.opponents) if self.opponents else None

    @property
    def performance(self) -> int | None:
        return performance_exact(self.opponents, self.points) if self.opponents else None


def _opponent_rating(record: RatingRecord) -> float | None:
    """The rating the opponent played with: the one used in this record, else (a pending game of
    a newcomer) the one the opponent's rated records of the period used (``opponent_own``)."""
    if record.opponent_rating is not None:
        return record.opponent_rating
    return getattr(record, "opponent_own", None)


def _opponent_own() -> Subquery:
    # The rating a member plays with is the same for every game of a period: any of the
    # opponent's rated records of the period tells it.
    return Subquery(RatingRecord.objects.filter(
        pool=OuterRef("pool"), period=OuterRef("period"), member=OuterRef("opponent"),
        own_rating__isnull=False,
    ).exclude(period__state=PeriodState.WAITING).values("own_rating")[:1])


def _with_state(records: QuerySet[RatingRecord]) -> QuerySet[RatingRecord]:
    """Annotate the member's published rating and pending games in the pool (``_mark_pending``)."""
    # Without the model's ordering (by the pool's name): one row by the unique (pool, member),
    # read from the index instead of joined and sorted once per record.
    state = PoolMember.objects.filter(pool=OuterRef("pool"), member=OuterRef("member")).order_by()
    return records.annotate(member_published=Subquery(state.values("rating")[:1]),
                            member_pending=Subquery(state.values("pending_games")[:1]))


def waits_for_period(period_id: int | None, state: str | None) -> bool:
    """A record in no period (after the open one) or in a period waiting while the one before it
    is reopened: not calculated until its period opens."""
    return period_id is None or state == PeriodState.WAITING


# A record's calculation, as readers show it (the engine's ``CALC_FIELDS`` but ``pending``).
CALCULATION = ("own_rating", "opponent_rating", "difference", "expected", "factor", "change")


def waiting_calculation_hidden(record: RatingRecord, state: str | None) -> RatingRecord:
    """``record`` (of a period in ``state``) as readers show it: a period waiting while the one
    before it is reopened keeps its records' calculations from before the reopening (closing
    again writes only those the new list changes), but they are not final, so every reader
    shows them as none: not pending, no change (docs/rules.md, rating periods)."""
    if state == PeriodState.WAITING:
        record.pending = False
        for name in CALCULATION:
            setattr(record, name, None)
    return record


def _mark_pending(records: list[RatingRecord]) -> None:
    """Say per pending record whose first rating it waits for: ``waits_for_own`` when the member
    himself is a newcomer (with ``own_games`` of ``needed_games``, the rules' minimum), else it
    waits for the opponent's (Austrian national rating rules, newcomers: a game against a newcomer
    is rated once he has a first rating). A record with no calculation that is not pending waits
    for its period instead (``waits_for_period``): it lies after the open period, or in the one
    waiting while the period before it is reopened. A record with no calculation that is
    neither counts towards the member's own first rating (``counts_for_first_rating``). The
    records carry ``_with_state``'s annotations and their period."""
    for r in records:
        unperiodised = waits_for_period(r.period_id, r.period.state if r.period_id else None)
        r.waits_for_period = not r.pending and r.change is None and unperiodised
        # A newcomer's game that is neither pending nor waiting counts towards his first rating
        # (the start value of the period's end, §1.6): it has no change of its own.
        r.counts_for_first_rating = not r.pending and r.change is None and not unperiodised
        if r.pending or r.change is None:
            r.waits_for_own = r.member_published is None and r.own_rating is None
            r.own_games = r.member_pending or 0
            r.needed_games = pool_rules(r.pool).min_games


@dataclass
class PoolBlock:
    pool: RatingPool
    state: PoolMember | None
    records: list[RatingRecord] = field(default_factory=list)
    performances: list[TournamentPerformance] = field(default_factory=list)
    history: list[ListEntry] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return bool(self.state and self.state.live_games)


def _performances(records: list[RatingRecord]) -> list[TournamentPerformance]:
    by_tournament: dict[int, TournamentPerformance] = {}
    for record in records:
        tournament = record.game.round.tournament
        perf = by_tournament.setdefault(tournament.pk, TournamentPerformance(tournament))
        if record.pending or record.change is None:
            perf.pending += 1
        else:
            perf.change = (perf.change or 0.0) + record.change
        opponent = _opponent_rating(record)
        if opponent is None:
            perf.unrated += 1
            perf.unrated_points += record.score
        else:
            perf.games += 1
            perf.points += record.score
            perf.opponents.append(opponent)
    return list(by_tournament.values())


def member_rating_blocks(member: Member) -> list[PoolBlock]:
    """One block per pool the member has a state, a list entry or a game in (three queries):
    ``member_ratings`` with the list history and every rated game with its calculation."""
    blocks: dict[int, PoolBlock] = {}
    for state in member_ratings(member):
        blocks[state.pool_id] = PoolBlock(state.pool, state)
    history = (
        # A withdrawn list (its period reopened) is not part of the history: not in the chart either.
        ListEntry.objects.filter(member=member, list__in=PublishedList.objects.published())
        .select_related("list__pool", "list__period").order_by("list__valid_from", "list__pk")
    )
    for entry in history:
        blocks.setdefault(entry.list.pool_id, PoolBlock(entry.list.pool, None)).history.append(entry)
    records = list(
        _with_state(RatingRecord.objects.filter(member=member))
        .annotate(opponent_own=_opponent_own())
        .select_related("pool", "period", "opponent", "game__round__tournament")
        .order_by("played_on", "game__round__tournament__start_date", "game__round__number", "pk")
    )
    for record in records:
        waiting_calculation_hidden(record, record.period.state if record.period_id else None)
    _mark_pending(records)
    for record in records:
        blocks.setdefault(record.pool_id, PoolBlock(record.pool, None)).records.append(record)
    for block in blocks.values():
        block.performances = _performances(block.records)
    return sorted(blocks.values(), key=lambda b: b.pool.name)


@dataclass
class HalfRating:
    games: int
    points: float
    average: float
    value: int | None
    valid_until: datetime.date | None
    full_rating_games: int = FULL_RATING_GAMES


def member_half_rating(member: Member, blocks: list[PoolBlock]) -> HalfRating | None:
    """§1.9, for a member without a FIDE rating: his rated standard games (each game once,
    whatever the number of pools) against opponents with a FIDE rating. The opponent's FIDE
    rating is the one registered for the tournament, else his current one. None when the
    member has a FIDE rating or no such game."""
    if member.fide_rating:
        return None
    records = {}
    for block in blocks:
        if block.pool.category != GameCategory.STANDARD:
            continue
        for record in block.records:
            records.setdefault(record.game_id, record)
    if not records:
        return None
    registered = dict(
        ((t, m), r) for t, m, r in TournamentPlayer.objects.filter(
            tournament_id__in={r.game.round.tournament_id for r in records.values()},
            member_id__in={r.opponent_id for r in records.values()},
        ).values_list("tournament_id", "member_id", "fide_rating")
    )
    ratings, points, last_day = [], 0.0, None
    for record in records.values():
        key = (record.game.round.tournament_id, record.opponent_id)
        fide = registered.get(key) or record.opponent.fide_rating
        if fide:
            ratings.append(fide)
            points += record.score
            last_day = max(last_day, record.played_on) if last_day else record.played_on
    if not ratings:
        return None
    value = half_rating(ratings, points)
    return HalfRating(
        games=len(ratings), points=points, average=sum(ratings) / len(ratings), value=value,
        valid_until=half_rating_valid_until(last_day) if value is not None else None,
    )
