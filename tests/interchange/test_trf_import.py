from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from django.utils import translation

from clubrating.clubs.models import Member
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Game,
    ResultChange,
    TournamentKind,
    TournamentPlayer,
)
from tests.factories import MemberFactory

from .conftest import TRF_DIR

pytestmark = pytest.mark.django_db

HEADER = "012 Testturnier\n042 2025/03/01\n052 2025/03/02\n"


def line(rank, name, rating, fide, birth, points, rounds, sex="m"):
    base = f"001 {rank:>4} {sex}    {name:<33} {rating:>4} AUT {fide:>11} {birth:<10} {points:>4} {rank:>4}  "
    return base + "".join(f"{r:<10}" for r in rounds).rstrip()


def small_trf(*lines: str) -> str:
    return HEADER + "\n".join(lines) + "\n"


GOOD = small_trf(
    line(1, "Huber, Anna", 2100, 1601001, "1990", "1.5", ["   2 w 1", "0000 - H"], sex="w"),
    line(2, "Gruber, Bernd", 1900, "", "1985", "1.0", ["   1 b 0", "   3 w W"]),
    line(3, "Maier, Carl", "", "", "", "0.0", ["0000 - Z", "   2 b L"]),
)


def test_karl_mala_figures():
    report = tournament_import_trf(text=TRF_DIR / "karl-mala-2005.trf")
    t = report.tournament
    assert (t.name, t.kind, t.category, t.start_date, t.end_date, t.rounds_count, t.place) == (
        "9. Karl-Mala-Gedenkturnier",
        TournamentKind.SWISS,
        "standard",
        date(2005, 7, 28),
        date(2005, 7, 31),
        7,
        "Frankfurt (Main) /GER",
    )
    assert (len(report.matched), len(report.created), report.refused) == (
        0, 283, [(284, 297, "dummy bye player")])
    # Players the club did not know are guests: in no club and not active members.
    assert {(m.club_id, m.active) for _rank, m in report.created} == {(None, False)}
    assert t.players.count() == 283 and t.rounds.count() == 7
    games = Game.objects.filter(round__tournament=t)
    assert games.count() == report.games == 980
    assert report.forfeits == 10 and report.unrated == 0
    # Round 5: "0000 - +" of player 282 is the old Swiss-Manager coding of the pairing bye.
    assert list(
        Bye.objects.filter(round__tournament=t).values_list("round__number", "member__last_name", "kind")
    ) == [(5, "Schirrmacher", ByeKind.PAIRING)]
    assert ResultChange.objects.count() == 980
    vasquez = TournamentPlayer.objects.get(tournament=t, start_rank=1)
    assert (
        vasquez.member.last_name,
        vasquez.member.first_name,
        vasquez.member.fide_id,
        vasquez.fide_rating,
        vasquez.rating,
        vasquez.member.fide_title,
        vasquez.member.birth_date,
        vasquez.member.club,
    ) == ("Vasquez", "Rodrigo", 3400042, 2558, None, "GM", date(1969, 12, 6), None)
    # Player 13 lost round 1 by forfeit without colours: the lower start rank is recorded as white.
    forfeit = games.get(round__number=1, white__registrations__start_rank=13)
    assert (forfeit.black.last_name, forfeit.result, forfeit.rated_result) == ("Reichwehr", "-+", "-+")


def test_karl_mala_results_per_kind():
    report = tournament_import_trf(text=TRF_DIR / "karl-mala-2005.trf")
    results = Counter(
        Game.objects.filter(round__tournament=report.tournament).values_list("result", flat=True)
    )
    assert results == {"1-0": 393, "0-1": 329, "1/2": 248, "+-": 2, "-+": 8}


@pytest.mark.parametrize(
    "name, players, rounds, games, forfeits, byes",
    [
        ("gros-2010-r4", 52, 5, 93, 4, {ByeKind.HALF: 16, ByeKind.ZERO: 6, ByeKind.PAIRING: 3}),
        (
            "san-viator-2018",
            137,
            7,
            411,
            15,
            {ByeKind.HALF: 99, ByeKind.ZERO: 30, ByeKind.PAIRING: 5, ByeKind.FULL: 3},
        ),
    ],
)
def test_other_files_figures(name, players, rounds, games, forfeits, byes):
    report = tournament_import_trf(text=TRF_DIR / f"{name}.trf")
    assert (len(report.created), report.tournament.rounds.count(), report.games, report.forfeits) == (
        players,
        rounds,
        games,
        forfeits,
    )
    assert dict(report.byes) == byes
    assert Bye.objects.filter(round__tournament=report.tournament).count() == sum(byes.values())


def test_gros_keeps_the_planned_rounds_of_the_xxr_line():
    report = tournament_import_trf(text=TRF_DIR / "gros-2010-r4.trf")
    # Four rounds played, requested byes already entered for round 5, nine rounds planned.
    assert report.tournament.rounds_count == 9
    assert list(report.tournament.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_san_viator_round_dates_from_the_132_line():
    report = tournament_import_trf(text=TRF_DIR / "san-viator-2018.trf")
    assert list(report.tournament.rounds.values_list("date", flat=True)) == [
        date(2018, 4, 8),
        date(2018, 4, 15),
        date(2018, 4, 22),
        date(2018, 5, 6),
        date(2018, 5, 13),
        date(2018, 5, 20),
        date(2018, 5, 27),
    ]


def test_small_file_games_byes_and_unrated_results():
    report = tournament_import_trf(text=GOOD, name="Kleines Turnier", category="rapid", rated=False)
    t = report.tournament
    assert (t.name, t.category, t.rated, t.rounds_count) == ("Kleines Turnier", "rapid", False, 2)
    rows = list(
        Game.objects.filter(round__tournament=t).values_list(
            "round__number",
            "board",
            "white__last_name",
            "black__last_name",
            "result",
            "rated_result",
            "rated",
        )
    )
    assert rows == [
        (1, 1, "Huber", "Gruber", "1-0", "1-0", True),
        (2, 1, "Gruber", "Maier", "1-0", "1-0", False),
    ]
    assert list(Bye.objects.values_list("round__number", "member__last_name", "kind")) == [
        (1, "Maier", ByeKind.ZERO),
        (2, "Huber", ByeKind.HALF),
    ]
    assert report.unrated == 1
    anna = Member.objects.get(last_name="Huber")
    assert (anna.sex, anna.birth_year, anna.fide_id, anna.fide_rating) == ("f", 1990, 1601001, 2100)


def test_players_matched_by_fide_id_national_id_then_name_and_birth_year():
    by_fide = MemberFactory(last_name="Anders", first_name="Name", fide_id=1601001)
    by_name = MemberFactory(last_name="Gruber", first_name="Bernd", birth_year=1985)
    MemberFactory(last_name="Maier", first_name="Carl", birth_year=1970)  # no birth year in the file
    # A TRF-2026 national rating record: rating at columns 49-52, national number at 58-68.
    text = GOOD + "AUT    3".ljust(48) + "1750" + " " * 5 + "12345".rjust(11) + "\n"
    by_national = MemberFactory(last_name="Mayr", first_name="Karl", national_id="12345")
    report = tournament_import_trf(text=text)
    assert report.matched == [(1, by_fide), (2, by_name), (3, by_national)]
    assert report.created == []
    assert TournamentPlayer.objects.get(member=by_national).rating == 1750


def test_name_shared_by_two_members_is_refused(counts):
    MemberFactory(last_name="Gruber", first_name="Bernd", birth_year=1985)
    MemberFactory(last_name="Gruber", first_name="Bernd", birth_year=1985)
    before = counts()
    with pytest.raises(ImportRefused, match=r"Line 5: Gruber, Bernd matches 2 members"):
        tournament_import_trf(text=GOOD)
    assert counts() == before


BAD_FILES = {
    # Cut off in the middle of the second player's line.
    "truncated": (
        small_trf(line(1, "Huber, Anna", 2100, "", "", "1.0", ["   2 w 1"]))
        + line(2, "Gruber, Bernd", 1900, "", "", "0.0", ["   1 b 0"])[:30],
        r"Line 4: round 1: player 1 plays 2, but the line of 2 \(line 5\) does not have this game",
    ),
    "wrong columns": (
        small_trf(line(1, "Huber, Anna", 2100, "", "", "1.0", ["   2 w 1"]).replace("2100", "21x0")),
        r"^Line 4: rating “21x0” is not a rating: 0 \(unrated\) or 100 to 3000\.$",
    ),
    "unknown player": (
        small_trf(line(1, "Huber, Anna", 2100, "", "", "1.0", ["   9 w 1"])),
        r"^Line 4: round 1: opponent 9 has no player line\.$",
    ),
    "sides disagree": (
        small_trf(
            line(1, "Huber, Anna", 2100, "", "", "1.0", ["   2 w 1"]),
            line(2, "Gruber, Bernd", 1900, "", "", "1.0", ["   1 b 1"]),
        ),
        r"Line 4: round 1: the results of players 1 \(1\) and 2 \(1\) do not fit together",
    ),
    "colours disagree": (
        small_trf(
            line(1, "Huber, Anna", 2100, "", "", "1.0", ["   2 w 1"]),
            line(2, "Gruber, Bernd", 1900, "", "", "0.0", ["   1 w 0"]),
        ),
        r"Line 4: round 1: players 1 and 2 disagree about the colours",
    ),
    "one-sided game": (
        small_trf(
            line(1, "Huber, Anna", 2100, "", "", "1.0", ["   2 w 1"]),
            line(2, "Gruber, Bernd", 1900, "", "", "0.0", ["0000 - Z"]),
        ),
        r"Line 4: round 1: player 1 plays 2, but the line of 2 \(line 5\) does not have",
    ),
    "round beyond": (
        "XXR 1\n" + small_trf(line(1, "Huber, Anna", 2100, "", "", "1.0", ["0000 - Z", "0000 - F"])),
        r"Line 5: round 2 is beyond the 1 rounds of the tournament",
    ),
    "no start date": (
        "012 X\n" + line(1, "Huber, Anna", 2100, "", "", "0.0", []) + "\n",
        r"no start date \(line 042\)",
    ),
    "same FIDE ID twice": (
        small_trf(
            line(1, "Huber, Anna", 2100, 1601001, "", "0.0", []),
            line(2, "Huber, Anni", 2100, 1601001, "", "0.0", []),
        ),
        r"Line 5: FIDE ID 1601001 appears on line 4 as well",
    ),
}


@pytest.mark.parametrize("text, message", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_malformed_files_are_refused_and_change_nothing(text, message, counts):
    MemberFactory()
    before = counts()
    with pytest.raises(ImportRefused, match=message):
        tournament_import_trf(text=text)
    assert counts() == before


def test_truncated_real_file_is_refused(tmp_path, counts):
    data = (TRF_DIR / "san-viator-2018.trf").read_text()
    cut = tmp_path / "cut.trf"
    cut.write_text(data[: data.index("001   60") + 40])  # cut in the middle of player 60's line
    before = counts()
    with pytest.raises(ImportRefused, match=r"opponent \d+ has no player line"):
        tournament_import_trf(text=cut)
    assert counts() == before


def test_the_same_file_twice_is_refused(counts):
    tournament_import_trf(text=GOOD)
    before = counts()
    with pytest.raises(ImportRefused, match="A tournament Testturnier starting on 2025-03-01 exists already"):
        tournament_import_trf(text=GOOD)
    assert counts() == before


def test_missing_file_is_refused():
    with pytest.raises(ImportRefused, match="Cannot read the file: there is no such file"):
        tournament_import_trf(text=Path("/nonexistent/x.trf"))


@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "Line 4: round 1: the results of players 1 (1) and 2 (1) do not fit together."),
        ("de-at", "Zeile 4: Runde 1: die Ergebnisse der Spieler 1 (1) und 2 (1) passen nicht zusammen."),
    ],
)
def test_refusal_message_is_translated(language, message):
    with translation.override(language), pytest.raises(ImportRefused) as refused:
        tournament_import_trf(text=BAD_FILES["sides disagree"][0])
    assert str(refused.value) == message


@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "The end date 2025-03-01 (line 052) is before the start date 2025-03-02."),
        ("de-at", "Das Enddatum 01.03.2025 (Zeile 052) liegt vor dem Anfangsdatum 02.03.2025."),
    ],
)
def test_date_refusal_is_translated(language, message):
    text = "012 X\n042 2025/03/02\n052 2025/03/01\n" + line(1, "Huber, Anna", 2100, "", "", "0.0", []) + "\n"
    with translation.override(language), pytest.raises(ImportRefused) as refused:
        tournament_import_trf(text=text)
    assert str(refused.value) == message


def test_the_duplicate_refusal_gives_the_date_in_the_ui_format(counts):
    tournament_import_trf(text=GOOD)
    with translation.override("de-at"), pytest.raises(ImportRefused) as refused:
        tournament_import_trf(text=GOOD)
    assert str(refused.value) == "Ein Turnier Testturnier mit Beginn am 01.03.2025 gibt es bereits."


@pytest.mark.parametrize(("head", "stored"), [
    # A round robin of 2026 without a tie-break list gets the one recommended for its system (a
    # Buchholz is not allowed there, C.07 art. 8); a Swiss keeps its own list and first colour.
    ("012 Rundenturnier\n042 2026/03/01\n052 2026/03/02\n092 Individual: Round-Robin\n",
     ("round_robin", "2026", "DE,WIN,SB,KS", "w")),
    ("012 Open\n042 2026/03/01\n052 2026/03/02\n202 bh/c1,SB,TPN\nXXC black1\n",
     ("swiss", "2026", "BH/C1,SB,TPN", "b")),
    # The 2023 edition does not know TPN: the list is not taken.
    ("012 Open\n042 2025/03/01\n052 2025/03/02\n202 BH/C1,SB,TPN\n152 B\n",
     ("swiss", "2023", "BH/C1,BH,SB", "b")),
])
def test_import_takes_the_tiebreaks_and_first_colour_of_the_file(head, stored):
    text = head + "\n".join(GOOD.splitlines()[3:]) + "\n"
    t = tournament_import_trf(text=text).tournament
    assert (t.kind, t.tiebreak_rules, t.tiebreaks, t.initial_colour) == stored
