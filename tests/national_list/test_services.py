"""The national list import: exact preview figures, the list kept per date, a second import that
changes nothing, malformed files refused whole with their line."""

import datetime
import io

import openpyxl
import pytest

from clubrating.core.preview import dry_run
from clubrating.interchange.errors import ImportRefused
from clubrating.national_list.mapping import mapping_remembered
from clubrating.national_list.models import NationalList, NationalRating
from clubrating.national_list.services import national_file_text, national_list_import
from tests.factories import MemberFactory

from .conftest import COLUMNS, LIST_CSV

pytestmark = pytest.mark.django_db

OCTOBER = datetime.date(2026, 10, 1)
JANUARY = datetime.date(2027, 1, 1)


def _import(text=LIST_CSV, day=OCTOBER, columns=COLUMNS, **kwargs):
    return national_list_import(text=text, columns=columns, list_date=day, file_name="oesb.csv",
                                **kwargs).plain()


def _entries(day=OCTOBER):
    return sorted(NationalRating.objects.filter(national_list__list_date=day).values_list(
        "member__last_name", "national_id", "name", "rating", "games", "birth_year", "club"))


def _state():
    return (list(NationalList.objects.values_list("list_date", "file_name", "imported_at")),
            sorted(NationalRating.objects.values_list("pk", "member_id", "rating", "games", "name", "club")))


def test_the_preview_counts_exactly_and_saves_nothing(members):
    report = dry_run(_import)
    assert report["counts"] == {"rows": 6, "matched": 3, "changes": 2, "new": 3, "unknown": 1, "missing": 1,
                                "invalid": 2, "saved": 3}
    assert report["changes"] == ["Huber, Anna: — → 1650", "Maier, Karl: — → 1712"]
    assert report["unknown"] == ["Line 4: 9999 Fremd, Otto"]
    assert report["missing"] == ["Dorn, Eva"]
    assert report["invalid"] == [
        "Line 6: column “elo” “4000” is not a rating: 0 (unrated) or 100 to 3000.",
        "Line 7: national ID 1002 is on line 3 already.",
    ]
    assert report["preview"] == ("3 members matched, 2 rating changes, 1 unknown national ID, "
                                 "1 member not in the list, 2 invalid rows.")
    assert NationalList.objects.count() == NationalRating.objects.count() == 0
    assert mapping_remembered() == {}


def test_applying_keeps_the_list_of_its_date_and_the_mapping(members, django_user_model):
    user = django_user_model.objects.create_user("officer")
    report = _import(user=user)
    assert report["summary"] == "National list saved: 3 members, 3 entries changed."
    nlist = NationalList.objects.get()
    assert (nlist.list_date, nlist.file_name, nlist.imported_by, report["list_pk"]) == (
        OCTOBER, "oesb.csv", user, nlist.pk)
    assert _entries() == [
        ("Adler", "1003", "Adler, Max", None, 0, 2001, "SK Heimat"),
        ("Huber", "1001", "Huber, Anna", 1650, 12, 1990, "SK Heimat"),
        ("Maier", "1002", "Maier, Karl", 1712, 40, 1970, "SK Heimat"),
    ]
    assert mapping_remembered() == COLUMNS


def test_a_second_import_of_the_same_list_changes_nothing(members):
    _import()
    before = _state()
    report = _import()
    assert _state() == before
    assert (report["counts"]["saved"], report["counts"]["changes"], report["counts"]["new"]) == (0, 0, 0)
    assert report["summary"] == "National list saved: 3 members, 0 entries changed."


def test_a_later_list_is_kept_beside_the_earlier_and_its_changes_count_from_it(members):
    _import()
    later = LIST_CSV.replace("1001;Huber, Anna;1650;12", "1001;Huber, Anna;1671;20").replace(
        "1003;Adler, Max;;0", "1003;Adler, Max;1405;9")
    report = _import(text=later, day=JANUARY)
    assert report["changes"] == ["Huber, Anna: 1650 → 1671", "Adler, Max: — → 1405"]
    assert (report["counts"]["new"], report["counts"]["saved"]) == (0, 3)
    assert list(NationalList.objects.values_list("list_date", flat=True)) == [JANUARY, OCTOBER]
    assert [row[3] for row in _entries(OCTOBER)] == [None, 1650, 1712]
    assert [row[3] for row in _entries(JANUARY)] == [1405, 1671, 1712]


def test_the_same_date_imported_again_from_another_file_is_replaced(members):
    _import()
    corrected = "\n".join(line for line in LIST_CSV.splitlines() if not line.startswith("1003;")).replace(
        "1650;12", "1655;12")
    report = _import(text=corrected)
    assert report["counts"]["saved"] == 2  # Huber changed, Adler removed
    assert report["changes"] == ["Huber, Anna: 1650 → 1655"]
    assert report["missing"] == ["Adler, Max", "Dorn, Eva"]
    assert [(row[0], row[3]) for row in _entries()] == [("Huber", 1655), ("Maier", 1712)]


def test_an_xlsx_workbook_reads_as_the_csv_file(members):
    book = openpyxl.Workbook()
    sheet = book.active
    for line in LIST_CSV.splitlines():
        sheet.append([int(c) if c.isdigit() else (c or None) for c in line.split(";")])
    raw = io.BytesIO()
    book.save(raw)
    text = national_file_text(raw.getvalue())
    from_xlsx, from_csv = dry_run(lambda: _import(text=text)), dry_run(_import)
    # The list's key is not compared: PostgreSQL does not roll its sequence back.
    assert {**from_xlsx, "list_pk": None} == {**from_csv, "list_pk": None}
    _import(text=text)
    assert [row[3] for row in _entries()] == [None, 1650, 1712]


def test_members_are_matched_by_national_id_only(members):
    MemberFactory(last_name="Fremd", first_name="Otto", national_id="")  # his name is on line 4
    report = dry_run(_import)
    assert (report["counts"]["matched"], report["unknown"]) == (3, ["Line 4: 9999 Fremd, Otto"])


@pytest.mark.parametrize(("text", "message", "line"), [
    (LIST_CSV.replace("Huber, Anna", "Huber,\x00Anna"),
     "Line 2: column 12 holds a control character (U+0000).", 2),
    (LIST_CSV.replace("1002;Maier, Karl;1712", '1002;"Maier, Karl;1712'),
     "Line 3: a quoted field runs on to line 7; is a quote unbalanced?", 3),
    (LIST_CSV.replace("9999;Fremd, Otto;1500;3;1980;SK Anders", "9999;Fremd;Otto;1500;3;1980;SK Anders;x"),
     "Line 4: the row has 8 fields, the header only 6.", 4),
    ("ÖSB-Nr Name Elo\n1001 Huber 1650\n",
     "The header line has no delimiter (comma, semicolon or tab), so the file reads as the one column "
     "“ösb-nr name elo”.", 1),
    ("", "The CSV file cannot be read: the file is empty.", None),
    (LIST_CSV.splitlines()[0] + "\n", "The file has a header but no rows.", None),
    (LIST_CSV.replace("1001;", "2001;").replace("1002;", "2002;").replace("1003;", "2003;"),
     "None of the national IDs of the 4 rows matches a member: is the right column chosen, and do the "
     "members have their national IDs?", None),
])
def test_a_malformed_file_is_refused_whole_with_its_line(members, text, message, line):
    _import()
    before = (_state(), mapping_remembered())
    with pytest.raises(ImportRefused) as refused:
        _import(text=text, columns={**COLUMNS, "rating": "elo"})
    assert (refused.value.message, refused.value.line) == (message, line)
    assert (_state(), mapping_remembered()) == before


@pytest.mark.parametrize(("columns", "message"), [
    ({"national_id": "ösb-nr"}, "Choose the column of “National rating”."),
    ({**COLUMNS, "rating": "wertung"}, "The file has no column “wertung” (for “National rating”)."),
    ({**COLUMNS, "games": "elo"}, "The column “elo” is chosen for more than one field."),
])
def test_a_mapping_that_does_not_fit_the_file_is_refused(members, columns, message):
    with pytest.raises(ImportRefused) as refused:
        _import(columns=columns)
    assert refused.value.message == message
    assert NationalList.objects.count() == 0


def test_a_refusal_reads_in_german(members):
    from django.utils import translation

    with translation.override("de-at"), pytest.raises(ImportRefused) as refused:
        _import(columns={**COLUMNS, "rating": "wertung"})
    assert refused.value.message == "Die Datei hat keine Spalte „wertung“ (für „Nationale Elo“)."


def test_erasing_a_member_deletes_his_lines_of_the_national_lists(members, django_user_model):
    from ratings.member_data import member_erase

    _import()
    member_erase(member=members["Huber"], by=None, cause="request")
    assert [row[0] for row in _entries()] == ["Adler", "Maier"]


def test_the_members_copy_of_his_data_holds_his_lines_of_the_national_lists(members):
    from ratings.member_data import member_data_export

    _import()
    assert member_data_export(member=members["Huber"])["national_lists"] == [
        {"list_date": "2026-10-01", "national_id": "1001", "name": "Huber, Anna", "rating": 1650, "games": 12,
         "birth_year": 1990, "club": "SK Heimat"}]
    assert member_data_export(member=members["Dorn"])["national_lists"] == []
