"""manage.py import_national_list: the preview's figures without --apply, the list with it."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubrating.national_list.mapping import mapping_remembered
from clubrating.national_list.models import NationalList, NationalRating
from tests.paths import DATA_DIR

pytestmark = pytest.mark.django_db

FILE = str(DATA_DIR / "national-list.csv")
FIGURES = ("Rows: 6\nMembers matched: 3\nRating changes: {changes}\nNew on the list: {new}\n"
           "Unknown national IDs: 1\nMembers not in the list: 1\nInvalid rows: 2\n")
INVALID = ("Line 6: column “elo” “4000” is not a rating: 0 (unrated) or 100 to 3000.\n"
           "Line 7: national ID 1002 is on line 3 already.\n")


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("import_national_list", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_without_apply_the_preview_is_printed_and_nothing_changes(members):
    out, err = run(FILE, "--date", "2026-10-01")
    assert out == ("3 members matched, 2 rating changes, 1 unknown national ID, 1 member not in the list, "
                   "2 invalid rows.\n" + FIGURES.format(changes=2, new=3))
    assert err == INVALID
    assert (NationalList.objects.count(), mapping_remembered()) == (0, {})


def test_apply_keeps_the_list_and_a_second_apply_changes_nothing(members):
    out, _err = run(FILE, "--apply", "--date", "2026-10-01")
    assert out.splitlines()[0] == "National list saved: 3 members, 3 entries changed."
    assert sorted(NationalRating.objects.values_list("national_id", "rating", "games")) == [
        ("1001", 1650, 12), ("1002", 1712, 40), ("1003", None, 0)]
    out, _err = run(FILE, "--apply", "--date", "2026-10-01")
    assert out == "National list saved: 3 members, 0 entries changed.\n" + FIGURES.format(changes=0, new=0)


def test_the_mapping_option_chooses_the_columns(members):
    out, _err = run(FILE, "--mapping", "national_id=ÖSB-Nr, rating=Elo", "--apply", "--date", "2026-10-01")
    assert mapping_remembered() == {"national_id": "ösb-nr", "rating": "elo"}
    assert sorted(NationalRating.objects.values_list("national_id", "games", "club")) == [
        ("1001", None, ""), ("1002", None, ""), ("1003", None, "")]


@pytest.mark.parametrize(("args", "message"), [
    (("--mapping", "rating"), "“rating” is not field=column (fields: national_id, rating, games, name, "
                              "birth_year, club)."),
    (("--mapping", "national_id=ösb-nr,rating=wertung"),
     "The file has no column “wertung” (for “National rating”)."),
    (("--date", "1.10.2026"), "“1.10.2026” is not a date like 2026-10-01."),
])
def test_bad_arguments_are_refused(members, args, message):
    with pytest.raises(CommandError) as refused:
        run(FILE, *args)
    assert str(refused.value) == message
    assert NationalList.objects.count() == 0


def test_a_missing_file_is_refused(members, tmp_path):
    with pytest.raises(CommandError) as refused:
        run(str(tmp_path / "none.csv"))
    assert str(refused.value) == f"Cannot read {tmp_path / 'none.csv'}: there is no such file"
