"""Malformed files through every importer, as services and as commands: each file is imported or
refused whole, with a translated refusal (``Refused``, ``CommandError`` for commands) and not one
row changed. Any other exception fails the test, whatever the database. Shifted TRF columns,
CSV rows with another delimiter and control characters in long member files (the pages' background
path) are refused, each with its line."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubrating.core.errors import Refused
from clubrating.interchange.formats.text import decode_text
from clubrating.jobs.models import Job
from tests.factories import MemberFactory
from tests.fuzzfiles import (
    DATA,
    SEEDS,
    TRF_GAPS,
    files,
    fuzz_world,
    import_command,
    import_service,
    long_members_file,
    mix_delimiter,
    row_counts,
    shift_trf,
)
from tests.language import speak
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
    fuzz_world()


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


def _refusal(run) -> str:
    """The message of a refusal ``run(pool)`` must raise, every table left as it was."""
    with transaction.atomic():
        pool = make_pool(name="Fuzz")
        before = row_counts()
        with pytest.raises(Refused) as refused:
            run(pool)
        assert row_counts() == before
        transaction.set_rollback(True)
    return refused.value.message


TRF_SEEDS = [SEEDS["trf"][0], SEEDS["trf"][1], (DATA / "trf" / "karl-mala-2005.trf").read_bytes()]


@pytest.mark.parametrize("kind", ["trf", "rate_trf", "ratings"])
def test_a_field_shifted_out_of_its_columns_is_refused_with_line_and_column(kind, members):
    """A character in the blank column between two fields of a player line, written over it or
    pushing the rest of the line right (a value one character too long), is never cut to fit."""

    @FUZZ
    @given(seed=st.sampled_from(TRF_SEEDS), line=st.integers(0, 400), gap=st.sampled_from(TRF_GAPS),
           char=st.sampled_from([b"1", b"5", b"x", b".", b"/"]), insert=st.booleans())
    def run(seed, line, gap, char, insert):
        raw, number = shift_trf(seed, line, gap, char, insert)
        message = _refusal(lambda pool: import_service(kind, decode_text(raw), pool))
        assert message.startswith(f"Line {number}: column {gap + 1} between "), message
        assert message.endswith(" runs over it: the fields are shifted."), message

    run()


@pytest.mark.parametrize("kind", ["members", "ratings"])
def test_a_row_with_another_delimiter_than_the_header_is_refused_with_its_line(kind, members):
    seed = SEEDS[kind][0]

    @FUZZ
    @given(row=st.integers(0, 10), other=st.sampled_from([b",", b";", b"\t"]))
    def run(row, other):
        mixed = mix_delimiter(seed, row, other)
        if mixed is None:  # the header's own delimiter
            return
        raw, number = mixed
        message = _refusal(lambda pool: import_service(kind, decode_text(raw), pool))
        assert message.startswith(f"Line {number}: the row is separated by “"), message
        assert message.endswith("; every row must use the header's delimiter."), message

    run()


@pytest.fixture
def official_client(client, db):
    from django.conf import settings as django_settings
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("fuzz")
    user.groups.add(Group.objects.get_or_create(name=django_settings.OFFICIALS_GROUP)[0])
    client.force_login(user)
    return client


CONTROL = re.compile(r"^Line (\d+): column \d+ holds a control character \(U\+00[0-9A-F]{2}\)\.$")


def test_control_characters_in_long_member_files_are_refused_before_the_background(members,
                                                                                  official_client):
    """Above 1,000 rows the page previews and imports in the background: the file is refused
    on the page, before a job stores it, exactly as the service refuses it."""

    @settings(FUZZ, max_examples=12)
    @given(made=long_members_file())
    def run(made):
        raw, number = made
        message = _refusal(lambda pool: import_service("members", decode_text(raw), pool))
        found = CONTROL.match(message)
        assert found and int(found.group(1)) == number, message
        before = row_counts()
        response = speak(official_client, "en").post(reverse("interchange:members_import"),
                                         {"file": SimpleUploadedFile("long.csv", raw)})
        assert response.status_code == 200
        assert response.context["form"].errors["file"] == [message]
        assert (Job.objects.count(), row_counts()) == (0, before)

    run()


# Words of the English messages (and of Python's and python-chess's) that no German refusal has.
ENGLISH = re.compile(r"\b(the|is not|line|cannot|expected|unexpected|illegal|invalid|empty|field|"
                     r"number|not a)\b")


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_fuzzed_files_are_refused_in_german(kind, members):
    """The site's language: not one English word in a refusal, whatever broke the file."""
    messages = []

    @FUZZ
    @given(raw=files(kind))
    def run(raw):
        with translation.override("de-at"), transaction.atomic():
            pool = make_pool(name="Fuzz")
            try:
                import_service(kind, decode_text(raw), pool)
            except Refused as refused:
                messages.append(refused.message)
            transaction.set_rollback(True)

    run()
    assert messages
    english = [m for m in messages if ENGLISH.search(m)]
    assert not english, english[:5]
