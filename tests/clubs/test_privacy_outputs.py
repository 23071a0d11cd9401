"""Every face of the site that names a member follows ``clubrating.clubs.privacy``: a restricted
profile's club is shown to no visitor on any page, print layout, PDF, CSV/XLSX export, API answer,
embed or hall screen, and to officials wherever the member is named.

Every restricted member of the demo (the minors without their guardians' consent, among them
Binder, Martin and Reiter, Felix) and a minor added as on a fresh install get a club of their own
with a name found nowhere else, so that the name's absence from an answer is the test."""

import datetime
import io
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader

from clubrating.clubs import privacy
from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Tournament, TournamentKind
from ratings.models import ListEntry, PublishedList, RatingPool
from tests.factories import MemberFactory, TournamentPlayerFactory

# The module renders every output of every restricted member (PDFs among them): about 20 s of CPU.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

FRESH_MINOR = ("Jung", "Lea")


@pytest.fixture(scope="module")
def hidden(demo_club, django_db_blocker):
    """{member id: his club's unique name} for every restricted member; restricted profiles' clubs
    renamed in published lists too."""
    with django_db_blocker.unblock():
        today = datetime.date.today()
        tournament = Tournament.objects.filter(kind=TournamentKind.SWISS).order_by("pk").first()
        minor = MemberFactory(last_name=FRESH_MINOR[0], first_name=FRESH_MINOR[1], birth_date=None,
                              birth_year=today.year - 11, guardian_consent_on=None)
        TournamentPlayerFactory(tournament=tournament, member=minor, rating=1400, start_rank=99)
        names = {}
        for member in Member.objects.all():
            if not privacy.profile_restricted(member, today=today):
                continue
            club = Club.objects.create(name=f"Verborgener Klub {member.pk:03d}",
                                       short_name=f"VK {member.pk:03d}")
            member.club = club
            member.save(update_fields=["club"])
            ListEntry.objects.filter(member=member).update(club=club)
            names[member.pk] = club.name
    assert {"Binder, Martin", "Reiter, Felix", "Jung, Lea"} <= {
        Member.objects.get(pk=pk).full_name for pk in names}
    return names


@pytest.fixture(scope="module")
def clients(hidden, django_db_blocker):
    """A function giving a fresh client per audience for each request (no cookie of an earlier
    answer carried over), the official's in the session of one login for the module (a login
    per request cost more than most of the requests)."""
    with django_db_blocker.unblock():
        login = Client()
        login.force_login(User.objects.get(username="official"))
    session = login.cookies[settings.SESSION_COOKIE_NAME].value

    def fresh():
        official = Client()
        official.cookies[settings.SESSION_COOKIE_NAME] = session
        return {"visitor": Client(), "official": official}

    return fresh


def _text(response) -> str:
    """What an answer shows, whatever its kind: a PDF's text, a workbook's cells, a page without
    its filter menus (they offer every club by name, not a member's)."""
    assert response.status_code == 200, response
    body = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.headers.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if "spreadsheet" in kind:
        book = load_workbook(io.BytesIO(body), read_only=True)
        return "\n".join(str(cell) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
                         for cell in row if cell is not None)
    text = body.decode()
    if kind.startswith("application/json"):
        return json.dumps(json.loads(text), ensure_ascii=False)
    return re.sub(r"<select.*?</select>", "", text, flags=re.S)


def _check(text: str, url: str, audience: str, named: dict[int, str]):
    """None of ``named`` clubs for a visitor; every one for an official."""
    for member_id, club in named.items():
        shown = club in text or club.replace("Verborgener Klub", "VK") in text
        if audience == "visitor":
            assert not shown, f"{url}: {club} (member {member_id}) shown to a visitor"
        else:
            assert shown, f"{url}: {club} (member {member_id}) not shown to an official"


def _tournaments(hidden):
    """(tournament, {member id: club} of its restricted players)."""
    for tournament in Tournament.objects.exclude(kind=TournamentKind.TEAM).order_by("pk"):
        players = set(tournament.players.values_list("member_id", flat=True))
        named = {pk: club for pk, club in hidden.items() if pk in players}
        if named:
            yield tournament, named


TOURNAMENT_OUTPUTS = {
    "standings": "/tournaments/{pk}/standings/",
    "live standings": "/tournaments/{pk}/standings/?fragment=1",
    "crosstable": "/tournaments/{pk}/crosstable/",
    "progress": "/tournaments/{pk}/progress/",
    "players": "/tournaments/{pk}/players/",
    "hall screen": "/tournaments/{pk}/hall/",
    "standings print": "/tournaments/{pk}/print/standings/",
    "crosstable print": "/tournaments/{pk}/print/crosstable/",
    "standings PDF": "/tournaments/{pk}/print/standings/?pdf=1",
    "crosstable PDF": "/tournaments/{pk}/print/crosstable/?pdf=1",
    "standings CSV": "/tournaments/{pk}/standings/export/csv/",
    "standings XLSX": "/tournaments/{pk}/standings/export/xlsx/",
    "TRF": "/exchange/tournaments/{pk}/trf/",
    "embed": "/embed/tournaments/{pk}/standings/",
    "API tournament": "/api/v1/tournaments/{pk}",
    "API standings": "/api/v1/tournaments/{pk}/standings",
    "API crosstable": "/api/v1/tournaments/{pk}/crosstable",
    "API embed": "/api/v1/tournaments/{pk}/standings.html",
}
# Outputs an official sees without the club (the progress table and a TRF name no clubs).
NO_CLUB_COLUMN = {"progress", "TRF", "API crosstable"}


@pytest.mark.parametrize("output", list(TOURNAMENT_OUTPUTS))
def test_tournament_outputs(hidden, clients, output):
    checked = 0
    for tournament, named in _tournaments(hidden):
        url = TOURNAMENT_OUTPUTS[output].format(pk=tournament.pk)
        for audience, client in clients().items():
            if audience == "official" and output in NO_CLUB_COLUMN:
                continue
            _check(_text(client.get(url)), url, audience, named)
        checked += len(named)
    assert checked >= 4  # Binder, Reiter, the fresh minor and more play in the demo's tournaments


def _lists():
    """The rating lists' addresses: every pool's live list and every published list, each
    filtered to one restricted member's name (a page shows 100 rows)."""
    for pool in RatingPool.objects.all():
        yield f"/ratings/pools/{pool.pk}/live/", f"/api/v1/pools/{pool.pk}/live"
    for published in PublishedList.objects.all():
        yield f"/ratings/lists/{published.pk}/", f"/api/v1/lists/{published.pk}"


LIST_FACES = {"page": "{page}?name={name}", "print": "{page}print/?name={name}",
              "PDF": "{page}pdf/?name={name}", "CSV": "{page}?name={name}&_export=csv",
              "XLSX": "{page}?name={name}&_export=xlsx", "API": "{api}?name={name}"}


@pytest.mark.parametrize("face", list(LIST_FACES))
def test_rating_list_outputs(hidden, clients, face):
    members = Member.objects.filter(pk__in=hidden)
    checked = 0
    for page, api in _lists():
        for member in members:
            url = LIST_FACES[face].format(page=page, api=api, name=member.last_name)
            for audience, client in clients().items():
                text = _text(client.get(url))
                if member.full_name not in text and f"{member.first_name} {member.last_name}" not in text:
                    continue  # not on this list (a live list shows the pool's rated players)
                _check(text, url, audience, {member.pk: hidden[member.pk]})
                checked += 1
    assert checked >= 4


def test_member_list_search_and_api(hidden, clients):
    for member in Member.objects.filter(pk__in=hidden):
        for url in (f"/members/?q={member.last_name}", f"/api/v1/members?q={member.last_name}",
                    f"/api/v1/members/{member.pk}", "/"):
            for audience, client in clients().items():
                response = client.get(url)
                if response.status_code in (403, 404) and audience == "visitor":
                    continue  # no member page (nor its API profile) for a restricted profile
                text = _text(response)
                if url == "/" or member.last_name not in text:
                    assert hidden[member.pk] not in text or audience == "official"
                    continue
                _check(text, url, audience, {member.pk: hidden[member.pk]})


def test_club_top_embed_names_no_restricted_member(hidden):
    """A club's top list tells a visitor who plays for the club: no restricted member there."""
    for member in Member.objects.filter(pk__in=hidden):
        response = Client().get(f"/embed/clubs/{member.club_id}/top/")
        assert member.full_name not in _text(response)


# --- leagues and other team competitions ----------------------------------------------------------
# A team is a club's: a restricted profile's name beside his team tells his club. So a visitor
# reads neither on any league output; an official (here also the season's director) reads both.


def _league_members(hidden):
    """(division, {member id: full name} of its restricted players on a team's roster)."""
    from clubrating.leagues.models import Division, RosterEntry

    for division in Division.objects.select_related("season").order_by("pk"):
        ids = set(RosterEntry.objects.filter(roster__season=division.season, team__division=division)
                  .values_list("member_id", flat=True))
        named = {member.pk: member.full_name for member in Member.objects.filter(pk__in=ids & set(hidden))}
        if named:
            yield division, named


def _league_urls(division, named):
    """Every output of a division: its public pages, prints, PDFs, exports, its tournament's faces
    (hall screen, embed, API, the pages of the restricted players' games) and, for the official,
    the director's and captains' pages."""
    from clubrating.leagues.models import LeagueMatch, LeagueTeam, Roster

    d, t = division.pk, division.tournament_id
    urls = {
        "table": f"/leagues/division/{d}/", "rounds": f"/leagues/division/{d}/rounds/",
        "players": f"/leagues/division/{d}/players/", "print": f"/leagues/division/{d}/print/",
        "print PDF": f"/leagues/division/{d}/print/?pdf=1", "CSV": f"/leagues/division/{d}/export.csv",
        "XLSX": f"/leagues/division/{d}/export.xlsx", "TRF": f"/leagues/division/{d}/trf/",
        "tournament standings": f"/tournaments/{t}/standings/", "hall screen": f"/tournaments/{t}/hall/",
        "tournament players": f"/tournaments/{t}/players/", "embed": f"/embed/tournaments/{t}/standings/",
        "API tournament": f"/api/v1/tournaments/{t}", "API standings": f"/api/v1/tournaments/{t}/standings",
        "API pairings": f"/api/v1/tournaments/{t}/pairings", "API teams": f"/api/v1/tournaments/{t}/teams",
        "API matches": f"/api/v1/tournaments/{t}/matches", "API round 1": f"/api/v1/tournaments/{t}/rounds/1",
        "API crosstable": f"/api/v1/tournaments/{t}/crosstable",
        "API embed": f"/api/v1/tournaments/{t}/standings.html",
    }
    for team in LeagueTeam.objects.filter(division=division):
        urls[f"team {team.pk}"] = f"/leagues/division/{d}/team/{team.pk}/"
    for match in LeagueMatch.objects.filter(match__round__tournament=t):
        urls[f"match {match.pk}"] = f"/leagues/results/{match.pk}/"
        urls[f"report {match.pk}"] = f"/leagues/results/{match.pk}/report/"
        urls[f"report PDF {match.pk}"] = f"/leagues/results/{match.pk}/report/?pdf=1"
        urls[f"officials' match {match.pk}"] = f"/leagues/match/{match.pk}/"
    from django.db.models import Q

    from clubrating.tournaments.models import Game

    for game in Game.objects.filter(Q(white__in=named) | Q(black__in=named), round__tournament=t):
        urls[f"game {game.pk}"] = game.get_absolute_url()
        # His opponent's own page lists the game (and why its rating waits) with the opponent's
        # opponent: the restricted player, beside the team his opponent played.
        for other in (game.white, game.black):
            if other is not None and other.pk not in named:
                urls[f"opponent page {other.pk}"] = other.get_absolute_url()
    for roster in Roster.objects.filter(season=division.season):
        urls[f"roster {roster.club_id}"] = f"/leagues/season/{division.season_id}/roster/{roster.club_id}/"
    return urls


# Pages only the season's directors and the teams' captains open: a visitor is sent to log in.
LEAGUE_WORKING_PAGES = ("officials' match", "roster")


# The demo's divisions with restricted players on a roster, each a test of its own (per audience
# too) so that parallel workers share them; the first test checks that these are all of them.
LEAGUE_DIVISIONS = ("Landesliga", "1. Klasse A")


def test_league_divisions_with_restricted_players(hidden):
    divisions = list(_league_members(hidden))
    assert [division.name for division, _named in divisions] == list(LEAGUE_DIVISIONS)
    assert sum(len(named) for _division, named in divisions) >= 4  # Binder, Reiter and more play


@pytest.mark.parametrize("audience", ["visitor", "official"])
@pytest.mark.parametrize("division_name", LEAGUE_DIVISIONS)
def test_league_outputs(hidden, clients, division_name, audience):
    """No visitor reads a restricted profile's name (nor his club) on any output of a league
    division; the official reads every one of them on the division's outputs together."""
    division, named = next((division, named) for division, named in _league_members(hidden)
                           if division.name == division_name)
    leaks, seen_by_official = [], set()
    for output, url in _league_urls(division, named).items():
        response = clients()[audience].get(url, follow=True)
        if audience == "visitor" and output.startswith(LEAGUE_WORKING_PAGES):
            assert b"login" in response.redirect_chain[-1][0].encode(), url
            continue
        if output.startswith("game") and response.status_code == 404:
            continue  # a board whose lineups are not public yet has no page
        text = _text(response)
        if output.startswith("opponent page"):
            # His opponent's page lists games of other tournaments too, where the
            # restricted player's name is a sporting record: only this division's rows count.
            text = "".join(row for row in text.split("<tr") if division.tournament.name in row)
        for member_id, name in named.items():
            if audience == "visitor" and (name in text or hidden[member_id] in text):
                leaks.append(re.sub(r"\d+", "N", output))
            elif name in text:
                seen_by_official.add(member_id)
    if audience == "official":
        assert seen_by_official == set(named), division
    assert sorted(set(leaks)) == []
