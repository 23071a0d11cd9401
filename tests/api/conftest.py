"""The API's tests read the small rated club of the rating pages' tests: the same data on the
page and in the API."""

from tests.ratings.views.conftest import (  # noqa: F401 - fixtures
    english,
    home_club,
    rated_club,
)
