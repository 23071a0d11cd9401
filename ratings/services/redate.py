"""Games whose date changed (a round moved to another day, a game given its own date): their rating
records follow them into the period of the new date, in every pool that rates them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from clubrating.tournaments.models import Game
from ratings.models import PeriodState, RatingPeriod, RatingPool, RatingRecord
from ratings.services.db import game_locked
from ratings.services.evaluation import period_evaluate
from ratings.services.pools import pool_lock, tournament_pools
from ratings.services.results import closed_period_refusal, game_records_rebuild


@transaction.atomic
def games_redate(*, game_ids: Iterable[int]) -> int:
    """Move the rating records of games whose date (their own or their round's) changed to the
    period of the new date, and re-evaluate the open periods they left and entered. Call it in
    the transaction that changed the date. Refused (``RatingsError``) when a game would leave or
    enter a closed period of a pool that rates it: then nothing must be changed. Returns the
    records written."""
    games = list(Game.objects.filter(pk__in=list(game_ids)).select_related("round__tournament"))
    if not games:
        return 0
    held: dict[int, set[int | None]] = {}
    records = RatingRecord.objects.filter(game__in=games).order_by()
    for pool_id, period_id in records.values_list("pool_id", "period_id"):
        held.setdefault(pool_id, set()).add(period_id)
    rating: dict[int, set[int]] = {}  # pool -> games it rates
    for game in games:
        for pool in tournament_pools(game.round.tournament):
            if pool.start_date <= game.played_on:
                rating.setdefault(pool.pk, set()).add(game.pk)
    written = 0
    pools = RatingPool.objects.filter(pk__in=rating.keys() | held.keys()).order_by("pk")
    for pool in [pool_lock(p, wait=False) for p in pools]:  # an official's save: not held up
        periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start"))
        by_pk = {p.pk: p for p in periods}
        former = [by_pk[pk] for pk in held.get(pool.pk, set()) if pk is not None]
        for period in former:
            if period.state == PeriodState.CLOSED:
                old = RatingRecord.objects.filter(pool=pool, period=period, game__in=games).first()
                raise closed_period_refusal(old.played_on, period, pool)
        groups: dict[int | None, list[Game]] = {}
        rated_here = rating.get(pool.pk, set())
        for game in games:
            if game.pk not in rated_here:
                continue
            day = game.played_on
            period = next((p for p in periods if p.start <= day <= p.end), None)
            if period is not None and period.state == PeriodState.CLOSED and game.rated:
                raise closed_period_refusal(day, period, pool)
            groups.setdefault(period.pk if period else None, []).append(game)
        dropped = [g for g in games if g.pk not in rated_here]
        if not groups:
            game_records_rebuild(pool=pool, period=None, games=[], former=dropped, also=former)
        for index, (period_pk, group) in enumerate(groups.items()):
            game_records_rebuild(
                pool=pool,
                period=by_pk.get(period_pk),
                games=group,
                former=dropped if index == 0 else [],
                also=former,
            )
        # Several groups re-evaluate in turn: evaluate each open period touched once more as a
        # whole, so no member is left with a value computed while other records were moving.
        touched = {p.pk: p for p in [*former, *(by_pk.get(k) for k in groups)] if p is not None}
        for period in touched.values():
            if period.state == PeriodState.OPEN and len(groups) > 1:
                period_evaluate(pool, period)
        written += RatingRecord.objects.filter(pool=pool, game__in=games).count()
    return written


@transaction.atomic
def game_date_change(*, game: Game, date) -> Game:
    """Give a game its own date (None: its round's); its rating records follow it to the period
    of the new date (``games_redate``, the one re-dating service). Refused when either date
    lies in a closed period."""
    game = game_locked(game)
    if game.date == date:
        return game
    game.date = date
    game.save(update_fields=["date"])
    # A game without a rated result has no records: its date touches no rating.
    if game.is_rateable:
        games_redate(game_ids=[game.pk])
    return game
