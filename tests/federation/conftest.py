"""FIDE's list: the hand-made list files, what an upload leaves behind."""

import datetime
import shutil
import tempfile

import pytest
from django.utils import translation

from clubrating.clubs.models import Member
from clubrating.federation.models import FideFollow, FideList, FidePlayer, FideRating, FideUploadPart
from tests.paths import FIDE_DIR

NOVEMBER = datetime.date(2026, 11, 1)
DECEMBER = datetime.date(2026, 12, 1)


class Uploads:
    """What an upload leaves behind: its parts in the database, and the temporary copies the
    process that reads it makes (in a temporary folder of the test's own)."""

    def __init__(self, folder):
        self.folder = folder

    def tokens(self) -> list[str]:
        return sorted(set(FideUploadPart.objects.values_list("token", flat=True)))

    def files(self) -> list[str]:
        return sorted(path.name for path in self.folder.iterdir())


@pytest.fixture(autouse=True)
def uploads(settings, tmp_path, monkeypatch):
    settings.FIDE_FEDERATIONS = ["AUT"]
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return Uploads(folder)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def list_file(tmp_path):
    """A copy of the hand-made list (the import may delete an upload)."""
    path = tmp_path / "players_list_foa.txt"
    shutil.copy(FIDE_DIR / "players_list_foa.txt", path)
    return path


def snapshot() -> dict:
    """Everything an import writes, to show that a refusal or a second import changed nothing."""
    return {
        "members": list(Member.objects.order_by("pk").values()),
        "lists": list(FideList.objects.order_by("pk").values()),
        "ratings": list(FideRating.objects.order_by("pk").values()),
        "players": list(FidePlayer.objects.order_by("fide_id").values()),
        "follows": list(FideFollow.objects.order_by("pk").values()),
    }


@pytest.fixture
def officer_client(officer_client):
    """The rating officer (tests/conftest.py), reading the pages in English."""
    from tests.language import speak

    return speak(officer_client, "en")
