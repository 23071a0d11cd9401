"""For a folder whose tests all read the small rated club of the rating pages' tests as built:
its ``conftest.py`` star-imports this module, so the club is built once per module and each test
runs in a savepoint with its own instances (tests/ratings/views/conftest.py)."""

import pytest

from tests.ratings.views.conftest import (  # noqa: F401 - fixtures
    english,
    home_club,
    home_club_shared,
    rated_club_once,
    rated_club_shared,
)


@pytest.fixture
def rated_club(rated_club_shared):  # noqa: F811 - the fixture, imported above
    return rated_club_shared
