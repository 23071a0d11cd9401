"""Closing a period into a published list, opening the next one, and reopening."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
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
    entry_markers,
)
from ratings.rules.period import PeriodResult
from ratings.services.calendar import period_bounds
from ratings.services.db import fetch_rows, rows_update
from ratings.services.errors import RatingsError
from ratings.services.evaluation import (
    CALC_FIELDS,
    LIVE_FIELDS,
    RECORD_FIELDS,
    State,
    evaluate,
    load_records,
    peak_ratings,
    pending_sides,
    period_evaluate,
    pool_state,
)
from ratings.services.evaluation import live_values as member_live_values
from ratings.services.inactivity import inactive_members
from ratings.services.lists import (
    EntryData,
    class_code,
    current_list,
    list_name,
    list_order,
    list_publish,
    list_rows,
    list_valid_from,
    list_values,
    pool_members_ensure,
    published_values,
    state_from_entries,
)
from ratings.services.period_checks import early_close_refusal, period_close_check, period_reopen_refusal
from ratings.services.period_kept import (
    carried_keep,
    successor_kept_evaluate,
    withdrawn_stands,
    withdrawn_unchanged,
)
from ratings.services.period_members import pool_members_write
from ratings.services.pools import open_period, pool_lock

# A record waiting with no period has no calculation (as recording it there leaves it).
UNCALCULATED = dict.fromkeys(("own_rating", "opponent_rating", "difference", "expected", "factor", "change"))
UNCALCULATED["pending"] = False
UNCALCULATED["rated_score"] = None

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


def state_restore(
    pool: RatingPool, published: dict[int, tuple], plist: PublishedList, *, keep_waiting: bool = False
) -> None:
    """Make PoolMember the state before ``plist``'s period closed, in one write: the published
    values of the list in force before (``published``, as ``state_from_entries`` takes them;
    every other member a newcomer) and the live values kept when ``plist`` was published;
    members without a kept row had no game in the period, so their live rating is their
    published one. ``keep_waiting``: the live values as stored, the waiting period's, are kept
    in the same write (``pool_members_write``) for closing again (``period_kept``)."""
    pool_members_ensure(pool, published)
    kept = {
        mid: tuple(values)
        for mid, *values in fetch_rows(
            ClosingLiveValues.objects.filter(list=plist).order_by().values_list("member_id", *LIVE_FIELDS)
        )
    }
    newcomer = (None, 0, False)

    def restored(mid: int) -> tuple:
        state = tuple(published.get(mid, newcomer))
        return (*state, *(kept.get(mid) or (state[0], *IDLE)))

    pool_members_write(pool, restored, keep_waiting=keep_waiting)


# Where a row of ``carry_pending`` holds what ``successor_evaluate`` reads: ``Rec``'s places
# (``evaluate`` reads its sides by ``SIDE_FIELDS``).
_ID, _GAME, _MEMBER, _OPPONENT, _SCORE, _SOLO = (
    RECORD_FIELDS.index(f) for f in ("id", "game_id", "member_id", "opponent_id", "score", "solo")
)


def carry_pending(pool: RatingPool, period: RatingPeriod, successor: RatingPeriod) -> list[tuple]:
    """The records that enter the new open period ``successor`` (not yet written): the games
    that waited for it (dated in it, with no period or in ``successor`` while it was waiting)
    and those the engine left pending in the closed ``period`` (§1.7); a side whose opponent
    already used the game is carried alone (``solo``). Each as a plain row: RECORD_FIELDS, then
    as stored its period, solo flag and calculation (``Rec``'s fields at ``Rec``'s places, the
    stored values in place of ``stored``: a federation pool brings 200,000 records here, and
    building a ``Rec`` of each cost a tenth of the closing)."""
    entering = RatingRecord.objects.filter(pool=pool).filter(
        Q(period=None, played_on__lte=successor.end) | Q(period=period, pending=True) | Q(period=successor)
    )
    # With their stored period, solo flag and calculation: the new period's evaluation writes
    # only the records whose values change (a waiting period's records keep their calculation
    # from before the reopening; most stay as they are).
    rows = fetch_rows(entering.order_by("pk").values_list(*RECORD_FIELDS, "period_id", "solo", *CALC_FIELDS))
    closed = period.pk  # (read once)
    n = len(RECORD_FIELDS)
    carried = [i for i, row in enumerate(rows) if row[n] == closed]
    pending = {(rows[i][_GAME], rows[i][_MEMBER]) for i in carried}
    for i in carried:
        row = rows[i]
        rows[i] = (*row[:_SOLO], (row[_GAME], row[_OPPONENT]) not in pending, *row[_SOLO + 1:])
    return rows


def successor_evaluate(
    pool: RatingPool, successor: RatingPeriod, recs: list[tuple], published: dict[int, tuple], names=None
) -> None:
    """Evaluate the new open period and store its records with their new period in one write
    (moving them first and then storing their values wrote every record twice), only those
    whose period, solo flag or calculation change (the stored values of ``carry_pending``'s
    rows). ``published``: the new list's published values (``published_values``), not yet
    stored: they are the state the period is evaluated from, and are written with the live
    values and ranks in one write (``pool_members_write``; every other member of the pool
    becomes a newcomer, as ``state_from_entries`` has it; ``names`` as ``list_rows`` gives them)."""
    pool_members_ensure(pool, published)
    state = pool_state(pool)
    newcomer = (None, 0, False)
    for mid, pub in state.items():
        pub.rating, pub.games_count, pub.reached_2400 = published.get(mid, newcomer)
    result = evaluate(pool, successor, state, recs)
    calc = result.side_rows()
    pending = pending_sides(result)
    uncalculated = (None,) * 6
    rows = []
    new = successor.pk
    stored = len(RECORD_FIELDS)
    for r in recs:
        key = (r[_GAME], r[_MEMBER])
        c = calc.get(key)
        calculation = (key in pending, *uncalculated) if c is None else (False, *c)
        values = (new, r[_SOLO], *calculation, r[_SCORE])
        if values != r[stored:]:
            rows.append((*values, r[_ID]))
    rows_update(RatingRecord, ("id",), ("period_id", "solo", *CALC_FIELDS), rows)
    pool_members_write(pool, {
        mid: (p.rating, p.games_count, p.reached_2400, *member_live_values(pool, result, state, mid))
        for mid, p in state.items()
    }, names=names)


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


def period_end_early(pool: RatingPool, period: RatingPeriod, day: datetime.date) -> None:
    """Closing early: ``period`` ends on ``day``. Its games dated later leave it without
    calculation and wait, like any game after the open period, for the next period, which
    starts the day after; the period is evaluated again without them (if there were any)."""
    later = RatingRecord.objects.filter(pool=pool, period=period, played_on__gt=day)
    moved = later.update(period=None, solo=False, **UNCALCULATED)
    period.end = day
    period.save(update_fields=["end"])
    if moved:
        period_evaluate(pool, period)


def close_guard(period: RatingPeriod, *, early: bool, reason: str) -> datetime.date | None:
    """Refuse closing ``period`` today unless ``period_close_check`` allows it (closing early
    only as asked, with a reason); returns the day an early closing ends it on, else None."""
    today = timezone.localdate()
    check = period_close_check(period, today=today)
    if not check.allowed:
        raise RatingsError(check.refusal)
    if not check.early:
        return None
    refusal = early_close_refusal(period, early=early, reason=reason)
    if refusal:
        raise RatingsError(refusal)
    return today


@transaction.atomic
def period_close(
    *, pool: RatingPool, user=None, progress: Progress | None = None, early: bool = False, reason: str = ""
) -> PublishedList:
    """Publish the open period's list exactly as the engine computes it and open the next period.
    Before the period's last day only with ``early`` and a ``reason`` (kept with the list): the
    period then ends today, and its later days belong to the next period."""
    report = progress or _silent
    pool = pool_lock(pool)
    report(5, _("Evaluating the period"))
    try:
        period = open_period(pool)
    except RatingPeriod.DoesNotExist:
        raise RatingsError(_("The pool “%(pool)s” has no open period.") % {"pool": pool.name}) from None
    reason = (reason or "").strip()
    cut = close_guard(period, early=early, reason=reason)
    if cut is not None:
        period_end_early(pool, period, cut)
    if pool_rules(pool).blend_games:  # the list's marks come from the evaluation
        result, state, _recs = period_evaluate(pool, period, live=False)
        entries = list_entries(state, result)
        kept = None
    else:
        kept = []
        entries = live_entries(pool, kept)
    valid_from = list_valid_from(period)
    # ÖSB TUWO § 27 d: members inactive too long leave the list and become newcomers.
    for member_id in inactive_members(pool=pool, list_date=valid_from, member_ids=entries):
        del entries[member_id]
    # Closing again after a reopening: the list it withdrew, whose published values the waiting
    # period's kept calculations were made with (``period_kept``; not the dsb blend's, whose
    # reopening evaluates the period anew and keeps nothing).
    withdrawn = PublishedList.objects.filter(period=period, superseded=False).first()
    waiting = withdrawn is not None and kept is not None and RatingPeriod.objects.filter(
        pool=pool, start=period.end + datetime.timedelta(days=1), state=PeriodState.WAITING).exists()
    report(40, _("Publishing the list"))
    rows = list_rows(pool, entries, names=(names := {}))  # (names: for the live places)
    early_reason = reason if cut is not None else ""
    if (waiting and (withdrawn.valid_from, withdrawn.early_reason) == (valid_from, early_reason)
            and withdrawn_unchanged(withdrawn, rows, kept)):
        plist = withdrawn_stands(withdrawn, user)  # nothing corrected changed it (docs/rules.md §4.3)
    else:
        plist = list_publish(
            pool=pool,
            entries=entries,
            period=period,
            valid_from=valid_from,
            user=user,
            live_values=kept,  # (the dsb blend's reopening evaluates the period again, as its closing did)
            early_reason=early_reason,
            apply=False,  # written with the next period's live values (successor_evaluate)
            rows=rows,
        )
    period.state = PeriodState.CLOSED
    period.closed_at = timezone.now()
    period.closed_by = user if user is not None and getattr(user, "is_authenticated", False) else None
    period.save(update_fields=["state", "closed_at", "closed_by"])
    report(70, _("Opening the next period"))
    successor = next_period_open(pool, period)
    values = published_values(entries)
    if not (waiting and successor_kept_evaluate(pool, period, successor, values, withdrawn, names)):
        successor_evaluate(pool, successor, carry_pending(pool, period, successor), values, names)
    return plist


@dataclass
class PreviewRow:
    """A row of the close page's preview, as a rating-list table shows it (the ``list_*``
    attributes of ``ratings.selectors.published_rows``)."""

    rank: int
    member: Member
    list_club: str
    list_birth_year: int | None
    list_rating: float
    list_change: float | None
    list_games: int
    list_period_games: int
    list_markers: str
    list_class: str
    start_value: bool
    provisional: bool = False

    @property
    def rating(self) -> float:
        return self.list_rating

    @property
    def change(self) -> float | None:
        return self.list_change


def close_preview_window(*, period: RatingPeriod) -> tuple[datetime.date, bool]:
    """The day closing ``period`` today ends it on, and whether closing evaluates the period anew
    (the dsb blend, or an early closing that leaves games dated after today to the next period)
    rather than publishing the members' live values. Refused (``RatingsError``) when the period
    cannot be closed today."""
    check = period_close_check(period, today=timezone.localdate())
    if not check.allowed:
        raise RatingsError(check.refusal)
    end = timezone.localdate() if check.early else period.end
    leaving = check.early and RatingRecord.objects.filter(
        pool=period.pool, period=period, played_on__gt=end).exists()
    return end, bool(pool_rules(period.pool).blend_games or leaving)


def period_close_list_preview(*, period: RatingPeriod) -> list[PreviewRow]:
    """The list closing ``period`` today would publish, in rank order, read without locking or
    writing anything: from the members' live values, which every change of the period keeps
    equal to what the engine computes for it (what ``period_close`` publishes). The engine runs
    here, in memory, only where closing evaluates the period anew: the dsb blend, and an early
    closing that leaves games dated after today to the next period."""
    pool = period.pool
    end, anew = close_preview_window(period=period)
    if anew:
        records = RatingRecord.objects.filter(pool=pool, period=period)
        state = pool_state(pool)
        recs = load_records(records.filter(played_on__lte=end))
        entries = list_entries(state, evaluate(pool, period, state, recs))
    else:
        entries = live_entries(pool)
    valid_from = end + datetime.timedelta(days=1)  # (``list_valid_from`` of the period as closing ends it)
    for member_id in inactive_members(pool=pool, list_date=valid_from, member_ids=entries):
        del entries[member_id]
    members = {
        m.pk: m for m in Member.objects.filter(
            pk__in=PoolMember.objects.filter(pool=pool).values("member_id")
        ).select_related("club")
    }
    rows = []
    names = {mid: list_name(m.last_name, m.first_name) for mid, m in members.items()}
    for rank, mid in enumerate(list_order(entries, names), start=1):
        e, member = entries[mid], members[mid]
        rows.append(PreviewRow(
            rank=rank, member=member, list_club=member.club.name if member.club else "",
            list_birth_year=member.birth_date.year if member.birth_date else member.birth_year,
            list_rating=e.rating, list_change=None if e.previous is None else e.rating - e.previous,
            list_games=e.games_count, list_period_games=e.period_games,
            list_markers=entry_markers(start_value=e.start_value, markers=e.markers),
            list_class=class_code(pool, e.rating), start_value=e.start_value,
        ))
    return rows


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
    plist = PublishedList.objects.filter(period=period, superseded=False).first()
    successor = RatingPeriod.objects.filter(pool=pool, start__gt=period.start).order_by("start")
    refusal = period_reopen_refusal(
        period,
        later_closed=successor.filter(state=PeriodState.CLOSED).exists(),
        later_list=plist is not None and PublishedList.objects.filter(pool=pool, pk__gt=plist.pk).exists(),
    )
    if refusal:
        raise RatingsError(refusal)
    following = successor.first()
    waiting = following is not None and following.state == PeriodState.OPEN
    carried = []
    if waiting:
        # In one statement: the games the period left pending (§1.7), dated before the
        # following one, return to it as its closing left them (pending, without calculation,
        # kept with the reopening: ``carried_keep``; ``solo_refresh`` below sets their solo
        # flags). Games dated in the following period wait
        # in it until closing this one opens it again, and keep their calculation: every reader
        # treats a waiting period's calculation as none (``waiting_calculation_hidden``), and
        # closing again writes only the records whose calculation the new list changes (a
        # federation pool has 200,000 of them a period; after a reopening without corrections,
        # almost none).
        returning = RatingRecord.objects.filter(pool=pool, period=following, played_on__lt=following.start)
        carried = carried_keep(returning) if plist is not None and plist.live_values_kept else []
        returning.update(**{**UNCALCULATED, "pending": True}, period=period, solo=False)
        following.state = PeriodState.WAITING
        following.save(update_fields=["state"])
    solo_refresh(pool, period)
    report(40, _("Restoring the list in force before"))
    published = list_values(current_list(pool, before=plist) if plist else current_list(pool))
    kept = plist is not None and plist.live_values_kept
    if kept:
        # Nothing the period's evaluation reads has changed since its closing (its records, the
        # list in force before it): its live values are those kept then.
        state_restore(pool, published, plist, keep_waiting=waiting)
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
        carried=carried,
    )
    if not kept:  # a list published before live values were kept
        report(70, _("Evaluating the period"))
        period_evaluate(pool, period)
    return reopening
