from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import ListEntry
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_import_ratings_from_csv_reports_unknown_rows(tmp_path):
    make_pool(name="P")
    MemberFactory(national_id="1")
    path = tmp_path / "start.csv"
    path.write_text("id,rating,games\n1,1700,20\n2,1600,5\n", encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("import_ratings", str(path), "--pool", "P", stdout=out, stderr=err)
    assert "1" in out.getvalue() and "line 3" in err.getvalue()
    assert ListEntry.objects.get().rating == 1700


def test_missing_file_and_unknown_pool_are_refused(tmp_path):
    make_pool(name="P")
    with pytest.raises(CommandError):
        call_command("import_ratings", str(tmp_path / "missing.csv"), "--pool", "P")
    with pytest.raises(CommandError, match="no rating pool"):
        call_command("import_ratings", str(tmp_path / "missing.csv"), "--pool", "Q")


def test_the_format_is_given_or_told_from_the_content(tmp_path):
    """A TRF file needs no .trf suffix: its content says what it is, or --format does."""
    make_pool(name="P")
    MemberFactory(last_name="Huber", first_name="Anna", birth_year=1990, fide_id=1234567)
    path = tmp_path / "ratings.txt"
    path.write_text(
        "012 Test\n"
        "001    1 w    Huber, Anna                       1800 AUT     1234567 1990        0.0    1\n",
        encoding="utf-8",
    )
    out = StringIO()
    call_command("import_ratings", str(path), "--pool", "P", stdout=out)
    assert out.getvalue() == "Imported 1 ratings.\n"
    assert ListEntry.objects.get().rating == 1800
    make_pool(name="Q")
    with pytest.raises(CommandError, match="^The header line has no delimiter"):
        call_command("import_ratings", str(path), "--pool", "Q", "--format", "csv")
