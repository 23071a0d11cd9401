import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from tests.paths import TRF_DIR

DATA = TRF_DIR
FILES = ["gros-2010-r4.trf", "karl-mala-2005.trf", "san-viator-2018.trf"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def run(*args):
    out = StringIO()
    call_command("rate_trf", *args, stdout=out)
    return out.getvalue()


def line(rank, name, rating, points, rounds):
    """A TRF16 player line with the fields at their columns."""
    head = f"001 {rank:>4} m    {name:<33} {rating:>4} AUT {0:>11} {'1978':<10}"
    return f"{head} {points:>4} {rank:>4}  {rounds}\n"


def rate(name, rules="oesb-classic"):
    return json.loads(run(str(DATA / name), "--rules", rules, "--json"))


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("rules", ["oesb-classic", "fide-2024", "egf-2021"])
def test_one_entry_per_player_line(name, rules):
    data = rate(name, rules)
    lines = (DATA / name).read_text(encoding="latin-1").replace("\r", "\n").split("\n")
    assert len(data["players"]) == sum(1 for line in lines if line.startswith("001"))
    assert [p["start_rank"] for p in data["players"]] == list(range(1, len(data["players"]) + 1))
    assert data["rules"] == rules and data["tournament"]
    keys = {"start_rank", "name", "rating", "games", "score", "expected", "factor", "change", "new_rating",
            "performance"}
    assert all(keys <= set(p) for p in data["players"])
    assert all("start_value" in p for p in data["players"] if p["rating"] is None)


def test_gros_player_1_fide():
    p = rate("gros-2010-r4.trf", "fide-2024")["players"][0]
    # Mirzoev 2527 beat 1743, 1973, 2087, 2222: D capped at 400 -> 0.92, 0.92, 0.92; D 305 -> 0.86.
    # Expected 3.62; K 40 (a TRF has no games count); 40 x (4 - 3.62) = 15.2 -> 2542.
    # Performance: (1743 + 1973 + 2087 + 2222) / 4 = 2006.25, + dp(1.00) 800 = 2806.
    assert (p["name"], p["rating"], p["games"], p["score"]) == ("Mirzoev Azer", 2527, 4, 4.0)
    assert round(p["expected"], 6) == 3.62 and p["factor"] == 40
    assert round(p["change"], 6) == 15.2 and p["new_rating"] == 2542 and p["performance"] == 2806


def test_san_viator_fide_first_rating_and_single_game():
    players = rate("san-viator-2018.trf", "fide-2024")["players"]
    p1, p3 = players[0], players[2]
    # Sarabia 1750 played one game, beating 1405: D 345 -> 0.89; 40 x 0.11 = 4.4 -> 1754; perf 1405 + 800.
    assert (p1["games"], p1["expected"], p1["new_rating"], p1["performance"]) == (1, 0.89, 1754, 2205)
    # Llanas (unrated), 3.5 from 6 vs 1447 1350 1414 1379 1426 1476 (sum 8492) plus two draws vs 1800:
    # (8492 + 3600) / 8 = 1511.5; p = 4.5 / 8 = 0.5625 -> 0.56, dp 43; 1554.5 -> 1555.
    # Performance: 8492 / 6 = 1415.33 + dp(0.58) 57 = 1472.
    assert (p3["rating"], p3["games"], p3["score"]) == (None, 6, 3.5)
    assert p3["start_value"] == 1555 and p3["new_rating"] == 1555 and p3["performance"] == 1472


def test_austrian_minimum_of_seven_games_keeps_games_pending():
    players = rate("san-viator-2018.trf")["players"]
    p3 = players[2]
    assert p3["start_value"] is None and p3["new_rating"] is None and p3["pending_games"] == 6
    # 66 (1447) drew p3 in round 1: that game waits, so 66 counts one game fewer than it played.
    p66 = players[65]
    assert p66["pending_games"] >= 1


def test_karl_mala_dummy_and_forfeit():
    players = rate("karl-mala-2005.trf")["players"]
    dummy = players[-1]
    assert (dummy["name"], dummy["rating"], dummy["games"]) == ("spielfrei", None, 0)
    assert dummy["performance"] is None
    assert dummy["start_value"] is None
    p13 = players[12]  # only a forfeit loss: nothing rated, rating unchanged
    assert (p13["games"], p13["change"], p13["new_rating"], p13["performance"]) == (0, 0.0, 2373, None)


def test_readable_table():
    text = run(str(DATA / "gros-2010-r4.trf"))
    assert "Mirzoev Azer" in text and "oesb-classic" in text


def test_malformed_file_names_the_line(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text(
        "012 Test\n"
        + line(1, "Alpha, Anna", "1800", "1.0", "   2 w 1")
        + line(2, "Beta, Bert", "18x0", "0.0", "   1 b 0")
    )
    with pytest.raises(CommandError, match=r"bad.trf: Line 3: rating “18x0” is not a rating: 0 \(unrated\) "
                                           r"or 100 to 3000\.$"):
        run(str(bad))


def test_contradicting_results(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text(
        "012 Test\n"
        + line(1, "Alpha, Anna", "1800", "1.0", "   2 w 1")
        + line(2, "Beta, Bert", "1700", "1.0", "   1 b 1")
    )
    with pytest.raises(CommandError, match=r"bad.trf: Line 2: round 1: the results of players 1 \(1\) and 2 "
                                           r"\(1\) do not fit together.$"):
        run(str(bad))


def test_missing_file_and_unknown_rules(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        run(str(tmp_path / "nothing.trf"))
    with pytest.raises(CommandError, match="elo"):
        run(str(DATA / FILES[0]), "--rules", "elo")


def test_german_error_message(tmp_path):
    with translation.override("de-at"), pytest.raises(CommandError, match="Unbekanntes Regelwerk"):
        run(str(DATA / FILES[0]), "--rules", "elo")


def test_exit_status_1(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "bad.trf"
    bad.write_text("012 Test\n")
    done = subprocess.run(
        [sys.executable, "manage.py", "rate_trf", str(bad)], capture_output=True, text=True,
        env={"CLUBRATING_TESTING": "1", "DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin"},
    )
    # The site's language, German, frame and all.
    assert (done.returncode, done.stderr) == (1, f"Fehler: {bad}: Die TRF-Datei kann nicht gelesen werden: "
                                                 "die Datei hat keine Spielerzeilen (001).\n")


def test_games_against_the_spielfrei_dummy_are_not_rated(tmp_path):
    # The dummy stands for a bye, even where a file writes a played result against it, with
    # (round 1) or without (round 2) an entry back on the dummy's line.
    slot = "{:>4} {} {}  ".format
    path = tmp_path / "dummy.trf"
    path.write_text(
        "012 Dummy\n"
        + line(1, "Alpha, Anna", "1800", "1.5", slot(2, "w", "1") + slot(3, "b", "="))
        + line(2, "Beta, Bert", "1700", "1.0", slot(1, "b", "0") + slot(4, "w", "1"))
        + line(3, "Gamma, Gus", "1600", "1.5", slot(4, "w", "1") + slot(1, "w", "="))
        + line(4, "spielfrei", "    ", "0.0", slot(3, "b", "0")),
        encoding="utf-8",
    )
    players = json.loads(run(str(path), "--json"))["players"]
    got = [(p["games"], p["new_rating"], p["pending_games"]) for p in players]
    # E(100) = 0.6374215, E(200) = 0.7576792 (polynomial), F = (3400 - R)^2 / 1e5, no games count.
    # Alpha: 25.6 x ((1 - 0.6374215) + (0.5 - 0.7576792)) = +2.685 -> 1803.
    # Beta: 28.9 x (0 - 0.3625785) = -10.479 -> 1690 (his win against the dummy is not rated).
    # Gamma: 32.4 x (0.5 - 0.2423208) = +8.349 -> 1608. The dummy gets no games and no value.
    assert got == [(2, 1803, 0), (1, 1690, 0), (1, 1608, 0), (0, None, 0)]
    assert round(players[0]["change"], 8) == 2.68542208
    assert players[3]["start_value"] is None
