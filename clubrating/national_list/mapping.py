"""The columns of a national list file: what the import reads, guessed from the header names on
first use, then as the rating officer chose them (``ColumnMapping``)."""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import ColumnMapping

# Field -> its label. The national ID and the rating are needed; the rest is kept when mapped.
FIELDS = {
    "national_id": _("National ID"),
    "rating": _("National rating"),
    "games": _("Games"),
    "name": _("Name"),
    "birth_year": _("Birth year"),
    "club": _("Club"),
}
REQUIRED = ("national_id", "rating")

# Header names federations and spreadsheets use (compared without case, blanks, dots, dashes and
# underscores), in order of preference.
_GUESSES = {
    "national_id": ("nationalid", "id", "ösbnr", "oesbnr", "ösbid", "oesbid", "spielernr", "spielernummer",
                    "spielerid", "pkz", "mitgliedsnr", "mitgliedsnummer", "nr", "nummer", "passnr", "fedid"),
    "rating": ("nationalrating", "rating", "elo", "natelo", "elonational", "nationalelo", "öelo", "oelo",
               "ösbelo", "oesbelo", "elozahl", "wertungszahl", "dwz"),
    "games": ("games", "partien", "anzahlpartien", "spiele", "gamesplayed", "anzahl", "games_count",
              "gamescount"),
    "name": ("name", "spieler", "player", "spielername", "nameplayer", "fullname"),
    "birth_year": ("birthyear", "geburtsjahr", "jahrgang", "geb", "gebjahr", "born", "yob"),
    "club": ("club", "verein", "vereinsname", "clubname"),
}


def _key(header: str) -> str:
    return re.sub(r"[\s._\-/]+", "", header.casefold())


def mapping_guess(columns: list[str]) -> dict[str, str]:
    """{field: column} for every field whose column the header names suggest, each column used
    once."""
    keys = {_key(column): column for column in reversed(columns)}  # the first of equal names
    guessed: dict[str, str] = {}
    for field, names in _GUESSES.items():
        for name in names:
            column = keys.get(_key(name))
            if column is not None and column not in guessed.values():
                guessed[field] = column
                break
    return guessed


def mapping_remembered() -> dict[str, str]:
    found = ColumnMapping.objects.filter(site=1).values_list("columns", flat=True).first()
    return dict(found or {})


def mapping_initial(columns: list[str]) -> dict[str, str]:
    """The mapping to offer for a file with ``columns``: the remembered one where the file has
    its columns, else the guess."""
    remembered = {f: c for f, c in mapping_remembered().items() if f in FIELDS and c in columns}
    if all(field in remembered for field in REQUIRED):
        return remembered
    return mapping_guess(columns)


@transaction.atomic
def mapping_remember(*, columns: dict[str, str], user=None) -> bool:
    """Keep ``columns`` as the site's mapping; False (and nothing written) when it is kept already."""
    columns = {field: column for field, column in columns.items() if field in FIELDS and column}
    if mapping_remembered() == columns:
        return False
    ColumnMapping.objects.update_or_create(site=1, defaults={"columns": columns, "changed_by": user})
    return True
