
import pytest
from django.utils import translation

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Bye, Game, ResultChange, Round, Tournament, TournamentPlayer
from tests.paths import PGN_DIR, TRF_DIR  # noqa: F401 - the test modules import them from here


def db_counts() -> dict[str, int]:
    """Row counts of everything an import may write, to show that a refusal changed nothing."""
    return {
        model.__name__: model.objects.count()
        for model in (Club, Member, Tournament, TournamentPlayer, Round, Game, Bye, ResultChange)
    }


@pytest.fixture
def counts():
    return db_counts


@pytest.fixture(autouse=True)
def english():
    """The site's language is de-at; these tests assert the English msgids unless they say otherwise."""
    with translation.override("en"):
        yield
