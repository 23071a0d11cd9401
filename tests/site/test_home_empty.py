"""The start page of an installation without data: every section says so. (Its own module: the
tests of test_home.py share one demo club for the whole module.)"""

import pytest

from tests.language import speak

pytestmark = pytest.mark.django_db


def test_empty_database_shows_empty_states(client):
    speak(client, "en")
    html = client.get("/").content.decode()
    assert "No tournament is running at the moment." in html
    assert "No finished tournaments yet." in html
    assert "No rating pool has been set up yet." in html
