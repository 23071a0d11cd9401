"""The ÖSB transformation of 1.9.2024 (docs/rules.md §1.8) as an explicit, audited operation."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import ListKind, PublishedList, RatingPool
from ratings.rules.presets import get_rules
from ratings.rules.rounding import round_half_away
from ratings.services.errors import RatingsError
from ratings.services.evaluation import period_evaluate
from ratings.services.lists import EntryData, current_list, list_values
from ratings.services.lists import list_publish as _publish
from ratings.services.pools import open_period, pool_lock

TRANSFORM_FACTOR = 0.333333  # ÖSB TUWO, transformation of 1.9.2024


def transformed(rating: float) -> float:
    """new = old + (2000 − old) × 0.333333 for 800 ≤ old ≤ 2000, rounded half away from zero."""
    if 800 <= rating <= 2000:
        return round_half_away(rating + (2000 - rating) * TRANSFORM_FACTOR)
    return rating


@transaction.atomic
def pool_transform_2024(
    *, pool: RatingPool, user=None, valid_from: datetime.date | None = None
) -> PublishedList:
    """Publish a list with every rating transformed; the open period is then evaluated against it.
    Only once per pool, and only for the Austrian rule sets."""
    pool = pool_lock(pool)
    if not get_rules(pool.rules).transformation_2024:
        raise RatingsError(_("The 2024 transformation applies to Austrian (ÖSB) pools only."))
    if PublishedList.objects.filter(pool=pool, kind=ListKind.TRANSFORMATION).exists():
        raise RatingsError(_("The pool “%(pool)s” has already been transformed.") % {"pool": pool.name})
    base = current_list(pool)
    if base is None:
        raise RatingsError(_("The pool “%(pool)s” has no published list to transform.") % {"pool": pool.name})
    entries = {
        m: EntryData(rating=transformed(r), previous=r, games_count=g, reached_2400=reached)
        for m, (r, g, reached) in list_values(base).items()
    }
    plist = _publish(
        pool=pool,
        entries=entries,
        kind=ListKind.TRANSFORMATION,
        valid_from=valid_from or timezone.localdate(),
        user=user,
        note=_("2024 transformation of the list of %(day)s") % {"day": f"{base.valid_from:%d.%m.%Y}"},
    )
    period_evaluate(pool, open_period(pool))
    return plist
