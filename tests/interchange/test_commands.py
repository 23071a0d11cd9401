from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from clubrating.clubs.models import Member
from clubrating.interchange.formats.trf import parse_trf
from clubrating.tournaments.models import PLAYED_RESULTS, Game, Tournament
from ratings.models import PeriodState, RatingPeriod, RatingRecord, TournamentRating
from ratings.services import pool_create

from .conftest import PGN_DIR, TRF_DIR

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_import_trf_prints_the_summary():
    out = run(
        "import_trf", str(TRF_DIR / "karl-mala-2005.trf"), "--name", "Karl Mala 2005", "--category", "rapid"
    )
    assert out == (
        "Imported Karl Mala 2005: 283 players (0 matched, 283 new guests, 1 refused), 7 rounds, 980 games "
        "(10 forfeits, 0 unrated), 1 byes.\nNot imported: player 284 (dummy bye player)\n"
    )
    assert Tournament.objects.get().category == "rapid"


def test_import_trf_refuses_a_bad_file(tmp_path, counts):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 X\n042 2025/01/01\n001    1      Huber, Anna                        21x \n")
    before = counts()
    with pytest.raises(CommandError, match=r"^Line 3: rating “21x” is not a rating: 0 \(unrated\) or 100 to "
                                           r"3000\.$"):
        run("import_trf", str(bad))
    assert counts() == before


def test_import_trf_unknown_pool_is_an_error(counts):
    before = counts()
    with pytest.raises(CommandError, match="^There is no rating pool named “Nirgends”.$"):
        run("import_trf", str(TRF_DIR / "gros-2010-r4.trf"), "--pool", "Nirgends")
    assert counts() == before


def test_import_trf_rates_the_games_in_the_pool():
    pool = pool_create(name="Open 2010", start_date=date(2010, 9, 1))
    out = run("import_trf", str(TRF_DIR / "gros-2010-r4.trf"), "--pool", "Open 2010")
    tournament = Tournament.objects.get()
    played = Game.objects.filter(round__tournament=tournament, rated=True, rated_result__in=PLAYED_RESULTS)
    assert played.count() == 89
    assert out.splitlines()[1] == "Rated in the pool Open 2010: 178 rating records."
    assert RatingRecord.objects.filter(pool=pool, game__round__tournament=tournament).count() == 178
    assert list(TournamentRating.objects.values_list("tournament", "pool")) == [(tournament.pk, pool.pk)]


def test_import_trf_pool_and_unrated_contradict(counts):
    pool_create(name="Open 2010", start_date=date(2010, 9, 1))
    before = counts()
    with pytest.raises(CommandError, match="^An unrated tournament cannot be rated in the pool Open 2010.$"):
        run("import_trf", str(TRF_DIR / "gros-2010-r4.trf"), "--pool", "Open 2010", "--unrated")
    assert counts() == before


def test_import_trf_refused_by_the_ratings_saves_nothing(counts):
    """A game in a closed rating period: the ratings refuse, and the import is undone with them."""
    pool = pool_create(name="Open 2010", start_date=date(2010, 9, 1))
    RatingPeriod.objects.filter(pool=pool).update(state=PeriodState.CLOSED)
    before = counts()
    with pytest.raises(CommandError, match="closed rating period"):
        run("import_trf", str(TRF_DIR / "gros-2010-r4.trf"), "--pool", "Open 2010")
    assert counts() == before


def test_export_trf_to_stdout_and_to_a_file(tmp_path):
    run("import_trf", str(TRF_DIR / "san-viator-2018.trf"))
    tournament = Tournament.objects.get()
    by_name = run("export_trf", tournament.name)
    by_id = run("export_trf", str(tournament.pk))
    assert by_name == by_id and len(parse_trf(by_name).players) == 137
    target = tmp_path / "out.trf"
    assert run("export_trf", str(tournament.pk), str(target)) == f"Written {target}.\n"
    assert target.read_text() == by_name


def test_export_trf_unknown_tournament():
    with pytest.raises(CommandError, match="No tournament Nirgends"):
        run("export_trf", "Nirgends")


def test_import_pgn_with_and_without_tournament_name():
    out = run("import_pgn", str(PGN_DIR / "uzchess-cup-2025.pgn"), "--tournament", "UzChess Cup 2025")
    assert out == (
        "Imported 45 games (0 with moves) into UzChess Cup 2025; players: 0 matched, 10 new members.\n"
    )
    out = run("import_pgn", str(PGN_DIR / "womens-world-rapid-2024.pgn"))
    assert out.startswith(
        "Imported 605 games (0 with moves) into FIDE Women’s World Rapid Championships 2024;"
    )
    assert Game.objects.count() == 650


def test_import_pgn_errors(tmp_path, counts):
    with pytest.raises(CommandError, match="Cannot read /nonexistent.pgn: there is no such file"):
        run("import_pgn", "/nonexistent.pgn")
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "X"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n*\n')
    before = counts()
    with pytest.raises(CommandError, match=r"the result \* is not a finished game's result"):
        run("import_pgn", str(bad))
    assert counts() == before


CSV = """last_name;first_name;sex;birth_date;club;national_id;fide_id;fide_rating;title;email;phone
Huber;Anna;f;17.05.1990;SK Graz;12345;1601001;2100;WFM;anna@example.org;0660 123
Gruber;Bernd;m;1985-02-03;SK Graz;;;;;;
Huber;Anna;f;17.05.1990;SK Graz;;;;;;
"""


def test_import_members_creates_updates_and_reports_duplicates(tmp_path):
    path = tmp_path / "members.csv"
    path.write_text(CSV)
    assert run("import_members", str(path)) == (
        "2 members created, 0 updated, 1 duplicate row skipped.\nDuplicate rows: 4\n"
    )
    anna = Member.objects.get(last_name="Huber")
    assert (anna.club.name, anna.national_id, anna.fide_id, anna.fide_rating, anna.fide_title, anna.sex) == (
        "SK Graz",
        "12345",
        1601001,
        2100,
        "WFM",
        "f",
    )
    path.write_text(CSV.splitlines()[0] + "\nHuber;Anna;f;17.05.1990;SK Wien;;;2150;;;\n")
    assert run("import_members", str(path)) == "0 members created, 1 updated, 0 duplicate rows skipped.\n"
    anna.refresh_from_db()
    assert (anna.club.name, anna.fide_rating, anna.national_id) == ("SK Wien", 2150, "12345")


@pytest.mark.parametrize(
    "row, message",
    [
        (
            "Maier;Carl;m;31.02.1990;;;;;;;",
            "Row 3: birth date 31.02.1990 is neither dd.mm.yyyy nor yyyy-mm-dd",
        ),
        ("Maier;Carl;x;;;;;;;;", "Row 3: sex x is not m or f"),
        ("Maier;Carl;m;;;;16x;;;;", "Line 3: column “fide_id” “16x” is not a whole number."),
        (";Carl;m;;;;;;;;", "Row 3: the last name is missing"),
        ("Maier;Carl;m;;;;1601001;;;;", "Row 3: .*FIDE ID"),
    ],
)
def test_import_members_bad_row_saves_nothing(tmp_path, row, message, counts):
    path = tmp_path / "members.csv"
    path.write_text(CSV.splitlines()[0] + "\n" + CSV.splitlines()[1] + "\n" + row + "\n")
    before = counts()
    with pytest.raises(CommandError, match=message):
        run("import_members", str(path))
    assert counts() == before


def test_import_members_refuses_in_the_sites_language_frame_and_all(tmp_path):
    """On the command line the site's language, German: the message and its frame (Django's own
    would be "CommandError: ...")."""
    import subprocess
    import sys

    bad = tmp_path / "members.csv"
    bad.write_text("last_name;first_name;birth_date\nHuber;Anna;\nMaier,Karl,1970-01-01\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "import_members", str(bad)], capture_output=True, text=True,
        env={"CLUBRATING_TESTING": "1", "DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin",
             "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"},  # refused before any query
    )
    assert (done.returncode, done.stderr) == (
        1, "Fehler: Zeile 3: die Zeile ist durch „,“ getrennt, die Kopfzeile durch „;“; jede Zeile muss "
           "das Trennzeichen der Kopfzeile verwenden.\n")
