"""Closing a period into a published list, opening the next one, and reopening."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.db import transaction
from django.db.models import BigIntegerField, BooleanField, Case, ExpressionWrapper, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.adapters import pool_rules
from ratings.models import (
    ClosingLiveValues,
    PeriodReopening,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
)
from ratings.rules.period import PeriodResult
from ratings.services.cache import pool_cache_bump
from ratings.services.calendar import period_bounds
from ratings.services.db import fetch_rows, rows_update
from ratings.services.errors import RatingsError
from ratings.services.evaluation import (
    CALC_FIELDS,
    LIVE_FIELDS,
    RECORD_FIELDS,
    Rec,
    State,
    _write_members,
    evaluate,
    peak_ratings,
    pending_sides,
    period_evaluate,
    pool_state,
    stored_live_values,
)
from ratings.services.inactivity import inactive_members
from ratings.services.lists import (
    EntryData,
    current_list,
    list_publish,
    list_values,
    pool_members_ensure,
    state_from_entries,
)
from ratings.services.pools import open_period, pool_lock

# A record waiting with no period has no calculation (as recording it there leaves it).
UNCALCULATED = dict.fromkeys(("own_rating", "opponent_rating", "difference", "expected", "factor", "change"))
UNCALCULATED["pending"] = False

Progress = Callable[[int, str], None]

# LIVE_FIELDS after the live rating of a member without a game in the period (``live_values``).
IDLE = (None, 0, 0.0, 0.0, None, 0)


def _silent(percent: int, step: str) -> None:
    """Progress goes nowhere when no background job listens."""


def list_entries(state: State, result: PeriodResult) -> dict[int, EntryData]:
    """The new list from the published state and the period's result, as the engine computed it."""
    entries: dict[int, EntryData] = {}
    for mid, pub in state.items():
        pr = result.players.get(mid)
        if pub.rating is not None:
            new = pr.new_rating if pr is not None else pub.rating
            games = pr.games if pr is not None else 0
            entries[mid] = EntryData(
                rating=new,
                previous=pub.rating,
                games_count=pub.games_count + games,
                period_games=games,
                markers=pr.markers if pr is not None else "",
                reached_2400=pub.reached_2400 or new >= 2400 or (pub.peak_rating or 0) >= 2400,
            )
        elif pr is not None and pr.published:
            entries[mid] = EntryData(
                rating=pr.new_rating,
                games_count=pr.games,
                period_games=pr.games,
                markers=pr.markers,
                start_value=True,
                reached_2400=pr.new_rating >= 2400,
            )
    return entries


def live_entries(pool: RatingPool, kept: list[tuple] | None = None) -> dict[int, EntryData]:
    """The new list from the open period's live values, which every change of the period has
    kept equal to what the engine computes (``list_entries`` of a whole evaluation): closing a
    federation pool need not evaluate its period once more. Not for rule sets whose list marks
    come from the evaluation (the dsb blend). ``kept`` receives (member, *LIVE_FIELDS) of every
    member with a game in the period, to be kept with the list for reopening it."""
    peaks = peak_ratings(pool)
    entries: dict[int, EntryData] = {}
    rows = fetch_rows(
        PoolMember.objects.filter(pool=pool).order_by().values_list(
            "member_id", "rating", "games_count", "reached_2400", *LIVE_FIELDS
        )
    )
    for mid, rating, games_count, reached, *live_values in rows:
        live, games = live_values[0], live_values[2]
        if kept is not None and tuple(live_values) != (rating, *IDLE):
            kept.append((mid, *live_values))
        if rating is not None:
            entries[mid] = EntryData(
                rating=live,
                previous=rating,
                games_count=games_count + games,
                period_games=games,
                reached_2400=reached or live >= 2400 or (peaks.get(mid) or 0) >= 2400,
            )
        elif live is not None:
            entries[mid] = EntryData(
                rating=live, games_count=games, period_games=games, start_value=True,
                reached_2400=live >= 2400,
            )
    return entries


def state_restore(pool: RatingPool, published: dict[int, tuple], plist: PublishedList) -> None:
    """Make PoolMember the state before ``plist``'s period closed, in one write: the published
    values of the list in force before (``published``, as ``state_from_entries`` takes them;
    every other member a newcomer) and the live values kept when ``plist`` was published;
    members without a kept row had no game in the period, so their live rating is their
    published one."""
    pool_members_ensure(pool, published)
    kept = {
        mid: tuple(values)
        for mid, *values in fetch_rows(
            ClosingLiveValues.objects.filter(list=plist).order_by().values_list("member_id", *LIVE_FIELDS)
        )
    }
    stored = fetch_rows(
        PoolMember.objects.filter(pool=pool).order_by().values_list(
            "member_id", "rating", "games_count", "reached_2400", *LIVE_FIELDS
        )
    )
    newcomer = (None, 0, False)
    rows = []
    for mid, *values in stored:
        state = tuple(published.get(mid, newcomer))
        new = (*state, *(kept.get(mid) or (state[0], *IDLE)))
        if tuple(values) != new:
            rows.append((*new, pool.pk, mid))
    columns = ("rating", "games_count", "reached_2400", *LIVE_FIELDS)
    rows_update(PoolMember, ("pool_id", "member_id"), columns, rows)
    pool_cache_bump(pool_id=pool.pk)


def carry_pending(pool: RatingPool, period: RatingPeriod, successor: RatingPeriod) -> list[Rec]:
    """The records that enter the new open period ``successor`` (not yet written): the games
    that waited for it (dated in it, with no period or in ``successor`` while it was waiting)
    and those the engine left pending in the closed ``period`` (§1.7); a side whose opponent
    already used the game is carried alone (``solo``)."""
    entering = RatingRecord.objects.filter(pool=pool).filter(
        Q(period=None, played_on__lte=successor.end) | Q(period=period, pending=True) | Q(period=successor)
    )
    # Without their (empty or replaced) calculation: the new period's evaluation writes it.
    rows = fetch_rows(entering.order_by("pk").values_list(*RECORD_FIELDS, "period_id"))
    closed = period.pk  # (read once: a federation pool brings 200,000 records here)
    pending = {(game, member) for _id, game, member, *_rest, pid in rows if pid == closed}
    return [
        Rec(rid, game, member, opponent, white, score, (game, opponent) not in pending)
        if pid == closed
        else Rec(rid, game, member, opponent, white, score, solo)
        for rid, game, member, opponent, white, score, solo, pid in rows
    ]


def successor_evaluate(pool: RatingPool, successor: RatingPeriod, recs: list[Rec]) -> None:
    """Evaluate the new open period and store its records with their new period in one write
    (moving them first and then storing their values wrote every record twice)."""
    state = pool_state(pool)
    result = evaluate(pool, successor, state, recs)
    calc = result.side_rows()
    pending = pending_sides(result)
    uncalculated = (None,) * 6
    rows = []
    new = successor.pk
    for r in recs:
        key = (r.game_id, r.member_id)
        c = calc.get(key)
        values = (key in pending, *uncalculated) if c is None else (False, *c)
        rows.append((new, r.solo, *values, r.id))
    rows_update(RatingRecord, ("id",), ("period_id", "solo", *CALC_FIELDS), rows)
    _write_members(pool, result, state, state.keys(), stored=stored_live_values(pool))


def next_period_open(pool: RatingPool, after: RatingPeriod) -> RatingPeriod:
    """The period after ``after``: the one waiting since ``after`` was reopened, else a new
    one. Games entered ahead of time wait with no period, or in the waiting period, until it
    opens (``carry_pending`` brings them in)."""
    start = after.end + datetime.timedelta(days=1)
    # (A pool's rule set, hence its calendar, never changes: the waiting period has these bounds.)
    waiting = RatingPeriod.objects.filter(pool=pool, start=start, state=PeriodState.WAITING).first()
    if waiting is not None:
        waiting.state = PeriodState.OPEN
        waiting.save(update_fields=["state"])
        return waiting
    end = period_bounds(pool_rules(pool), start)[1]
    return RatingPeriod.objects.create(pool=pool, start=start, end=end)


def solo_refresh(pool: RatingPool, period: RatingPeriod) -> None:
    """A record is carried alone exactly when its opponent's record of the game is elsewhere.
    Only the games with a pending side can have been carried (§1.7): the others are not read."""
    records = RatingRecord.objects.filter(pool=pool, period=period)
    carried = records.filter(pending=True).values("game_id")
    rows = fetch_rows(records.filter(game_id__in=carried).order_by().values_list("id", "game_id", "solo"))
    sides: dict[int, int] = {}
    for _id, game_id, _solo in rows:
        sides[game_id] = sides.get(game_id, 0) + 1
    changed = [(sides[g] == 1, i) for i, g, solo in rows if solo != (sides[g] == 1)]
    rows_update(RatingRecord, ("id",), ("solo",), changed)


@transaction.atomic
def period_close(*, pool: RatingPool, user=None, progress: Progress | None = None) -> PublishedList:
    """Publish the open period's list exactly as the engine computes it and open the next period."""
    report = progress or _silent
    pool = pool_lock(pool)
    report(5, _("Evaluating the period"))
    try:
        period = open_period(pool)
    except RatingPeriod.DoesNotExist:
        raise RatingsError(_("The pool “%(pool)s” has no open period.") % {"pool": pool.name}) from None
    if pool_rules(pool).blend_games:  # the list's marks come from the evaluation
        result, state, _recs = period_evaluate(pool, period, live=False)
        entries = list_entries(state, result)
        kept = None
    else:
        kept = []
        entries = live_entries(pool, kept)
    valid_from = period.end + datetime.timedelta(days=1)
    # ÖSB TUWO § 27 d: members inactive too long leave the list and become newcomers.
    for member_id in inactive_members(pool=pool, list_date=valid_from, member_ids=entries):
        del entries[member_id]
    report(40, _("Publishing the list"))
    plist = list_publish(
        pool=pool,
        entries=entries,
        period=period,
        valid_from=valid_from,
        user=user,
        live_values=kept,  # (the dsb blend's reopening evaluates the period again, as its closing did)
    )
    period.state = PeriodState.CLOSED
    period.closed_at = timezone.now()
    period.closed_by = user if user is not None and getattr(user, "is_authenticated", False) else None
    period.save(update_fields=["state", "closed_at", "closed_by"])
    report(70, _("Opening the next period"))
    successor = next_period_open(pool, period)
    successor_evaluate(pool, successor, carry_pending(pool, period, successor))
    return plist


@transaction.atomic
def period_reopen(
    *, period: RatingPeriod, reason: str, user=None, progress: Progress | None = None
) -> PeriodReopening:
    """Reopen the pool's latest closed period so its games can be corrected; closing it again
    publishes a list that replaces the old one. The reason is required and kept."""
    reason = (reason or "").strip()
    if not reason:
        raise RatingsError(_("Reopening a period needs a reason."))
    report = progress or _silent
    pool = pool_lock(period.pool)
    report(5, _("Returning the games to the period"))
    period = RatingPeriod.objects.get(pk=period.pk)
    if period.state != PeriodState.CLOSED:
        raise RatingsError(_("Only a closed period can be reopened."))
    plist = PublishedList.objects.filter(period=period, superseded=False).first()
    successor = RatingPeriod.objects.filter(pool=pool, start__gt=period.start).order_by("start")
    if successor.exclude(state__in=[PeriodState.OPEN, PeriodState.WAITING]).exists() or (
        plist is not None and PublishedList.objects.filter(pool=pool, pk__gt=plist.pk).exists()
    ):
        raise RatingsError(
            _(
                "Only the latest closed period can be reopened, and only while no later "
                "list has been published."
            )
        )
    following = successor.first()
    if following is not None and following.state == PeriodState.OPEN:
        # In one statement: the games the period left pending (§1.7), dated before the
        # following one, return to it as its closing left them (pending; ``solo_refresh``
        # below sets their solo flags). Games dated in the following period wait in it, without
        # calculation, until closing this one opens it again: they keep their period, and
        # rewriting only their calculation leaves the record indexes alone (a federation pool
        # has 200,000 of them a period).
        carried = Q(played_on__lt=following.start)
        RatingRecord.objects.filter(pool=pool, period=following).update(
            **{**UNCALCULATED, "pending": ExpressionWrapper(carried, output_field=BooleanField())},
            period=Case(
                When(carried, then=Value(period.pk)), default=F("period"), output_field=BigIntegerField()
            ),
            solo=False,
        )
        following.state = PeriodState.WAITING
        following.save(update_fields=["state"])
    solo_refresh(pool, period)
    report(40, _("Restoring the list in force before"))
    published = list_values(current_list(pool, before=plist) if plist else current_list(pool))
    kept = plist is not None and plist.live_values_kept
    if kept:
        # Nothing the period's evaluation reads has changed since its closing (its records, the
        # list in force before it): its live values are those kept then.
        state_restore(pool, published, plist)
    else:
        state_from_entries(pool, published)
    period.state = PeriodState.OPEN
    period.closed_at = None
    period.closed_by = None
    period.save(update_fields=["state", "closed_at", "closed_by"])
    reopening = PeriodReopening.objects.create(
        period=period,
        reason=reason,
        reopened_by=user if user is not None and getattr(user, "is_authenticated", False) else None,
    )
    if not kept:  # a list published before live values were kept
        report(70, _("Evaluating the period"))
        period_evaluate(pool, period)
    return reopening
