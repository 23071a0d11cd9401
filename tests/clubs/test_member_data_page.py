"""The member's data as a page for people (clubrating.clubs.member_data_page): labels, dates
and numbers as the reader's language writes them, his games from his side."""

import re

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Result
from tests.factories import GameFactory, RoundFactory
from tests.language import speak
from tests.ratings.test_member_data import everything  # noqa: F401
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401

pytestmark = pytest.mark.django_db


def _cells(html: str, heading: str) -> dict[str, str]:
    """The definition list after ``heading``: label → text."""
    part = html.split(heading, 1)[1].split("</dl>", 1)[0]
    return dict(re.findall(r"<dt[^>]*>(.*?)</dt><dd[^>]*>(.*?)</dd>", part))


def _games(html: str) -> list[list[str]]:
    body = html.rsplit("<tbody>", 1)[1].split("</tbody>", 1)[0]  # the games, the page's last table
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in body.split("</tr>") if "<td" in row]


@pytest.fixture
def lost_with_black(everything):  # noqa: F811
    """A third game: Anna loses with Black (White's 1-0 is her 0)."""
    GameFactory(round=RoundFactory(tournament=everything["autumn"], number=3), board=1,
                white=everything["clara"], black=everything["anna"], result=Result.WHITE_WINS)
    return everything


def test_the_page_reads_as_a_page_for_people(client, lost_with_black, official):
    anna = lost_with_black["anna"]
    client.force_login(official)
    html = client.get(reverse("clubs:member_data", args=[anna.pk])).content.decode()
    member = _cells(html, "Mitgliedsdaten")
    assert "last_name" not in html and "birth_date" not in html and "True" not in html
    assert member["Geburtsdatum"] == "02.04.2010"
    assert member["Geburtsjahr"] == "2010"  # never "2.010"
    assert member["Geschlecht"] == "weiblich"
    assert member["Profil eingeschränkt"] == "nein"
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", member["Geändert"]), member["Geändert"]
    account = _cells(html, "<h2 class=\"h5 mt-3\">Anmeldung</h2>")
    assert account["Benutzername"] == "anna"
    assert [(g[3], g[4], g[5]) for g in _games(html)] == [
        ("Weiß", "Huber, Bernd", "½"), ("Weiß", "Moser, Clara", "½"), ("Schwarz", "Moser, Clara", "0")]


def test_the_page_in_english(client, lost_with_black, official):
    client.force_login(official)
    speak(client, "en")
    html = client.get(reverse("clubs:member_data", args=[lost_with_black["anna"].pk])).content.decode()
    member = _cells(html, "Member record")
    assert member["Birth year"] == "2010" and member["Profile restricted"] == "no"
    assert [(g[3], g[5]) for g in _games(html)] == [("White", "½"), ("White", "½"), ("Black", "0")]
