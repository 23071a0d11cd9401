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


def test_error_exit_status(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "manage.py", "rating_calc", "--rules", "elo"], capture_output=True, text=True,
        env={"CLUBRATING_TESTING": "1", "DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1 and "elo" in done.stderr
