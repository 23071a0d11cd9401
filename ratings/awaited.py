"""Whose first rating a game waits for. Austrian national rating rules (newcomers, ratings.md
§1.7): a newcomer's games count towards his first rating, and a game against him is rated once
he has it; until then both players' records are pending. The newcomers among a pending game's
players are the ones it waits for, and they are named wherever a game is shown waiting: the
boards (``game_rating_changes``), the officer page and the close preview
(``pools_waiting_games``); the member page names them from his records (``_mark_pending``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count, Exists, OuterRef

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game
from ratings.models import PeriodState, PoolMember, RatingRecord


def _newcomer(pool: str, member: str):
    """A member without a published rating in the pool: a newcomer (``PoolMember.rating`` None)."""
    return Exists(PoolMember.objects.filter(pool=OuterRef(pool), member=OuterRef(member),
                                            rating__isnull=True))


def boards_awaited(changes: dict[int, list]) -> None:
    """Give each pending board (``BoardChange``) the newcomers it waits for (``awaited``, by
    name). Two queries, and none while no board waits."""
    waiting = {(game_id, board.pool.pk) for game_id, boards in changes.items() for board in boards
               if board.pending}
    if not waiting:
        return
    players = {pk: (white, black) for pk, white, black in Game.objects.filter(
        pk__in={game_id for game_id, _pool in waiting}).values_list("pk", "white_id", "black_id")}
    pools = {pool for _game, pool in waiting}
    members = {m for pair in players.values() for m in pair}
    newcomers = defaultdict(set)
    for pool_id, member_id in PoolMember.objects.filter(
        pool_id__in=pools, member_id__in=members, rating__isnull=True
    ).values_list("pool_id", "member_id"):
        newcomers[pool_id].add(member_id)
    named = Member.objects.in_bulk({m for found in newcomers.values() for m in found})
    for game_id, boards in changes.items():
        for board in boards:
            if (game_id, board.pool.pk) in waiting:
                board.awaited = [named[m] for m in players[game_id] if m in newcomers[board.pool.pk]]


def pools_awaited(*, pool_ids: Iterable[int]) -> dict[int, list[tuple[Member, int]]]:
    """{pool id: [(newcomer, his pending games)]} for the pools' pending games, the newcomers by
    name. One query for the counts, one for the names."""
    rows = (
        # (A waiting period's pending flags are not final: ``waiting_calculation_hidden``.)
        RatingRecord.objects.filter(pool_id__in=list(pool_ids), pending=True)
        .exclude(period__state=PeriodState.WAITING).filter(_newcomer("pool", "member"))
        .values_list("pool_id", "member_id").annotate(games=Count("game_id", distinct=True)).order_by()
    )
    counts = defaultdict(dict)
    for pool_id, member_id, games in rows:
        counts[pool_id][member_id] = games
    named = Member.objects.in_bulk({m for found in counts.values() for m in found})
    return {
        pool_id: sorted(((named[m], games) for m, games in found.items()),
                        key=lambda item: (item[0].last_name, item[0].first_name, item[0].pk))
        for pool_id, found in counts.items()
    }


def members_awaited(*, pool_id: int, period_id: int, member_ids: Iterable[int]) -> dict[int, list[Member]]:
    """{member id: the newcomer opponents his pending games of the period wait for, by name} (a
    newcomer's own first rating is told by his being one). Two queries."""
    ids = list(member_ids)
    records = RatingRecord.objects.filter(pool_id=pool_id, period_id=period_id, pending=True,
                                          member_id__in=ids)
    awaited = defaultdict(set)
    for member_id, opponent_id in records.filter(_newcomer("pool", "opponent")).values_list(
            "member_id", "opponent_id"):
        awaited[member_id].add(opponent_id)
    named = Member.objects.in_bulk({m for found in awaited.values() for m in found})
    return {
        member_id: sorted((named[m] for m in found), key=lambda m: (m.last_name, m.first_name, m.pk))
        for member_id, found in awaited.items()
    }
