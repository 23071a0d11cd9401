"""Why a round of a TRF file differs from the pairing the rules give: the reason in words, shared by
``pair_trf --check`` and the officials' page (``clubrating.interchange.trf_check``)."""

from io import StringIO

from django.core.management import call_command
from django.utils import translation

from clubrating.interchange.formats.trf import parse_trf
from clubrating.interchange.trf_check import check_report
from clubrating.tournaments.pairing.trf_pairing import EDITION_2026, check_trf

# Six players, three rounds, each of rounds 1 and 2 as the rules give them (1-4, 5-2, 3-6; 3-1, 4-5,
# 2-6). Round 3 by the rules is 5-3, 1-2, 6-4; each test writes its own round 3.
HEAD = """012 Test
042 2026/03/01
XXR 3
XXC white1
"""
LINES = [
    "001    1      Alpha, Anna                       2000        "
    "       0             2.0    1     4 w 1     3 b 0",
    "001    2      Berger, Bernd                     1900        "
    "       0             1.0    2     5 b 0     6 w 1",
    "001    3      Czerny, Clara                     1800        "
    "       0             2.0    3     6 w 1     1 w 1",
    "001    4      Dorn, David                       1700        "
    "       0             1.0    4     1 b 0     5 w 1",
    "001    5      Eder, Emma                        1600        "
    "       0             2.0    5     2 w 1     4 b 0",
    "001    6      Fuchs, Franz                      1500        "
    "       0             1.0    6     3 b 0     2 b 0",
]
RULES_ROUND_3 = ["   2 w 1", "   1 b 0", "   5 b 0", "   6 b 0", "   3 w 1", "   4 w 1"]
# 4-1 (they met in round 1), 3-2, 5-6.
MET_BEFORE_ROUND_3 = ["   4 b 1", "   3 b 0", "   2 w 1", "   1 w 0", "   6 w 1", "   5 b 0"]
# 5-1 (both want White), 3-2 (both want Black), 4-6: legal, but two players miss their colour.
COLOURS_ROUND_3 = ["   5 b =", "   3 b 0", "   2 w 1", "   6 w 1", "   1 w =", "   4 b 0"]


def trf_text(round_3: list[str]) -> str:
    return HEAD + "\n".join(line + "  " + cell for line, cell in zip(LINES, round_3, strict=True)) + "\n"


def test_a_file_paired_by_the_rules_is_identical_in_every_round():
    checks = check_trf(parse_trf(trf_text(RULES_ROUND_3)))
    assert [(c.round, c.matches, c.reason) for c in checks] == [(1, True, None), (2, True, None),
                                                                 (3, True, None)]


def test_players_who_met_before_break_c1(tmp_path):
    path = tmp_path / "met.trf"
    path.write_text(trf_text(MET_BEFORE_ROUND_3))
    out = StringIO()
    with translation.override("en"):
        call_command("pair_trf", str(path), "--check", stdout=out)
    assert out.getvalue() == (
        "Round 3 differs.\n"
        "  Published: 4-1, 3-2, 5-6\n"
        "  By the rules: 5-3, 1-2, 6-4\n"
        "  Why: Absolute criterion C.1 broken: players 4 and 1 already met in round 1.\n"
        "2 of 3 rounds paired as the rules give (FIDE Dutch system from 1 February 2026).\n"
    )


def test_the_reason_in_german():
    with translation.override("de-at"):
        report = check_report(parse_trf(trf_text(MET_BEFORE_ROUND_3)), edition=EDITION_2026)
    assert report["rounds"][2]["reason"] == (
        "Absolutes Kriterium C.1 verletzt: Spieler 4 und 1 haben bereits in Runde 1 gegeneinander gespielt."
    )
    assert report["summary"] == (
        "2 von 3 Runden so gepaart, wie es die Regeln ergeben "
        "(FIDE-Schweizer System (holländisch) ab 1. Februar 2026)."
    )


def test_a_legal_pairing_names_the_first_quality_criterion_that_differs():
    # Colour preferences before round 3: 1 and 5 mild White, 2 and 4 mild Black, 3 absolute Black
    # (White twice), 6 absolute White. The file's 5-1 and 3-2 each leave one player without his
    # colour (2); the rules' 5-3, 1-2, 6-4 give everyone his (0). Floaters are equal: two pairs of
    # unequal scores, each one point apart, in both.
    with translation.override("en"):
        report = check_report(parse_trf(trf_text(COLOURS_ROUND_3)), edition=EDITION_2026)
    assert report["rounds"][2]["reason"] == (
        "First quality criterion on which they differ: C.10: players who do not get their colour "
        "preference. The file: 2; by the rules: 0."
    )
    assert [(b["white"], b["black"], b["differs"]) for b in report["rounds"][2]["file"]] == [
        (5, 1, True), (3, 2, True), (4, 6, True)]
    assert [(b["white"], b["white_name"], b["black"], b["black_name"], b["differs"])
            for b in report["rounds"][2]["rules"]] == [
        (5, "Eder, Emma", 3, "Czerny, Clara", True), (1, "Alpha, Anna", 2, "Berger, Bernd", True),
        (6, "Fuchs, Franz", 4, "Dorn, David", True)]


def test_the_same_pairs_in_other_colours_name_the_colour_rule():
    # 6-4 written as 4-6: 6 must have White (Black twice), 4 prefers Black: E.1 grants both.
    cells = list(RULES_ROUND_3)
    assert (cells[3], cells[5]) == ("   6 b 0", "   4 w 1")
    cells[3], cells[5] = "   6 w 1", "   4 b 0"
    with translation.override("en"):
        report = check_report(parse_trf(trf_text(cells)), edition=EDITION_2026)
    assert report["rounds"][2]["reason"] == (
        "Same pairs, other colours: by colour rule E.1 player 6 gets White against 4.")
    assert [(b["white"], b["black"], b["differs"]) for b in report["rounds"][2]["file"]] == [
        (1, 2, False), (5, 3, False), (4, 6, True)]


def test_a_second_pab_breaks_c2():
    # Five players: round 1 is 1-3, 4-2 and the PAB for 5 (as the rules give it); the file's round 2
    # gives 5 the PAB again, where the rules give 5-1, 3-4 and the PAB to 2.
    text = HEAD + (
        "001    1      Alpha, Anna                       2000               0             2.0    1"
        "     3 w 1     4 w 1\n"
        "001    2      Berger, Bernd                     1900               0             1.0    2"
        "     4 b 0     3 w 1\n"
        "001    3      Czerny, Clara                     1800               0             0.0    3"
        "     1 b 0     2 b 0\n"
        "001    4      Dorn, David                       1700               0             1.0    4"
        "     2 w 1     1 b 0\n"
        "001    5      Eder, Emma                        1600               0             2.0    5"
        "  0000 - U  0000 - U\n")
    with translation.override("en"):
        report = check_report(parse_trf(text), edition=EDITION_2026)
    assert [row["identical"] for row in report["rounds"]] == [True, False]
    assert report["rounds"][1]["reason"] == (
        "Absolute criterion C.2 broken: player 5 gets the pairing-allocated bye but has already had it "
        "or already scored a win without playing.")
    assert [(b["white"], b["black"]) for b in report["rounds"][1]["rules"]] == [(5, 1), (3, 4), (2, 0)]


def test_players_left_out_of_a_round_are_named():
    # Round 3 lists 1-2 and 5-3 but nothing for 4 and 6 (blank: not a bye, they are to be paired).
    cells = list(RULES_ROUND_3)
    cells[3] = cells[5] = ""
    text = HEAD + "\n".join((line + "  " + cell).rstrip() for line, cell in zip(LINES, cells, strict=True))
    with translation.override("en"):
        report = check_report(parse_trf(text + "\n"), edition=EDITION_2026)
    assert report["rounds"][2]["reason"] == (
        "The file's pairing is incomplete or names players who are not to be paired in this round "
        "(players 4, 6).")
