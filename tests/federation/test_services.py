"""Reading FIDE's list against the members: the preview's figures, the import, a second import."""

import zipfile

import pytest

from clubrating.clubs.models import Member
from clubrating.federation.models import FideList, FidePlayer, FideRating
from clubrating.federation.services import fide_follow, fide_list_import, member_add_from_fide
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.fide_list import HEADER, fide_list_line
from tests.factories import ClubFactory, MemberFactory

from .conftest import DECEMBER, NOVEMBER, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def members():
    return {
        "ragger": MemberFactory(last_name="Ragger", first_name="Markus", fide_id=1600059, fide_rating=2600),
        "mueller": MemberFactory(last_name="Mueller", first_name="Hans", fide_id=1601393, fide_rating=2301,
                                 federation="GER", fide_title="FM"),
        "huber": MemberFactory(last_name="Huber", first_name="Anna", fide_id=1612345, fide_rating=2001,
                               fide_title="WFM", sex="f"),
        "gone": MemberFactory(last_name="Weg", first_name="Otto", fide_id=1699999, fide_rating=1800),
        "local": MemberFactory(last_name="Lokal", first_name="Lisa"),
    }


def test_the_preview_counts_every_change_exactly_and_saves_nothing(members, list_file):
    fide_follow(fide_id=24601)
    before = snapshot()
    report = fide_list_import(path=list_file, month=NOVEMBER, file_name="players_list_foa.txt")
    assert snapshot() == before
    assert report.counts() == {
        "players": 6, "kept": 5, "matched": 3, "updated": 2, "standard": 1, "rapid": 0, "blitz": 0,
        "titles": 1, "names": 1, "federations": 1, "missing": 1, "inactive": 1,
    }
    ragger, mueller, gone = members["ragger"].pk, members["mueller"].pk, members["gone"].pk
    plain = report.plain()
    assert plain["standard"] == [[ragger, "Ragger, Markus", 2600, 2629, 29]]
    assert plain["titles"] == [[ragger, "Ragger, Markus", "", "GM", None]]
    assert plain["federations"] == [[mueller, "Mueller, Hans", "GER", "AUT", None]]
    assert plain["names"] == [
        [mueller, "Mueller, Hans", "Mueller, Hans", "Müller-Lüdenscheidt, Hans Jörg", None]]
    assert plain["inactive"] == [[mueller, "Mueller, Hans", None, "i", None]]
    assert plain["missing"] == [[gone, "Weg, Otto", 1699999, None, None]]
    assert report.summary() == ("FIDE list 2026-11: 6 players read, 3 members found, 2 members will be "
                                "updated; 1 member's FIDE ID is not in the list.")


def test_the_import_updates_the_members_fide_data_and_keeps_the_month(members, list_file):
    fide_follow(fide_id=24601)
    report = fide_list_import(path=list_file, month=NOVEMBER, file_name="players_list_foa.txt", apply=True)
    assert report.summary() == ("FIDE list 2026-11: 6 players read, 3 members found, 2 members updated; "
                                "1 member's FIDE ID is not in the list.")
    values = ("last_name", "fide_rating", "fide_title", "federation")
    assert list(Member.objects.order_by("last_name").values_list(*values)) == [
        ("Huber", 2001, "WFM", "AUT"), ("Lokal", None, "", "AUT"), ("Mueller", 2301, "FM", "AUT"),
        ("Ragger", 2629, "GM", "AUT"), ("Weg", 1800, "", "AUT")]
    # The names stay as the club has them: the list's spelling is only shown.
    fide_list = FideList.objects.get()
    assert (fide_list.month, fide_list.players, fide_list.file_name) == (NOVEMBER, 6, "players_list_foa.txt")
    assert sorted(FideRating.objects.values_list("fide_id", "standard", "rapid", "blitz", "standard_k",
                                                 "inactive")) == [
        (24601, 2812, 2783, 2801, 10, True), (1600059, 2629, 2575, 2601, 10, False),
        (1601393, 2301, 2250, None, 20, True), (1612345, 2001, None, None, 40, False)]
    # The directory: the players of Austria, and the followed player of another federation.
    assert list(FidePlayer.objects.order_by("fide_id").values_list("fide_id", "name", "federation")) == [
        (24601, "Kasparov, Garry", "RUS"), (1600059, "Ragger, Markus", "AUT"),
        (1601393, "Müller-Lüdenscheidt, Hans Jörg", "AUT"), (1612345, "Huber, Anna", "AUT"),
        (1634567, "Nobody", "AUT")]


def test_an_import_applied_twice_changes_nothing_the_second_time(members, list_file):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    before = snapshot()
    report = fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    assert snapshot() == before
    assert report.counts() | {"missing": 0} == {
        "players": 6, "kept": 4, "matched": 3, "updated": 0, "standard": 0, "rapid": 0, "blitz": 0,
        "titles": 0, "names": 1, "federations": 0, "missing": 0, "inactive": 1}


def test_a_corrected_list_of_the_same_month_replaces_its_rows(members, list_file, tmp_path):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    corrected = tmp_path / "corrected.txt"
    corrected.write_bytes(list_file.read_bytes().replace(b"2629  9   10 2575", b"2631  9   10 2575"))
    report = fide_list_import(path=corrected, month=NOVEMBER, apply=True)
    assert report.plain()["standard"] == [[members["ragger"].pk, "Ragger, Markus", 2629, 2631, 2]]
    assert list(FideRating.objects.filter(fide_id=1600059).values_list("list__month", "standard")) == [
        (NOVEMBER, 2631)]
    assert FidePlayer.objects.get(fide_id=1600059).standard == 2631
    assert FideList.objects.count() == 1


def _december(tmp_path):
    ragger = {"ID Number": 1600059, "Name": "Ragger, Markus", "Fed": "AUT", "Tit": "GM", "SRtng": 2640,
              "RRtng": 2590, "BRtng": 2601, "SK": 10}
    lines = [HEADER, fide_list_line(ragger)]
    path = tmp_path / "december.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_rapid_and_blitz_changes_are_against_the_latest_list_kept(members, list_file, tmp_path):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    report = fide_list_import(path=_december(tmp_path), month=DECEMBER)
    ragger = members["ragger"].pk
    assert report.plain()["rapid"] == [[ragger, "Ragger, Markus", 2575, 2590, 15]]
    assert report.plain()["blitz"] == []
    assert report.plain()["standard"] == [[ragger, "Ragger, Markus", 2629, 2640, 11]]
    assert report.counts()["missing"] == 3
    fide_list_import(path=_december(tmp_path), month=DECEMBER, apply=True)
    months = FideRating.objects.filter(fide_id=1600059).order_by("list__month")
    assert list(months.values_list("list__month", "standard", "rapid")) == [
        (NOVEMBER, 2629, 2575), (DECEMBER, 2640, 2590)]
    # The directory holds the latest month only; importing an older month later keeps it.
    assert list(FidePlayer.objects.values_list("fide_id", "month")) == [(1600059, DECEMBER)]
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    assert list(FidePlayer.objects.values_list("fide_id", "month")) == [(1600059, DECEMBER)]


@pytest.mark.parametrize(("line", "message"), [
    ("1601393        Mueller, Hans", "Line 3: Fed is missing."),
    (fide_list_line({"ID Number": 1601393, "Name": "M, H", "Fed": "AUT", "SRtng": "99999"}),
     "Line 3: SRtng “99999” is not a rating: 0 (unrated) or 100 to 3000."),
    (fide_list_line({"ID Number": 1600059, "Name": "Ragger, M.", "Fed": "AUT"}),
     "Line 3: FIDE ID 1600059 appears twice (also on line 2)."),
])
def test_a_malformed_list_is_refused_with_its_line_and_changes_nothing(members, list_file, tmp_path, line,
                                                                      message):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    before = snapshot()
    bad = tmp_path / "bad.txt"
    good = fide_list_line({"ID Number": 1600059, "Name": "Ragger, Markus", "Fed": "AUT", "SRtng": 2700})
    bad.write_text(f"{HEADER}\n{good}\n{line}\n", encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        fide_list_import(path=bad, month=DECEMBER, apply=True)
    assert str(refused.value) == message
    assert snapshot() == before


def test_a_file_that_is_no_list_is_refused(members, tmp_path):
    path = tmp_path / "x.zip"
    path.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ImportRefused) as refused:
        fide_list_import(path=path, month=NOVEMBER, apply=True)
    assert str(refused.value) == (
        "The FIDE rating list cannot be read: the zip file is damaged and cannot be read.")
    path.write_text(HEADER + "\n")
    with pytest.raises(ImportRefused) as refused:
        fide_list_import(path=path, month=NOVEMBER, apply=True)
    assert str(refused.value) == "The FIDE rating list cannot be read: it has no players."
    assert FideList.objects.count() == 0


def test_a_player_is_added_as_member_or_guest_with_the_lists_data(list_file):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    club = ClubFactory(name="SK Heimat")
    member = member_add_from_fide(fide_id=1612345, club=club)
    assert (member.last_name, member.first_name, member.sex, member.birth_year, member.federation,
            member.fide_id, member.fide_rating, member.fide_title, member.club) == (
        "Huber", "Anna", "f", 2009, "AUT", 1612345, 2001, "WFM", club)
    guest = member_add_from_fide(fide_id=1634567, club=None)
    assert (guest.last_name, guest.first_name, guest.club, guest.fide_rating) == ("Nobody", "", None, None)
    with pytest.raises(Exception) as refused:
        member_add_from_fide(fide_id=1612345, club=None)
    assert str(refused.value) == "A member with FIDE ID 1612345 exists already."
    with pytest.raises(Exception) as refused:
        member_add_from_fide(fide_id=24601, club=None)  # not of Austria, not followed: not kept
    assert str(refused.value) == "FIDE ID 24601 is not in the imported list."
    assert Member.objects.count() == 2


def test_erasing_a_member_deletes_the_sites_fide_rows_of_him_and_keeps_the_others(members, list_file):
    from clubrating.federation.models import FideFollow
    from ratings.member_data import member_erase

    fide_follow(fide_id=1612345)
    fide_follow(fide_id=24601)
    fide_list_import(path=list_file, month=NOVEMBER, file_name="players_list_foa.txt", apply=True)
    member_erase(member=members["huber"], by=None, cause="request")
    assert sorted(FideRating.objects.values_list("fide_id", flat=True)) == [24601, 1600059, 1601393]
    assert list(FideFollow.objects.values_list("fide_id", flat=True)) == [24601]
    # FIDE's public directory of the chosen federations is not the site's record of him.
    assert FidePlayer.objects.filter(fide_id=1612345).exists()


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_a_zip_whose_data_is_damaged_is_refused_as_damaged_and_changes_nothing(members, list_file, tmp_path,
                                                                               method):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    before = snapshot()
    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w", method) as archive:
        archive.writestr("players_list_foa.txt", list_file.read_bytes() * 5)
    data = bytearray(path.read_bytes())
    start = 30 + len("players_list_foa.txt")  # the compressed data, after the local header
    data[start:start + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))
    with pytest.raises(ImportRefused) as refused:
        fide_list_import(path=path, month=DECEMBER, apply=True)
    # Not Python's zlib or bz2 error, nor "the uploaded file is gone".
    assert str(refused.value) == (
        "The FIDE rating list cannot be read: the zip file is damaged and cannot be read.")
    assert snapshot() == before


def test_an_older_month_imported_later_keeps_the_members_as_the_latest_list_has_them(members, list_file,
                                                                                     tmp_path):
    fide_list_import(path=_december(tmp_path), month=DECEMBER, apply=True)
    ragger = Member.objects.get(pk=members["ragger"].pk)
    assert (ragger.fide_rating, ragger.fide_title) == (2640, "GM")
    preview = fide_list_import(path=list_file, month=NOVEMBER)
    assert preview.counts() | {"names": 0, "inactive": 0, "missing": 0} == {
        "players": 6, "kept": 4, "matched": 3, "updated": 0, "standard": 0, "rapid": 0, "blitz": 0,
        "titles": 0, "names": 0, "federations": 0, "missing": 0, "inactive": 0}
    assert preview.summary() == (
        "FIDE list 2026-11: 6 players read, 3 members found, 0 members will be updated; 1 member's FIDE ID "
        "is not in the list. The list of 2026-12 is kept already: the members' FIDE data stay as it gives "
        "them.")
    fide_data = ("fide_rating", "fide_title", "federation")
    before = list(Member.objects.order_by("pk").values_list(*fide_data))
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    assert list(Member.objects.order_by("pk").values_list(*fide_data)) == before
    # November is kept for the history all the same.
    assert list(FideRating.objects.filter(fide_id=1600059).order_by("list__month").values_list(
        "list__month", "standard")) == [(NOVEMBER, 2629), (DECEMBER, 2640)]


def test_a_corrected_list_without_a_player_drops_his_row_of_that_month(members, list_file, tmp_path):
    fide_list_import(path=list_file, month=NOVEMBER, apply=True)
    corrected = tmp_path / "corrected.txt"
    corrected.write_bytes(b"\n".join(line for line in list_file.read_bytes().split(b"\n")
                                     if not line.startswith(b"1612345")))
    report = fide_list_import(path=corrected, month=NOVEMBER, apply=True)
    assert report.plain()["missing"][0][1:3] == ["Huber, Anna", 1612345]
    assert sorted(FideRating.objects.values_list("fide_id", flat=True)) == [1600059, 1601393]
    before = snapshot()
    fide_list_import(path=corrected, month=NOVEMBER, apply=True)
    assert snapshot() == before
