# The rated club of the ratings page tests serves the member page tests too.
from tests.ratings.views.conftest import (  # noqa: F401
    english,
    home_club,
    rated_club,
)
