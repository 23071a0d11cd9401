"""Inactive players leave the list (Austrian national rating rules, ÖSB TUWO § 27 d).

"Liegen von einem Spieler sieben Jahre lang keine auswertbaren Ergebnisse vor, wird er aus der
ÖEL gestrichen. Bis zu diesem Zeitpunkt bleibt seine letzte Elozahl erhalten."

Read here (docs/rules.md §1.8a): a list dated D (its ``valid_from``) leaves out a member whose
last rated game in the pool was played before the same calendar day N years before D, i.e. more
than N years before the list's date; a game exactly N years before D still keeps him. A member
without any rated game in the pool counts from the date of the first list in force that rated
him. Until removal the list keeps his last rating unchanged; afterwards he is a newcomer of the
pool (no published rating), so should he play again he earns a start value like any newcomer.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import Max

from ratings.models import ListEntry, RatingPool, RatingRecord
from ratings.rules.presets import get_rules


def default_inactivity_years(rules: str) -> int | None:
    """The setting a new pool gets from its rule set (``Rules.inactivity_years``): the ÖSB's 7
    years for the Austrian rule sets, off otherwise."""
    return get_rules(rules).inactivity_years


def years_before(day: datetime.date, years: int) -> datetime.date:
    """The same calendar day ``years`` earlier (29 February becomes 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def inactivity_cutoff(pool: RatingPool, list_date: datetime.date) -> datetime.date | None:
    """The earliest day a rated game (or first rating) keeps a member on the list dated
    ``list_date``; None when the pool keeps inactive members."""
    if not pool.inactivity_years:
        return None
    return years_before(list_date, pool.inactivity_years)


def inactive_members(*, pool: RatingPool, list_date: datetime.date, member_ids: Iterable[int]) -> set[int]:
    """Those of ``member_ids`` that the list dated ``list_date`` leaves out. At most two set
    queries for the whole pool, none per member; none while the pool is younger than the cutoff
    (its games and lists all date from its start)."""
    cutoff = inactivity_cutoff(pool, list_date)
    wanted = set(member_ids)
    if cutoff is None or not wanted or cutoff <= pool.start_date:
        return set()
    last_game = dict(
        RatingRecord.objects.filter(pool=pool, played_on__lt=list_date)
        .values("member_id")
        .annotate(last=Max("played_on"))
        .values_list("member_id", "last")
    )
    inactive = {m for m in wanted if m in last_game and last_game[m] < cutoff}
    if wanted - last_game.keys():
        # Without any rated game, the first list in force that rated him counts.
        listed_before = set(
            ListEntry.objects.filter(list__pool=pool, list__superseded=False, list__valid_from__lt=cutoff)
            .values_list("member_id", flat=True)
            .distinct()
        )
        inactive |= (wanted - last_game.keys()) & listed_before
    return inactive
