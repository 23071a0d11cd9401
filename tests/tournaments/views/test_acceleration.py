"""A Swiss chooses Baku acceleration (FIDE C.04.5.1) when it is created; its page names it."""

import re

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Acceleration, Tournament, TournamentKind
from tests.factories import TournamentFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db

SWISS = {"name": "Open", "kind": "swiss", "category": "standard", "start_date": "2026-12-01",
         "rounds_count": "9", "tiebreaks": "BH,SB"}


def acceleration_shown(html: str) -> tuple[str, str]:
    found = re.search(r'<dt[^>]*>([^<]*)</dt><dd[^>]*id="acceleration">([^<]*)</dd>', html)
    return (found.group(1), found.group(2)) if found else ("", "")


@pytest.mark.parametrize(("sent", "stored"), [
    ("baku", "baku"), ("none", "none"), ("", "none"), (None, "none"),
])
def test_creating_a_swiss_with_or_without_acceleration(official_client, home_club, sent, stored):
    data = dict(SWISS)
    if sent is not None:
        data["acceleration"] = sent
    official_client.post(reverse("tournaments:create"), data)
    assert Tournament.objects.get(name="Open").acceleration == stored


def test_a_round_robin_is_not_accelerated(official_client, home_club):
    data = {"name": "RR", "kind": "round_robin", "category": "standard", "start_date": "2026-12-01",
            "tiebreaks": "SB", "acceleration": "baku"}
    response = official_client.post(reverse("tournaments:create"), data, HTTP_ACCEPT_LANGUAGE="de-at")
    assert response.status_code == 200
    assert ("Beschleunigte Paarung gibt es nur im Schweizer System; die Berger-Tabellen legen jede "
            "Runde fest.") in text(response)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("acceleration", "lang", "shown"), [
    (Acceleration.BAKU, "en", ("Acceleration", "Baku acceleration (FIDE C.04.5.1)")),
    (Acceleration.NONE, "en", ("Acceleration", "none")),
    (Acceleration.BAKU, "de-at", ("Beschleunigung", "Baku-Beschleunigung (FIDE C.04.5.1)")),
    (Acceleration.NONE, "de-at", ("Beschleunigung", "keine")),
])
def test_swiss_page_names_its_acceleration(client, acceleration, lang, shown):
    t = TournamentFactory(acceleration=acceleration)
    assert acceleration_shown(text(page(client, "detail", t.pk, lang=lang))) == shown


def test_round_robin_page_has_no_acceleration(client):
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    assert acceleration_shown(text(page(client, "detail", t.pk, lang="en"))) == ("", "")
