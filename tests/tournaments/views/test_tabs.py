"""The tournament's tab bar drawn once per state (templatetags/tournament_tabs.py): the same HTML
as the template included on every request, and never a stale one."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from clubrating.tournaments.models import Round, Tournament
from clubrating.tournaments.templatetags import tournament_tabs
from tests.factories import RoundFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


def _bar(html: str) -> str:
    """The page's tab bar: from the tournament's heading to the rounds' buttons."""
    return re.search(r'<h1 class="h3 mb-1">.*?</nav>', html, re.S).group(0)


@pytest.mark.parametrize("official", [False, True])
@pytest.mark.parametrize("tab", ["standings", "pairings", "results", "evaluation"])
def test_the_bar_is_the_included_templates_own(tournament, official, tab):
    RoundFactory(tournament=tournament, number=2)
    context = {"tournament": tournament, "tab": tab, "official": official, "league_division": None,
               "round_numbers": [1, 2], "is_round_robin": False,
               "round": Round.objects.get(tournament=tournament, number=2)}
    request = RequestFactory().get("/")
    tournament_tabs._DRAWN.clear()
    for language in ("de-at", "en"):
        with translation.override(language):
            included = render_to_string("tournaments/_tabs.html", context, request=request)
            drawn = tournament_tabs.tournament_tabs(_Context(context))
            again = tournament_tabs.tournament_tabs(_Context(context))
        assert drawn == included and again == included
    assert len(tournament_tabs._DRAWN) == 2  # one per language


class _Context(dict):
    def flatten(self) -> dict:
        return dict(self)


def test_a_renamed_tournament_or_a_new_round_shows_at_once(client, tournament):
    played = tournament
    first = _bar(text(page(client, "standings", played.pk)))
    assert "Herbstturnier" in first and f"/tournaments/{played.pk}/round/2/" not in first
    Tournament.objects.filter(pk=played.pk).update(name="Wintercup <B>")
    bar = _bar(text(page(client, "standings", played.pk)))
    assert "Wintercup &lt;B&gt;" in bar and "Herbstturnier" not in bar
    RoundFactory(tournament=played, number=2)
    bar = _bar(text(page(client, "standings", played.pk)))
    assert f"/tournaments/{played.pk}/round/2/" in bar
    german = _bar(text(page(client, "standings", played.pk, lang="de-at")))
    assert "Rangliste" in german and "Rangliste" not in bar
