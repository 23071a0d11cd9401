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
