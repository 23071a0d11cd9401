"""Searching members by a part of the name, accent- and case-insensitively as German readers
expect: "Müller", "Mueller" and "muller" find each other, "ß" and "ss" too.

One folding, written once as a table (``FOLDS``) and applied in the database to the stored search
key (``Member.search_name``, a generated column, so that every way a name is written keeps it
current) and in Python to the words searched for. The key holds each name in two spellings:
*plain* (lower case, accents removed, "ß" as "ss") and *reduced* (the plain one with the German
transcriptions "ae", "oe", "ue" as "a", "o", "u"). A word is found when its plain or its reduced
form is contained in the key: "Mueller" (reduced "muller") finds "Müller", "muller" finds
"Mueller" (reduced "muller"), and "el" still finds "Samuel", whose plain spelling the key keeps.

The table decides the case too (A–Z to a–z): the databases' LOWER() depends on their locale
(SQLite's knows ASCII only), the table does not. PostgreSQL folds with TRANSLATE and REPLACE;
SQLite, which has no TRANSLATE and cannot parse a hundred nested REPLACEs, calls ``fold_plain``
itself (registered on each connection, ``register_sqlite_fold``). Changing the table needs a
migration that writes the column anew. On PostgreSQL a trigram index (``pg_trgm``, migration
``0005``) serves ``LIKE '%word%'`` on the key; SQLite scans, as before.
"""

from __future__ import annotations

import re
import string

from django.db.models import CharField, F, Func, Q, TextField, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Concat, Replace

# Letter -> its plain spelling, in lower and upper case.
_LOWER_FOLDS = {
    "ä": "a", "ö": "o", "ü": "u", "ß": "ss",
    "á": "a", "à": "a", "â": "a", "ã": "a", "å": "a", "ą": "a",
    "é": "e", "è": "e", "ê": "e", "ë": "e", "ě": "e", "ę": "e",
    "í": "i", "ì": "i", "î": "i", "ï": "i",
    "ó": "o", "ò": "o", "ô": "o", "õ": "o", "ő": "o", "ø": "o",
    "ú": "u", "ù": "u", "û": "u", "ű": "u", "ů": "u",
    "ý": "y", "ÿ": "y",
    "č": "c", "ć": "c", "ç": "c", "ď": "d", "đ": "d", "ł": "l", "ľ": "l", "ĺ": "l",
    "ň": "n", "ń": "n", "ñ": "n", "ř": "r", "ŕ": "r", "š": "s", "ś": "s", "ş": "s",
    "ť": "t", "ţ": "t", "ž": "z", "ź": "z", "ż": "z",
}
FOLDS = {
    **dict(zip(string.ascii_uppercase, string.ascii_lowercase, strict=True)),
    **_LOWER_FOLDS,
    # "ß" has no single capital in Python ("SS"), which the lower case of "ss" already covers.
    **{char.upper(): plain for char, plain in _LOWER_FOLDS.items() if len(char.upper()) == 1},
}
# The German transcriptions of the umlauts, read as the plain vowel in the reduced spelling.
REDUCTIONS = {"ae": "a", "oe": "o", "ue": "u"}


SEARCH_MAX = 100  # characters of a search (thousands of words would make the database give up)
# C0 and C1 control characters and DEL: no name holds one, and PostgreSQL refuses a NUL byte.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def search_text(text: str) -> str:
    """What a visitor typed into a search box, as a search reads it: control characters as
    blanks, cut at ``SEARCH_MAX`` characters, without surrounding blanks."""
    return _CONTROL.sub(" ", text[:SEARCH_MAX]).strip()


# ``FOLDS`` as ``str.translate`` takes it (a rating list folds every member's name to order ties).
_FOLD_TABLE = str.maketrans(FOLDS)


def fold_plain(text: str) -> str:
    """Lower case, accents removed, "ß" as "ss": ``FOLDS`` letter by letter."""
    return text.translate(_FOLD_TABLE)


def fold_reduced(text: str) -> str:
    """The plain spelling with "ae", "oe", "ue" as "a", "o", "u"."""
    text = fold_plain(text)
    for pair, vowel in REDUCTIONS.items():
        text = text.replace(pair, vowel)
    return text


SQLITE_FOLD = "clubrating_fold"


def register_sqlite_fold(connection) -> None:
    """Give an SQLite connection ``fold_plain`` as the SQL function ``PlainFold`` calls there
    (deterministic: a generated column may use it)."""
    connection.create_function(SQLITE_FOLD, 1, fold_plain, deterministic=True)


class PlainFold(Func):
    """``fold_plain`` in SQL: TRANSLATE for the letters with one letter as plain spelling,
    REPLACE for the others ("ß"); on SQLite the registered ``fold_plain`` itself."""

    output_field = CharField()  # as the names it folds

    def as_sql(self, compiler, connection, **extra_context):
        singles = {char: plain for char, plain in FOLDS.items() if len(plain) == 1}
        sql, params = compiler.compile(self.source_expressions[0])
        sql, params = f"TRANSLATE({sql}, %s, %s)", [*params, "".join(singles), "".join(singles.values())]
        for char, plain in FOLDS.items():
            if char not in singles:
                sql, params = f"REPLACE({sql}, %s, %s)", [*params, char, plain]
        return sql, params

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function=SQLITE_FOLD, **extra_context)


def _reduced_sql(expression: Combinable) -> Combinable:
    for pair, vowel in REDUCTIONS.items():
        expression = Replace(expression, Value(pair), Value(vowel))
    return expression


def search_key_expression() -> Combinable:
    """The SQL of ``Member.search_name``: "<last> <first> <last> <first>", plain then reduced
    (a searched word has no blank, so it never spans two parts)."""
    plain = PlainFold(Concat(F("last_name"), Value(" "), F("first_name")))
    return Concat(plain, Value(" "), _reduced_sql(plain), output_field=TextField())


def name_words_q(query: str, *, prefix: str = "") -> list[Q]:
    """One condition per word of ``query``: the word in the last or the first name of the member
    (``prefix``: the path to the member, e.g. ``"member__"``), folded as above."""
    field = f"{prefix}search_name__contains"
    conditions = []
    for word in query.split():
        plain, reduced = fold_plain(word), fold_reduced(word)
        condition = Q(**{field: plain})
        if reduced != plain:
            condition |= Q(**{field: reduced})
        conditions.append(condition)
    return conditions
