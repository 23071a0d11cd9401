"""Members the national list file of tests/data names, and its mapping as the site guesses it."""

import pytest
from django.utils import translation

from tests.factories import MemberFactory
from tests.paths import DATA_DIR

LIST_CSV = (DATA_DIR / "national-list.csv").read_text(encoding="utf-8")
# The file's headers as the CSV reader gives them (lower-case), for each field.
COLUMNS = {"national_id": "ösb-nr", "name": "name", "rating": "elo", "games": "partien",
           "birth_year": "geburtsjahr", "club": "verein"}


@pytest.fixture
def members(db):
    """Huber (1001), Maier (1002), Adler (1003) are on the list; Dorn (1005) is not; Zeh has no
    national ID."""
    return {
        last: MemberFactory(last_name=last, first_name=first, national_id=national_id)
        for last, first, national_id in (("Huber", "Anna", "1001"), ("Maier", "Karl", "1002"),
                                         ("Adler", "Max", "1003"), ("Dorn", "Eva", "1005"),
                                         ("Zeh", "Ida", ""))
    }


@pytest.fixture(autouse=True)
def english():
    """These tests assert the English msgids unless they say otherwise."""
    with translation.override("en"):
        yield
