"""Malformed files through every importer, as services and as commands: each file is imported or
refused whole, with a translated refusal (``Refused``, ``CommandError`` for commands) and not one
row changed. Any other exception fails the test, whatever the database."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings

from clubrating.core.errors import Refused
from clubrating.interchange.formats.text import decode_text
from tests.factories import MemberFactory
from tests.fuzzfiles import SEEDS, files, import_command, import_service, row_counts
from tests.ratings.factories import make_pool

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.fixture
def members(db):
    """Members the seed files name, so that starting lists and imports also match some."""
    MemberFactory(last_name="Huber", first_name="Anna", national_id="AT1001", fide_id=1601001)
    MemberFactory(last_name="Maier", first_name="Karl", national_id="AT1002", fide_id=None,
                  birth_year=1970)


def _attempt(run) -> str:
    """'accepted' or 'refused'; a refusal must leave every table as it was. Rolled back after."""
    with transaction.atomic():
        pool = make_pool(name="Fuzz")
        before = row_counts()
        try:
            run(pool)
        except (Refused, CommandError):
            assert row_counts() == before
            outcome = "refused"
        else:
            outcome = "accepted"
        transaction.set_rollback(True)
    return outcome


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_the_seeds_are_accepted(kind, members):
    for seed in SEEDS[kind]:
        assert _attempt(lambda pool, seed=seed: import_service(kind, decode_text(seed), pool)) == "accepted"


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_fuzzed_files_through_the_services(kind, members):
    outcomes = []

    @FUZZ
    @given(raw=files(kind))
    def run(raw):
        outcomes.append(_attempt(lambda pool: import_service(kind, decode_text(raw), pool)))

    run()
    assert "refused" in outcomes


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_fuzzed_files_through_the_commands(kind, members, tmp_path):
    path = tmp_path / "upload"

    @settings(FUZZ, max_examples=8)
    @given(raw=files(kind))
    def run(raw):
        path.write_bytes(raw)
        _attempt(lambda pool: import_command(kind, str(path), pool))

    run()




@pytest.mark.parametrize(("kind", "text", "message"), [
    ("trf", "XXR 99999999999999999999\n", r"^Line 1: XXR 99999999999999999999 is not between 1 and 999\.$"),
    ("ratings", "id,rating\nAT1001,nan\n", r"^Line 2: column “rating” “nan” is not a rating"),
    ("ratings", "id,rating\nAT1001,1e308\n", r"^Line 2: column “rating” “1e308” is not a rating"),
    ("ratings", "id,rating\nAT1001,-1500\n", r"^Line 2: column “rating” “-1500” is not a rating"),
    ("ratings", "id,rating,games\nAT1001,1500,-3\n",
     r"^Line 2: column “games” -3 is not between 0 and 100000"),
    ("members", "last_name,first_name,birth_date,fide_id\nA,B,,9223372036854775808\n",
     r"^Line 2: column “fide_id” 9223372036854775808 is not between 1 and 99999999999\.$"),
    ("members", "last_name,first_name,birth_date\n" + "A" * 300 + ",B,\n",
     r"^Line 2: column “last_name” is longer than 80 characters\.$"),
    ("members", "last_name,first_name,birth_date\nA\x00,B,\n",
     r"^Line 2: column 2 holds a control character \(U\+0000\)\.$"),
    ("pgn", '[White "A"]\n[Black "B"]\n[Result "1-0"]\n[Round "99999999999999999999"]\n',
     r"Round 99999999999999999999 is not between 1 and 999\.$"),
    ("pgn", '[White "A"]\n[Black "B"]\n[Result "1-0"]\n[Round "1"]\n[WhiteElo "99999999999999999999"]\n',
     r"WhiteElo 99999999999999999999 is not between 0 and 3000\.$"),
])
def test_values_out_of_range_are_refused_with_line_and_column(kind, text, message, members):
    pool = make_pool(name="Start")
    before = row_counts()
    with pytest.raises(Refused, match=message):
        import_service(kind, text, pool)
    assert row_counts() == before
