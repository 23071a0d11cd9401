import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def run(*args):
    out = StringIO()
    call_command("rating_calc", *args, stdout=out)
    return out.getvalue()


def test_fide_example_as_json():
    data = json.loads(run("--rules", "fide-2024", "--rating", "1922", "--games", "10",
                          "--vs", "1798:1", "--vs", "1801:0-1", "--vs", "1897:1-0", "--json"))
    assert data["rules"] == "fide-2024" and data["rating"] == 1922 and data["factor"] == 40
    # 40 x (1 - 0.67) = 13.2; 40 x (0 - 0.66) = -26.4; 40 x (1 - 0.53) = 18.8; sum 5.6
    assert [(g["opponent"], g["result"], g["difference"], g["expected"]) for g in data["games"]] == [
        (1798, 1.0, 124, 0.67), (1801, 0.0, 121, 0.66), (1897, 1.0, 25, 0.53),
    ]
    assert [round(g["change"], 6) for g in data["games"]] == [13.2, -26.4, 18.8]
    assert round(data["change"], 6) == 5.6 and data["new_rating"] == 1928
    assert "start_value" not in data


def test_default_rules_seed_000_draw():
    data = json.loads(run("--rating", "1830", "--vs", "1980:½", "--json"))
    assert data["rules"] == "oesb-classic" and data["new_rating"] == 1835
    assert round(data["factor"], 3) == 24.649


def test_newcomer_start_value():
    # 7 games, 4.5 points vs 1600 each: 1600 + 700 x (4.5/7 - 0.5) x 7/9 = 1677.78 -> 1678
    args = ["--vs", "1600:1"] * 4 + ["--vs", "1600:0.5"] + ["--vs", "1600:0"] * 2
    data = json.loads(run(*args, "--json"))
    assert data["rating"] is None and data["published"] is True
    assert data["start_value"] == pytest.approx(1677.7778, abs=1e-4) and data["new_rating"] == 1678
    short = json.loads(run("--vs", "1600:1", "--json"))
    assert short["published"] is False and short["new_rating"] is None


def test_readable_table():
    text = run("--rating", "1950", "--vs", "1820:0")
    assert "1820" in text and "1936" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "elo"], "elo"),
        (["--vs", "1800"], "--vs 1800"),
        (["--vs", "abc:1"], "--vs abc:1"),
        (["--vs", "1800:2"], "--vs 1800:2"),
        (["--games", "-1"], "--games"),
    ],
)
def test_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_german_error_message():
    with translation.override("de-at"), pytest.raises(CommandError, match="--vs 1800: erwartet"):
        run("--vs", "1800")
    with translation.override("de-at"), pytest.raises(CommandError, match="--vs 1800:0.25: erwartet"):
        run("--vs", "1800:0.25")


@pytest.mark.parametrize(
    ("written", "score"),
    [("1.00", 1.0), ("1,0", 1.0), ("1", 1.0), ("+", 1.0), ("0.50", 0.5), ("0,5", 0.5), ("0,50", 0.5),
     ("½", 0.5), ("1/2", 0.5), ("=", 0.5), ("0.00", 0.0), ("0", 0.0), ("-", 0.0), ("0-1", 0.0)],
)
def test_results_as_fide_and_german_write_them(written, score):
    data = json.loads(run("--rules", "fide-2024", "--rating", "2000", "--games", "100",
                          "--vs", f"2000:{written}", "--json"))
    assert data["games"][0]["result"] == score


@pytest.mark.parametrize("written", ["2", "0.25", "1.5", "x", "", "1,,0", "-1"])
def test_other_results_are_refused(written):
    with pytest.raises(CommandError, match=f"--vs 1800:{written}: expected"):
        run("--vs", f"1800:{written}")


def test_fide_2025_full_difference_for_2650_and_more():
    # FIDE's calculation for a 2813 player: a win against 1787 changes his rating by 0.00.
    data = json.loads(run("--rules", "fide-2025", "--rating", "2813", "--games", "500",
                          "--vs", "1787:1.00", "--json"))
    assert (data["games"][0]["difference"], data["games"][0]["expected"]) == (1026, 1.0)
    assert data["games"][0]["change"] == 0.0 and data["new_rating"] == 2813
    old = json.loads(run("--rules", "fide-2024", "--rating", "2813", "--games", "500",
                         "--vs", "1787:1.00", "--json"))
    assert round(old["games"][0]["change"], 9) == 0.8


def test_peak_rating_sets_k_10():
    args = ["--rules", "fide-2024", "--rating", "2395", "--games", "100", "--vs", "2395:1", "--json"]
    assert json.loads(run(*args))["factor"] == 20
    data = json.loads(run(*args, "--peak-rating", "2400"))
    assert data["factor"] == 10 and data["change"] == 5.0 and data["new_rating"] == 2400
    with pytest.raises(CommandError, match="--peak-rating"):
        run(*args, "--peak-rating", "0")


def test_error_exit_status(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "manage.py", "rating_calc", "--rules", "elo"], capture_output=True, text=True,
        env={"CLUBRATING_TESTING": "1", "DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1 and "elo" in done.stderr


def test_every_rule_set_is_offered():
    from ratings.rules import PRESETS

    for name in PRESETS:
        data = json.loads(run("--rules", name, "--rating", "2000", "--games", "50", "--vs", "2000:1.00",
                              "--json"))
        assert data["rules"] == name and data["new_rating"] > 2000
