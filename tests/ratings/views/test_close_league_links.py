"""The close page's unfinished tournaments link each round to where its results are entered: a
league division's are entered on the league's pages (the tournament's own result page refuses
them), any other tournament's on its result page."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubrating.leagues.models import Division
from clubrating.tournaments.models import Tournament
from ratings.models import PeriodState, RatingPeriod
from tests.ratings.factories import set_today

pytestmark = pytest.mark.django_db


def test_a_league_divisions_rounds_link_to_the_leagues_rounds(client, demo_club, monkeypatch):
    set_today(monkeypatch, datetime.date(2026, 12, 31))  # the period's last day: round 5 is still open
    client.force_login(User.objects.get(username="ratingofficer"))
    period = RatingPeriod.objects.get(state=PeriodState.OPEN, start=datetime.date(2026, 7, 1))

    html = client.get(reverse("ratings:period_close", args=[period.pk])).content.decode()

    def round_links(name: str) -> list[str]:
        item = html.split(f">{name}</a>: ")[1].split("</li>")[0]
        return re.findall(r'href="([^"]*)">\d+</a>', item)

    for division in Division.objects.all():
        rounds = reverse("leagues:division_rounds", args=[division.pk])
        assert round_links(division.tournament.name) == [rounds]
    herbst = Tournament.objects.get(name="Herbstopen 2026")
    assert round_links(herbst.name) == [reverse("tournaments:results", args=[herbst.pk, 5])]
