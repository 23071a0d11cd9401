"""``manage.py pair_trf``: pairs as bbpPairings 6.0.0 does, round by round of tournaments that
bbpPairings generated and paired itself (tests/data/pairing, see its README), and refuses bad files
with a message, not a traceback."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from clubrating.interchange.formats.trf import read_trf
from clubrating.tournaments.pairing.trf_pairing import pair_trf_round, played_pairs, round_input
from tests.paths import DATA_DIR, TRF_DIR

PAIRING_DIR = DATA_DIR / "pairing"
VECTORS = sorted(path.name for path in PAIRING_DIR.glob("bbp-dutch-*.trf"))
# Baku-accelerated (C.04.5.1) tournaments paired round by round by the same program from files
# carrying the virtual points as TRF-2026 250 lines (benchmarks/baku_vectors.py).
BAKU_VECTORS = sorted(path.name for path in PAIRING_DIR.glob("bbp-baku-*.trf"))
# The larger files (49 players and more) take from seconds to a minute each.
SLOW = {name for name in VECTORS + BAKU_VECTORS if int(name.split("-")[2][:3]) >= 49}


def _pair(path) -> list[tuple[int, int]]:
    out = StringIO()
    call_command("pair_trf", str(path), stdout=out)
    lines = out.getvalue().split("\n")
    count = int(lines[0])
    pairs = [tuple(int(x) for x in line.split()) for line in lines[1:] if line.strip()]
    assert len(pairs) == count
    return pairs


def test_the_vector_set_varies():
    assert len(VECTORS) == 41
    sizes = {int(name.split("-")[2][:3]) for name in VECTORS}
    assert min(sizes) == 7 and max(sizes) == 150


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in VECTORS + BAKU_VECTORS
])
def test_every_round_as_the_endorsed_engine_paired_it(name, tmp_path):
    trf = read_trf(PAIRING_DIR / name)
    rounds = max(len(p.results) for p in trf.players)
    for number in range(1, rounds + 1):
        # The file as it stood before the round: earlier rounds and the byes known in advance.
        before = tmp_path / f"round-{number}.trf"
        before.write_text(round_input(trf, number))
        assert sorted(_pair(before)) == sorted(played_pairs(trf, number)), f"round {number}"


def test_the_baku_vectors_are_accelerated():
    assert len(BAKU_VECTORS) == 10
    sizes = {int(name.split("-")[2][:3]) for name in BAKU_VECTORS}
    assert min(sizes) == 12 and max(sizes) == 150
    # Without its virtual points the first round of a file is paired differently.
    trf = read_trf(PAIRING_DIR / "bbp-baku-012p-05r-s300000.trf")
    assert [line for line in trf.extra_lines if line.startswith("250")] == [
        "250       1.0   1   2    1    6", "250       0.5   3   3    1    6"]
    trf.extra_lines = [line for line in trf.extra_lines if not line.startswith(("250", "192"))]
    assert sorted(pair_trf_round(trf, 1)) != sorted(played_pairs(trf, 1))


def test_output_lists_white_first_and_the_pab_as_n_0(tmp_path):
    trf = read_trf(PAIRING_DIR / "bbp-dutch-007p-04r-s100040.trf")
    before = tmp_path / "r4.trf"
    before.write_text(round_input(trf, 4))
    out = StringIO()
    call_command("pair_trf", str(before), stdout=out)
    assert out.getvalue() == "4\n1 6\n4 3\n5 7\n2 0\n"


@pytest.mark.slow
def test_check_san_viator_rounds_two_to_seven_as_played():
    # Played in 2018: the rules until January 2026 apply (the file's start date). Round 1 of the
    # file follows neither numbering of the players present; every later round is reproduced.
    out = StringIO()
    call_command("pair_trf", str(TRF_DIR / "san-viator-2018.trf"), "--check", stdout=out)
    text = out.getvalue()
    assert text.startswith("Round 1 differs.\n")
    # Its pairs are the rules', its colours not: the higher seed of each board has the other colour.
    assert "\n  Why: Same pairs, other colours: by colour rule E.5 player 78 gets White against 14.\n" in text
    assert "Round 2 differs" not in text
    assert text.rstrip().endswith(
        "6 of 7 rounds paired as the rules give (FIDE Dutch system until 31 January 2026)."
    )


def test_check_a_file_paired_by_the_rules(tmp_path):
    out = StringIO()
    call_command("pair_trf", str(PAIRING_DIR / "bbp-dutch-012p-07r-s100003.trf"), "--check", stdout=out)
    assert out.getvalue() == (
        "7 of 7 rounds paired as the rules give (FIDE Dutch system from 1 February 2026).\n"
    )


def test_check_lists_a_differing_round_with_its_boards(tmp_path):
    text = (PAIRING_DIR / "bbp-dutch-007p-04r-s100040.trf").read_text().replace("\r", "\n")
    # Swap the colours of one board of round 4 (4-3 becomes 3-4).
    lines = [line for line in text.split("\n") if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith("001    3 ") or line.startswith("001    4 "):
            cell = line[121:131]
            colour = "b" if cell[5] == "w" else "w"
            lines[i] = line[:126] + colour + line[127:]
    changed = tmp_path / "changed.trf"
    changed.write_text("\n".join(lines) + "\n")
    out = StringIO()
    call_command("pair_trf", str(changed), "--check", stdout=out)
    assert out.getvalue() == (
        "Round 4 differs.\n"
        "  Published: 3-4\n"
        "  By the rules: 4-3\n"
        "  Why: Same pairs, other colours: by colour rule E.1 player 4 gets White against 3.\n"
        "3 of 4 rounds paired as the rules give (FIDE Dutch system from 1 February 2026).\n"
    )


def test_a_file_without_players_gets_a_message(tmp_path):
    path = tmp_path / "bad.trf"
    path.write_text("012 Nothing\n")
    with pytest.raises(CommandError) as caught:
        call_command("pair_trf", str(path), stdout=StringIO())
    assert str(caught.value) == "Cannot read the TRF file: the file has no player lines (001)."


def test_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot be read|Cannot read"):
        call_command("pair_trf", str(tmp_path / "missing.trf"))


def test_all_rounds_paired(tmp_path):
    path = tmp_path / "done.trf"
    text = (PAIRING_DIR / "bbp-dutch-007p-04r-s100040.trf").read_text().replace("\r", "\n")
    path.write_text("XXR 4\n" + text)
    with pytest.raises(CommandError) as caught:
        call_command("pair_trf", str(path), stdout=StringIO())
    assert str(caught.value) == "All 4 rounds of the tournament are paired."
