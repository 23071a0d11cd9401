"""A FIDE rating taken over as a first national rating (docs/rules.md §1.8, FIDE take-over).

Reading of §1.8 ("a FIDE rating taken over as a first national rating is converted by
FIDE − (2000 − FIDE) × 0.333333"):

* "Taken over" means: a member who has no published rating in the pool (a newcomer) gets his
  FIDE rating as his first rating instead of waiting for a start value from seven games (§1.6).
  It is an explicit act of the rating officer, published as a list of its own (kind
  ``fide-takeover``: the pool's current list unchanged plus the new first ratings) and recorded
  per member (``FideTakeover``: FIDE rating used, rating given; who and when are the list's).
* The conversion belongs to the national scale after the ÖSB transformation of 1.9.2024: it is
  applied in Austrian (``oesb-*``) pools whose ratings are on that scale — the pool was
  transformed (``pool_transform_2024``) or started on or after 1.9.2024 — for take-overs valid
  from 1.9.2024. Everywhere else (other chess rule sets, or an Austrian pool still on the old
  scale) the FIDE rating is taken over as it is. Both are raised to the pool's floor (§1.4), as a
  start value is. The formula applies to every FIDE rating (2100 → 2133), unlike the
  transformation, which only touched 800–2000. Go pools (``egf-*``) refuse: a chess rating
  means nothing there.
* The open period is then evaluated again: the member's games are now rated games against, and
  by, a rated player instead of newcomer games.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from ratings.adapters import pool_rules
from ratings.models import FideTakeover, ListKind, PoolMember, PublishedList, RatingPool
from ratings.rules.presets import get_rules
from ratings.rules.rounding import round_half_away
from ratings.services.errors import RatingsError
from ratings.services.evaluation import period_evaluate
from ratings.services.lists import EntryData, current_list, list_values
from ratings.services.lists import list_publish as _publish
from ratings.services.pools import open_period, pool_lock
from ratings.services.transform import TRANSFORM_FACTOR

TRANSFORMATION_DAY = datetime.date(2024, 9, 1)


def fide_converted(fide: int | float) -> int:
    """FIDE − (2000 − FIDE) × 0.333333, rounded half away from zero (before the floor)."""
    return round_half_away(fide - (2000 - fide) * TRANSFORM_FACTOR)


def fide_conversion_applies(pool: RatingPool, day: datetime.date) -> bool:
    """True when a FIDE rating taken over into ``pool`` on ``day`` is converted (see above)."""
    if not get_rules(pool.rules).transformation_2024 or day < TRANSFORMATION_DAY:
        return False
    transformed = PublishedList.objects.filter(pool=pool, kind=ListKind.TRANSFORMATION).exists()
    return transformed or pool.start_date >= TRANSFORMATION_DAY


def first_rating_from_fide(pool: RatingPool, fide: int, *, convert: bool) -> int:
    value = fide_converted(fide) if convert else round_half_away(fide)
    floor = pool_rules(pool).floor
    return max(value, floor) if floor is not None else value


def fide_candidates(pool: RatingPool) -> list[Member]:
    """The pool's newcomers (no published rating) who have a FIDE rating, by name (a read)."""
    newcomers = PoolMember.objects.filter(pool=pool, rating__isnull=True).values_list("member_id", flat=True)
    return list(
        Member.objects.filter(pk__in=newcomers, fide_rating__isnull=False).order_by(
            "last_name", "first_name", "pk"
        )
    )


def _candidates(pool: RatingPool, members: Iterable[Member | int] | None) -> list[Member]:
    """The newcomers to take over: given ones (checked, refused as a whole) or every newcomer of
    the pool with a FIDE rating."""
    if members is None:
        found = fide_candidates(pool)
        if not found:
            raise RatingsError(
                _("No newcomer of the pool “%(pool)s” has a FIDE rating.") % {"pool": pool.name}
            )
        return found
    wanted = {m.pk if isinstance(m, Member) else int(m) for m in members}
    if not wanted:
        raise RatingsError(_("Name at least one member."))
    found = list(Member.objects.filter(pk__in=wanted))
    rated = set(
        PoolMember.objects.filter(pool=pool, rating__isnull=False, member_id__in=wanted).values_list(
            "member_id", flat=True
        )
    )
    problems = [
        _("no member has the ID %(id)s") % {"id": pk} for pk in sorted(wanted - {m.pk for m in found})
    ]
    for member in sorted(found, key=lambda m: m.pk):
        if member.fide_rating is None:
            problems.append(_("%(name)s has no FIDE rating") % {"name": member.full_name})
        elif member.pk in rated:
            problems.append(_("%(name)s already has a rating in this pool") % {"name": member.full_name})
    if problems:
        raise RatingsError(
            _("No FIDE rating was taken over: %(problems)s.") % {"problems": "; ".join(problems)}
        )
    return found


@transaction.atomic
def pool_take_over_fide(
    *,
    pool: RatingPool,
    members: Iterable[Member | int] | None = None,
    user=None,
    valid_from: datetime.date | None = None,
) -> PublishedList:
    """Publish first national ratings from the FIDE ratings of newcomers (all of the pool's
    newcomers with a FIDE rating, or ``members``); every other entry of the current list stays
    as it is. The per-member record is ``plist.fide_takeovers``; the open period is re-evaluated."""
    pool = pool_lock(pool)
    if not get_rules(pool.rules).fide_takeover:
        raise RatingsError(_("FIDE ratings can only be taken over into a chess pool."))
    base = current_list(pool)
    if base is None:
        # A list here would block the starting-list import, which only goes into a new pool.
        raise RatingsError(
            _("The pool “%(pool)s” has no published list yet: import its starting list first.")
            % {"pool": pool.name}
        )
    chosen = _candidates(pool, members)
    day = valid_from or timezone.localdate()
    convert = fide_conversion_applies(pool, day)
    entries = {
        m: EntryData(rating=r, previous=r, games_count=g, reached_2400=reached)
        for m, (r, g, reached) in list_values(base).items()
    }
    firsts = {m.pk: first_rating_from_fide(pool, m.fide_rating, convert=convert) for m in chosen}
    for pk, rating in firsts.items():
        entries[pk] = EntryData(rating=rating, start_value=True, reached_2400=rating >= 2400)
    note = (
        _("FIDE ratings taken over, converted (§1.8): %(names)s")
        if convert
        else _("FIDE ratings taken over as they are: %(names)s")
    ) % {"names": ", ".join(sorted(m.full_name for m in chosen))}
    plist = _publish(
        pool=pool, entries=entries, kind=ListKind.FIDE_TAKEOVER, valid_from=day, user=user, note=note
    )
    FideTakeover.objects.bulk_create(
        [
            FideTakeover(
                list=plist, member=m, fide_rating=m.fide_rating, rating=firsts[m.pk], converted=convert
            )
            for m in chosen
        ]
    )
    period_evaluate(pool, open_period(pool))
    return plist
