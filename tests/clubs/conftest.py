# The rated club of the ratings page tests serves the member page tests too.
from tests.ratings.views.conftest import (  # noqa: F401
    english,
    home_club,
    home_club_shared,
    rated_club,
    rated_club_once,
    rated_club_shared,
)
