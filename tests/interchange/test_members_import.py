"""``members_import_csv`` on its own: delimiters, BOM, encodings, duplicates and IDs."""

import pytest
from django.utils import translation

from clubrating.clubs.models import Member
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.limits import latest_date
from clubrating.interchange.formats.text import decode_text
from clubrating.interchange.members_import import members_import_csv
from tests.factories import MemberFactory

from .conftest import db_counts

pytestmark = pytest.mark.django_db


def _members():
    rows = Member.objects.values_list("last_name", "first_name", "birth_date", "fide_id", "club__name")
    return sorted(rows)


@pytest.mark.parametrize("raw", [
    ("\ufefflast_name;first_name;birth_date;club\n" + "Müller;Jörg;01.02.1980;SK Wien\n" * 2).encode("utf-8"),
    ("last_name,first_name,birth_date,club\r\n" + "Müller,Jörg,1980-02-01,SK Wien\r\n" * 2).encode("latin-1"),
])
def test_bom_semicolons_latin_1_and_a_duplicate_row(raw):
    report = members_import_csv(text=decode_text(raw))
    assert (len(report.created), len(report.updated), report.duplicates) == (1, 0, [(3, 2)])
    assert [m[:2] + m[4:] for m in _members()] == [("Müller", "Jörg", "SK Wien")]


def test_importing_the_same_file_twice_finds_members_by_their_ids():
    # Without a birth date a member is only found again by FIDE ID or national ID; a second
    # import of the same file must update, not create everybody again.
    text = "last_name;first_name;birth_date;fide_id;national_id\nGrößer;Ärmin;;1601001;\nKlein;Eva;;;AT77\n"
    members_import_csv(text=text)
    report = members_import_csv(text=text)
    assert (len(report.created), len(report.updated)) == (0, 2)
    assert Member.objects.count() == 2


def test_an_id_of_another_member_is_refused_and_changes_nothing():
    MemberFactory(last_name="Other", first_name="Xaver", fide_id=1234, club=None)
    before = db_counts()
    with translation.override("de-at"), pytest.raises(ImportRefused) as exc:
        members_import_csv(text="last_name;first_name;birth_date;fide_id\nMüller;Jörg;01.02.1980;1234\n")
    assert str(exc.value) == "Zeile 2: Die FIDE-ID 1234 gehört Other, Xaver."
    assert db_counts() == before


def test_a_birth_date_out_of_range_is_refused_with_dates_in_the_ui_format():
    latest = latest_date()
    with translation.override("de-at"), pytest.raises(ImportRefused) as refused:
        members_import_csv(text="last_name;first_name;birth_date\nAlt;Eva;01.01.1800\n")
    assert str(refused.value) == (
        f"Zeile 2: Spalte „birth_date“ 01.01.1800 liegt nicht zwischen 01.01.1850 und {latest:%d.%m.%Y}.")
