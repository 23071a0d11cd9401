"""What a member's page shows of his ratings, read in a fixed number of queries.

Pools (published and live values), the history chart, every rated game with its calculation,
the performance per tournament and the international half rating (docs/rules.md §1.9).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils import formats
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.core.charts import Series, rating_history_svg
from clubrating.tournaments.models import GameCategory, TournamentPlayer
from ratings.models import ListEntry, PoolMember, RatingPool, RatingRecord
from ratings.rules.halfrating import FULL_RATING_GAMES, half_rating, half_rating_valid_until
from ratings.rules.performance import performance_exact
from ratings.tables import format_rating


@dataclass
class TournamentPerformance:
    tournament: object
    games: int = 0
    points: float = 0.0
    opponents: list[float] = field(default_factory=list)
    # Points against opponents with a rating used (not pending games against newcomers).
    rated_points: float = 0.0
    change: float = 0.0

    @property
    def average(self) -> float | None:
        return sum(self.opponents) / len(self.opponents) if self.opponents else None

    @property
    def performance(self) -> int | None:
        return performance_exact(self.opponents, self.rated_points) if self.opponents else None


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
        perf.games += 1
        perf.points += record.score
        perf.change += record.change or 0.0
        if record.opponent_rating is not None:
            perf.opponents.append(record.opponent_rating)
            perf.rated_points += record.score
    return list(by_tournament.values())


def member_ratings(member: Member) -> list[PoolBlock]:
    """One block per pool the member has a state, a list entry or a game in (four queries)."""
    blocks: dict[int, PoolBlock] = {}
    for state in PoolMember.objects.filter(member=member).select_related("pool"):
        blocks[state.pool_id] = PoolBlock(state.pool, state)
    history = (
        ListEntry.objects.filter(member=member, list__superseded=False)
        .select_related("list__pool", "list__period").order_by("list__valid_from", "list__pk")
    )
    for entry in history:
        blocks.setdefault(entry.list.pool_id, PoolBlock(entry.list.pool, None)).history.append(entry)
    records = (
        RatingRecord.objects.filter(member=member)
        .select_related("pool", "period", "opponent", "game__round__tournament")
        .order_by("played_on", "game__round__tournament__start_date", "game__round__number", "pk")
    )
    for record in records:
        blocks.setdefault(record.pool_id, PoolBlock(record.pool, None)).records.append(record)
    for block in blocks.values():
        block.performances = _performances(block.records)
    return sorted(blocks.values(), key=lambda b: b.pool.name)


def history_chart(member: Member, blocks: list[PoolBlock]) -> str:
    series = []
    for block in blocks:
        points = [(e.list.valid_from, e.rating) for e in block.history]
        titles = [
            _("%(pool)s, list of %(date)s: %(rating)s") % {
                "pool": block.pool.name, "date": formats.date_format(e.list.valid_from, "SHORT_DATE_FORMAT"),
                "rating": format_rating(e.rating)}
            for e in block.history
        ]
        provisional = False
        state = block.state
        if block.provisional and state.live_rating is not None:
            today = datetime.date.today()
            if not points or today > points[-1][0]:
                points.append((today, state.live_rating))
                titles.append(_("%(pool)s, live (provisional): %(rating)s") % {
                    "pool": block.pool.name, "rating": format_rating(state.live_rating)})
                provisional = True
        series.append(Series(block.pool.name, points, provisional_last=provisional, point_titles=titles))
    return rating_history_svg(
        series, title=_("Rating history of %(name)s") % {"name": member.full_name},
        x_label=_("Date"), y_label=_("Rating"),
    )


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
