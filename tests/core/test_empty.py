"""Empty lists say so and link the next step (clubrating.core.empty): every list page of a fresh
installation (no demo), as the one who may take the step and as a visitor."""

import datetime
import re

import pytest
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.leagues.services import season_create
from tests.factories import RoundFactory, TournamentFactory
from tests.language import speak
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

OFFICIAL, OFFICER = "official", "officer"


def _tournament():
    return {"pk": TournamentFactory(name="Vereinsmeisterschaft").pk}


def _team_tournament():
    return {"pk": TournamentFactory(name="Mannschaftsturnier", kind="team").pk}


def _round():
    rnd = RoundFactory(tournament=TournamentFactory(name="Blitzturnier"), number=1)
    return {"pk": rnd.tournament_id, "number": 1}


def _pool():
    make_pool(name="Standard", start=datetime.date(2026, 1, 1))
    return {}


def _season(official):
    season = season_create(name="Landesliga 2026/27", start_date=datetime.date(2026, 9, 1),
                           directors=[official])
    club = Club.objects.create(name="SK Donaustadt", is_home=True)
    return {"pk": season.pk, "club_pk": club.pk}


# (name, url name, url kwargs (built from the fixture), who takes the step, a visitor sees it,
#  the sentence, the links (label, url name or anchor))
CASES = [
    ("members", "clubs:member_list", None, OFFICIAL, True, "Noch keine Mitglieder.",
     [("Mitglied anlegen", "clubs:member_add"), ("CSV importieren", "interchange:members_import")]),
    ("tournaments", "tournaments:list", None, OFFICIAL, True, "Noch keine Turniere.",
     [("Turnier anlegen", "tournaments:create")]),
    ("players", "tournaments:players", _tournament, OFFICIAL, True, "Noch keine Spieler angemeldet.",
     [("Spieler anmelden", "tournaments:register"), ("Gast anmelden", "tournaments:guest_register")]),
    ("pairings", "tournaments:pairings", _tournament, OFFICIAL, True, "Noch keine Runde ausgelost.",
     [("Runde 1 auslosen", "tournaments:pair")]),
    ("overview", "tournaments:detail", _tournament, OFFICIAL, True, "Noch keine Spieler angemeldet.",
     [("Spieler anmelden", "tournaments:register")]),
    ("withdrawals and byes", "tournaments:players_manage", _tournament, OFFICIAL, False,
     "Noch keine Spieler angemeldet.", [("Spieler anmelden", "tournaments:register")]),
    ("check-in", "tournaments:check_in", _tournament, OFFICIAL, False, "Noch keine Spieler angemeldet.",
     [("Spieler anmelden", "tournaments:register")]),
    ("results of a round", "tournaments:results", _round, OFFICIAL, False, "Noch keine Paarungen.",
     [("Runde auslosen", "tournaments:pair")]),
    ("team standings", "tournaments:team_standings", _team_tournament, OFFICIAL, True,
     "Noch keine Mannschaften.", [("Mannschaften verwalten", "tournaments:teams_manage")]),
    ("registrations", "tournaments:entries", _tournament, OFFICIAL, False,
     "Keine Anmeldung wartet auf eine Entscheidung.", [("Spieler anmelden", "tournaments:register")]),
    ("pools", "ratings:pool_list", None, OFFICER, True, "Es gibt noch keine Wertungspools.",
     [("Wertungspool anlegen", "ratings:pool_create")]),
    ("officer", "ratings:officer", None, OFFICER, False, "Es gibt noch keine Wertungspools.",
     [("Wertungspool anlegen", "ratings:pool_create")]),
    ("jobs of a pool", "ratings:officer", _pool, OFFICER, False,
     "Noch kein Hintergrundauftrag dieses Pools; Neuberechnen, Schließen und Wiedereröffnen laufen als "
     "Hintergrundaufträge.", []),
    ("national lists", "national_list:index", None, OFFICER, False,
     "Es wurde noch keine nationale Liste importiert.",
     [("Nationale Liste importieren", "#national-upload")]),
    ("FIDE lists", "federation:fide_import", None, OFFICER, False,
     "Es wurde noch keine FIDE-Liste importiert.", [("FIDE-Elo-Liste importieren", "#fide-upload")]),
    ("FIDE lookup", "federation:fide_lookup", None, OFFICER, False,
     "Es wurde noch keine FIDE-Liste importiert.",
     [("FIDE-Elo-Liste importieren", "federation:fide_import")]),
    ("seasons", "leagues:seasons", None, OFFICIAL, True, "Noch keine Ligasaisonen.",
     [("Ligasaison anlegen", "leagues:season_new", "league-season-new-link")]),
    ("divisions", "leagues:setup", "season", OFFICIAL, False, "Noch keine Staffeln.",
     [("Staffel anlegen", "#division-form")]),
    ("roster", "leagues:roster", "season", OFFICIAL, False, "Noch keine Spieler auf der Rangliste.",
     [("Spieler melden", "#roster-form")]),
]


def _empty_lists(html: str) -> list[str]:
    return re.findall(r'<p class="empty-list[^"]*" data-empty-list>(.*?)</p>', html, re.S)


def _url(name, kwargs):
    if name.startswith("#"):
        return name
    needs = {"tournaments:register", "tournaments:guest_register", "tournaments:pair",
             "tournaments:teams_manage"}
    return reverse(name, kwargs={"pk": kwargs["pk"]} if name in needs and kwargs else None)


def _page(case, official):
    _name, url_name, build, *_rest = case
    kwargs = {} if build is None else _season(official) if build == "season" else build()
    kwargs = kwargs or {}
    if url_name == "leagues:setup":
        kwargs.pop("club_pk")
    return kwargs, reverse(url_name, kwargs=kwargs or None)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_an_empty_list_says_so_and_links_the_next_step(case, client, official, officer):
    name, _url_name, _build, who, _visitor, sentence, links = case
    kwargs, url = _page(case, official)
    client.force_login(official if who == OFFICIAL else officer)
    speak(client, "de-at")

    response = client.get(url)

    assert response.status_code == 200, name
    [shown] = _empty_lists(response.content.decode())
    expected = sentence + "".join(
        (" " if i == 0 else " · ")
        + f'<a class="{" ".join(["empty-list-step", *own])}" href="{_url(target, kwargs)}">{label}</a>'
        for i, (label, target, *own) in enumerate(links))
    assert shown == expected


@pytest.mark.parametrize("case", [c for c in CASES if c[4]], ids=[c[0] for c in CASES if c[4]])
def test_a_visitor_reads_the_sentence_without_the_link(case, client, official):
    name, *_rest, sentence, _links = case
    _kwargs, url = _page(case, official)
    speak(client, "de-at")

    response = client.get(url)

    assert response.status_code == 200, name
    assert _empty_lists(response.content.decode()) == [sentence]


def test_an_official_who_is_no_rating_officer_reads_the_pools_sentence_only(client, official):
    client.force_login(official)
    speak(client, "de-at")

    assert _empty_lists(client.get(reverse("ratings:pool_list")).content.decode()) == [
        "Es gibt noch keine Wertungspools."]


def test_english_says_it_too(client, official):
    client.force_login(official)
    speak(client, "en")

    [shown] = _empty_lists(client.get(reverse("clubs:member_list")).content.decode())

    assert shown == (f'No members yet. <a class="empty-list-step" href="{reverse("clubs:member_add")}">'
                     f'Add a member</a> · <a class="empty-list-step" '
                     f'href="{reverse("interchange:members_import")}">'
                     "Import a CSV file</a>")
