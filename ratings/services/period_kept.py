"""Closing a reopened period again with the waiting period's calculations kept.

Reopening the pool's latest closed period leaves the period after it waiting: its records keep
their calculations, and its members' live values are kept (PoolMember's WAITING_FIELDS, written
by the reopening's one write of the pool's members). Every calculation of a period uses the
ratings published before it (docs/rules.md, vocabulary), so when the reopened period is closed
again, a waiting member's calculation can only have moved if

- his published values on the new list differ from the withdrawn list's (a correction moved
  them, or the inactivity rule now removes or keeps him), or an opponent's did;
- one of his waiting records changed since it was evaluated: its score is not the score it was
  evaluated with (``RatingRecord.rated_score``: a corrected result, or a record inserted, which
  has none), or it is carried into the period otherwise than the reopening took it back (the
  reopened period's pending games, §1.7, return to it without calculation; the reopening keeps
  them as they were, ``PeriodReopening.carried``, and a record carried again unchanged gets its
  calculation back);
- he has a record fewer or more than his kept live values count (a game deleted or moved, a
  duplicate merged into him), or an opponent has;
- a newcomer he played is connected to any of those (its group's start values, §1.6).

Those members are evaluated (``evaluation._affected`` finds the newcomer groups and loads every
record they need), their changed records written; every other member's live values are the kept
ones. The result equals evaluating the whole period, which the tests check on every value.
"""

from __future__ import annotations

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from ratings.models import (
    ClosingLiveValues,
    ListEntry,
    PeriodReopening,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
)
from ratings.services.db import fetch_rows, rows_update
from ratings.services.evaluation import (
    CALC_FIELDS,
    LIVE_FIELDS,
    _affected,
    _write_records,
    evaluate,
    live_values,
)
from ratings.services.lists import ENTRY_COLUMNS, list_values, pool_members_ensure
from ratings.services.period_members import WAITING_FIELDS, pool_members_write

NEWCOMER = (None, 0, False)
# A carried record as the reopening keeps it (``carried_keep``): the game, its sides and solo
# flag, then its calculation (CALC_FIELDS, the score it was made with last).
CARRIED_FIELDS = ("id", "game_id", "member_id", "opponent_id", "score", "solo", *CALC_FIELDS)
_CALC, _RATED = CARRIED_FIELDS.index("pending"), CARRIED_FIELDS.index("rated_score")
_GAMES, _PENDING = WAITING_FIELDS.index("waiting_games"), WAITING_FIELDS.index("waiting_pending_games")


def carried_keep(returning: QuerySet) -> list[list]:
    """The waiting period's records of the games the reopened period left pending (§1.7), before
    they return to it without calculation (``returning``): each as CARRIED_FIELDS, for
    ``PeriodReopening.carried`` (JSON keeps floats exactly)."""
    return [list(row) for row in fetch_rows(returning.order_by("pk").values_list(*CARRIED_FIELDS))]


def _carry(
    pool: RatingPool, closed: RatingPeriod, successor: RatingPeriod, carried: list[list]
) -> tuple[set[int], set[tuple[int, int]]]:
    """Move the records entering ``successor`` into it (as ``periods.carry_pending`` finds them:
    those the closed period left pending, a side whose opponent already used the game carried
    alone, and those dated in it with no period); returns the members and opponents of those
    whose calculation is to be made. A record the closed period carries again as the reopening
    took it back (``carried``, CARRIED_FIELDS: the same game, member, opponent and solo flag,
    its score the one its calculation was made with) gets that calculation back: every input of
    it is as it was but its players' published values; returned as (member, opponent) pairs,
    for the caller to evaluate those whose published values moved."""
    rows = fetch_rows(
        RatingRecord.objects.filter(pool=pool)
        .filter(Q(period=None, played_on__lte=successor.end) | Q(period=closed, pending=True))
        .order_by("pk").values_list(*CARRIED_FIELDS[:_CALC], *CALC_FIELDS, "period_id")
    )
    before = {row[0]: row for row in carried}
    pending = {(row[1], row[2]) for row in rows if row[-1] == closed.pk}
    updates, seeds, restored = [], set(), set()
    for pk, game, member, opponent, score, solo, *calc, period in rows:
        if period == closed.pk:
            solo = (game, opponent) not in pending
        kept = before.get(pk)
        if (kept is not None and period == closed.pk and kept[_RATED] is not None
                and tuple(kept[:_CALC]) == (pk, game, member, opponent, kept[_RATED], solo)
                and score == kept[_RATED]):
            calc = kept[_CALC:]
            restored.add((member, opponent))
        else:
            seeds |= {member, opponent}
        updates.append((successor.pk, solo, *calc, pk))
    rows_update(RatingRecord, ("id",), ("period_id", "solo", *CALC_FIELDS), updates)
    return seeds, restored


def _changed_records(
    pool: RatingPool, successor: RatingPeriod, kept: dict[int, tuple]
) -> tuple[set[int], set[int]]:
    """Members with a record of ``successor`` not evaluated as it stands, and those with more or
    fewer records than their kept live values count (rated and pending games) or none kept: a
    game deleted or moved, or records given to another member (a duplicate merged), whose
    opponents' records may name him now."""
    counts = fetch_rows(
        RatingRecord.objects.filter(pool=pool, period=successor).order_by().values("member_id").annotate(
            n=Count("id"), changed=Count("id", filter=Q(rated_score=None) | ~Q(rated_score=F("score")))
        ).values_list("member_id", "n", "changed")
    )
    changed_ones, recounted = set(), set()
    for mid, n, changed in counts:
        k = kept.get(mid)
        if changed:
            changed_ones.add(mid)
        if k is None or k[_GAMES] is None or n != k[_GAMES] + k[_PENDING]:
            recounted.add(mid)
    counted = {row[0] for row in counts}
    recounted |= {mid for mid, k in kept.items() if mid not in counted and (k[_GAMES] or k[_PENDING])}
    recounted |= {mid for mid, k in kept.items() if k[_GAMES] is None}  # (a member new to the pool)
    return changed_ones, recounted


def successor_kept_evaluate(
    pool: RatingPool,
    closed: RatingPeriod,
    successor: RatingPeriod,
    published: dict[int, tuple],
    withdrawn_list: PublishedList,
    names: dict[int, tuple[str, str]] | None = None,
) -> bool:
    """Open ``successor`` (waiting while ``closed`` was reopened) from the new list's published
    values ``published`` (``published_values``, not yet stored), evaluating only the members
    whose inputs differ from those its kept calculations were made with (the published values
    of ``withdrawn_list``, the list the reopening withdrew), and write the pool's members (the new
    published values, live values and ranks) in one write of the rows that change. False, and
    nothing written, when the reopening kept no live values (the caller evaluates the period)."""
    pool_members_ensure(pool, published)
    kept = {
        mid: tuple(values)
        for mid, *values in fetch_rows(
            PoolMember.objects.filter(pool=pool).order_by().values_list("member_id", *WAITING_FIELDS)
        )
    }
    # The records the reopening kept are read once, then dropped: no page reads them whole.
    reopening, carried = next(iter(PeriodReopening.objects.filter(period=closed).order_by("-pk").values_list(
        "pk", "carried")[:1]), (None, []))
    if carried:
        PeriodReopening.objects.filter(pk=reopening).update(carried=[])
    if all(k[_GAMES] is None for k in kept.values()):
        return False
    withdrawn = list_values(withdrawn_list)
    moved = {m for m in published.keys() | withdrawn.keys()
             if published.get(m, NEWCOMER) != withdrawn.get(m, NEWCOMER)}
    carried, restored = _carry(pool, closed, successor, carried)
    changed, recounted = _changed_records(pool, successor, kept)
    # A carried record alone in the period (its opponent's side stayed in the closed one) is
    # not reached from a moved opponent's records: its players are evaluated here.
    carried |= {m for pair in restored if not moved.isdisjoint(pair) or not recounted.isdisjoint(pair)
                for m in pair}
    seeds = moved | carried | changed | recounted
    affected, recs, state = _affected(pool, successor, seeds, published=published, moved=moved | recounted)
    result = evaluate(pool, successor, state, recs)
    _write_records(result, recs, affected)
    live = {mid: live_values(pool, result, state, mid) for mid in affected}

    def values(mid: int) -> tuple:
        return (*published.get(mid, NEWCOMER), *(live[mid] if mid in live else kept[mid]))

    pool_members_write(pool, values, names=names)
    return True


def withdrawn_unchanged(withdrawn: PublishedList, rows: list[tuple], kept: list[tuple]) -> bool:
    """Whether the list closing again would publish is the withdrawn one: the same rows
    (``list_rows``: every entry, its rank and club) and the same live values kept with it
    (``kept``, as ``periods.live_entries`` gives them). Then the withdrawn list stands again
    and nothing is written (after a reopening without corrections)."""
    stored = fetch_rows(ListEntry.objects.filter(list=withdrawn).order_by("rank").values_list(*ENTRY_COLUMNS))
    if [tuple(row) for row in stored] != rows:
        return False
    closing = fetch_rows(ClosingLiveValues.objects.filter(list=withdrawn).order_by().values_list(
        "member_id", *LIVE_FIELDS))
    return sorted(tuple(row) for row in closing) == sorted(tuple(row) for row in kept)


def withdrawn_stands(withdrawn: PublishedList, user) -> PublishedList:
    """The withdrawn list stands again, published now: a browser that kept it withdrawn is told
    it changed (its Last-Modified and version follow the publication)."""
    withdrawn.published_at = timezone.now()
    withdrawn.published_by = user if user is not None and getattr(user, "is_authenticated", False) else None
    withdrawn.save(update_fields=["published_at", "published_by"])
    return withdrawn
