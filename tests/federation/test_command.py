"""``manage.py import_fide_list FILE_OR_URL [--apply]``."""

import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from clubrating.clubs.models import Member
from clubrating.federation.models import FideList
from tests.factories import MemberFactory
from tests.paths import FIDE_DIR

from .conftest import snapshot

pytestmark = pytest.mark.django_db
LIST = str(FIDE_DIR / "players_list_foa.txt")
COUNTS = ("standard rating changes: 1\nrapid rating changes: 0\nblitz rating changes: 0\nnew titles: 1\n"
          "changed federations: 0\nnames that differ: 0\nflagged inactive: 0\nFIDE ID not in the list: 0\n")


def _run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("import_fide_list", *args, stdout=out)
    return out.getvalue()


def test_without_apply_the_preview_is_printed_and_nothing_saved():
    MemberFactory(last_name="Ragger", first_name="Markus", fide_id=1600059, fide_rating=2600)
    before = snapshot()
    assert _run(LIST, "--month", "2026-11") == (
        "FIDE list 2026-11: 6 players read, 1 member found, 1 member will be updated; 0 members' FIDE IDs "
        "are not in the list.\n" + COUNTS + "Nothing was saved; run again with --apply to save.\n")
    assert snapshot() == before


def test_with_apply_the_members_are_updated_and_the_file_kept():
    MemberFactory(last_name="Ragger", first_name="Markus", fide_id=1600059, fide_rating=2600)
    output = _run(LIST, "--month", "2026-11", "--apply")
    assert output == ("FIDE list 2026-11: 6 players read, 1 member found, 1 member updated; 0 members' FIDE "
                      "IDs are not in the list.\n" + COUNTS)
    assert Member.objects.get().fide_rating == 2629
    assert FideList.objects.get().file_name == "players_list_foa.txt"
    assert (FIDE_DIR / "players_list_foa.txt").exists()  # a local file is never deleted


@pytest.mark.parametrize(("args", "message"), [
    (["/nonexistent/list.zip"], "Cannot read /nonexistent/list.zip: there is no such file"),
    ([LIST, "--month", "November"], "“November” is not a month like 2026-11."),
    ([str(FIDE_DIR)], f"Cannot read {FIDE_DIR}: it is a directory"),
    (["ftp://example.org/list.zip"], "Cannot read ftp://example.org/list.zip: there is no such file"),
])
def test_bad_arguments_are_refused(args, message):
    with pytest.raises(CommandError) as refused:
        _run(*args)
    assert str(refused.value) == message
    assert FideList.objects.count() == 0


def test_a_malformed_list_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes((FIDE_DIR / "players_list_foa.txt").read_bytes().replace(b"2629 ", b"26x9 "))
    with pytest.raises(CommandError) as refused:
        _run(str(bad), "--apply")
    assert str(refused.value) == "Line 2: SRtng “26x9” is not a rating: 0 (unrated) or 100 to 3000."
    assert FideList.objects.count() == 0


def test_on_the_command_line_an_error_reads_fehler(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "import_fide_list", str(tmp_path / "missing.txt")],
        capture_output=True, text=True, env={"CLUBRATING_TESTING": "1", "PATH": "/usr/bin:/bin",
                                             "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert result.returncode == 1
    assert result.stderr == (
        f"Fehler: {tmp_path / 'missing.txt'} kann nicht gelesen werden: die Datei gibt es nicht\n")


def test_an_address_is_downloaded_and_the_download_deleted(uploads):
    import functools
    import http.server
    import threading

    MemberFactory(last_name="Ragger", first_name="Markus", fide_id=1600059, fide_rating=2600)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIDE_DIR))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/players_list_xml_foa.xml"
        output = _run(url, "--month", "2026-11", "--apply")
        missing = f"http://127.0.0.1:{server.server_port}/gone.zip"
        with pytest.raises(CommandError) as refused:
            _run(missing)
    finally:
        server.shutdown()
        thread.join()
    assert output.startswith("FIDE list 2026-11: 3 players read, 1 member found, 1 member updated;")
    assert Member.objects.get().fide_rating == 2629
    assert FideList.objects.get().file_name == "players_list_xml_foa.xml"
    assert str(refused.value) == f"Cannot download {missing}: the server answers 404"
    assert uploads.files() == [] and uploads.tokens() == []


def test_a_damaged_zip_is_refused_with_a_message_not_a_traceback(tmp_path):
    import zipfile

    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_foa.txt", (FIDE_DIR / "players_list_foa.txt").read_bytes())
    data = bytearray(path.read_bytes())
    data[30 + len("players_list_foa.txt")] = 0xFF  # an invalid deflate block: zlib.error before
    path.write_bytes(bytes(data))
    with pytest.raises(CommandError) as refused:
        _run(str(path), "--apply")
    assert str(refused.value) == (
        "The FIDE rating list cannot be read: the zip file is damaged and cannot be read.")
    assert FideList.objects.count() == 0
