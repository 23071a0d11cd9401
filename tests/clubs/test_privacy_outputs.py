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
from django.contrib.auth.models import User
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader

from clubrating.clubs import privacy
from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Tournament, TournamentKind
from ratings.models import ListEntry, PublishedList, RatingPool
from tests.factories import MemberFactory, TournamentPlayerFactory

pytestmark = pytest.mark.django_db

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


def _clients():
    official = Client()
    official.force_login(User.objects.get(username="official"))
    return {"visitor": Client(), "official": official}


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
def test_tournament_outputs(hidden, output):
    checked = 0
    for tournament, named in _tournaments(hidden):
        url = TOURNAMENT_OUTPUTS[output].format(pk=tournament.pk)
        for audience, client in _clients().items():
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
def test_rating_list_outputs(hidden, face):
    members = Member.objects.filter(pk__in=hidden)
    checked = 0
    for page, api in _lists():
        for member in members:
            url = LIST_FACES[face].format(page=page, api=api, name=member.last_name)
            for audience, client in _clients().items():
                text = _text(client.get(url))
                if member.full_name not in text and f"{member.first_name} {member.last_name}" not in text:
                    continue  # not on this list (a live list shows the pool's rated players)
                _check(text, url, audience, {member.pk: hidden[member.pk]})
                checked += 1
    assert checked >= 4


def test_member_list_search_and_api(hidden):
    for member in Member.objects.filter(pk__in=hidden):
        for url in (f"/members/?q={member.last_name}", f"/api/v1/members?q={member.last_name}",
                    f"/api/v1/members/{member.pk}", "/"):
            for audience, client in _clients().items():
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
