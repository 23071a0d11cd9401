"""The column mapping: guessed from the header names on first use, remembered afterwards."""

import pytest

from clubrating.national_list.mapping import (
    mapping_guess,
    mapping_initial,
    mapping_remember,
    mapping_remembered,
)
from clubrating.national_list.models import ColumnMapping

from .conftest import COLUMNS


@pytest.mark.parametrize(("columns", "guessed"), [
    (["ösb-nr", "name", "elo", "partien", "geburtsjahr", "verein"], COLUMNS),
    (["national_id", "name", "national rating", "games", "birth_year", "club"],
     {"national_id": "national_id", "rating": "national rating", "games": "games", "name": "name",
      "birth_year": "birth_year", "club": "club"}),
    (["nr", "spieler", "elo-zahl", "anzahl partien", "jahrgang", "vereinsname", "fide-elo"],
     {"national_id": "nr", "rating": "elo-zahl", "games": "anzahl partien", "name": "spieler",
      "birth_year": "jahrgang", "club": "vereinsname"}),
    (["a", "b", "c"], {}),
])
def test_the_mapping_is_guessed_from_the_header_names(columns, guessed):
    assert mapping_guess(columns) == guessed


@pytest.mark.django_db
def test_the_remembered_mapping_is_offered_while_the_file_has_its_columns():
    assert mapping_remember(columns={"national_id": "spalte a", "rating": "spalte b", "games": ""}) is True
    kept = {"national_id": "spalte a", "rating": "spalte b"}
    assert mapping_remember(columns=kept) is False  # kept already
    assert mapping_remembered() == kept
    assert ColumnMapping.objects.count() == 1
    assert mapping_initial(["spalte a", "spalte b", "elo"]) == kept
    # A file without the remembered columns gets the guess.
    assert mapping_initial(["id", "elo"]) == {"national_id": "id", "rating": "elo"}
