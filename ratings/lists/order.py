"""The order of a rating list, written once: the rating (best first), then the name, last name
before first name, then the member's record number.

Names are compared folded as the member search folds them (``clubrating.clubs.search.fold_plain``:
lower case, accents removed, "ß" as "ss") and then letter by letter (by code point): in Python
for a list published at a closing (``rank_key``), in SQL for the live list (``RANK_ORDER``)
under the binary collation ("C" on PostgreSQL, BINARY on SQLite), so that neither the database's
locale nor the case of a name ("de Vries", "Dorner") puts a tie in another place on the live
list than on the published one.
"""

from __future__ import annotations

from django.db.models import F, Func

from clubrating.clubs.search import PlainFold, fold_plain


class Binary(Func):
    """An expression compared byte by byte (code point by code point for UTF-8 text)."""

    template = '%(expressions)s COLLATE "C"'

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, template="%(expressions)s COLLATE BINARY",
                              **extra_context)


def name_key(last: str, first: str) -> tuple[str, str]:
    """A member's name as a list orders it (after the rating)."""
    return (fold_plain(last), fold_plain(first))


def rank_key(rating: float, last: str, first: str, member_id: int) -> tuple:
    """A row's place in a list, as ``sorted`` takes it."""
    return (-rating, *name_key(last, first), member_id)


def rank_order(rating: str, member: str = "member__") -> list:
    """``ORDER BY`` of a list whose rows have the rating ``rating`` and reach the member through
    ``member`` ("" on members themselves): the same order as ``rank_key``."""
    return [F(rating).desc(), Binary(PlainFold(F(f"{member}last_name"))).asc(),
            Binary(PlainFold(F(f"{member}first_name"))).asc(), F(f"{member}id").asc()]


# The live list (rows of ``PoolMember``: ``live_rating``).
LIVE_RANK_ORDER = rank_order("live_rating")
