"""A browser that kept a published list asks again before showing it (``ratings.lists.http``): its
conditional requests, replayed across a reopening and a closing again, are answered with the
withdrawn list, never with 304 for the list as it stood. Every face: page, CSV, XLSX, print, PDF
and the API."""

import datetime
import io
import json

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_http_date

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Result
from ratings.models import PublishedList
from ratings.services import game_record_result, period_close, period_reopen

pytestmark = pytest.mark.django_db


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared

REOPENED = "Zurückgezogen: Die Periode wurde wieder geöffnet; diese Liste ist nicht gültig."
REPLACED = ("Zurückgezogen: ersetzt durch die Liste, die beim erneuten Abschließen der Periode "
            "veröffentlicht wurde; diese Liste ist nicht gültig.")


def faces(plist):
    page = reverse("ratings:list", args=[plist.pk])
    return {
        "page": (page, {}),
        "csv": (page, {"_export": "csv"}),
        "xlsx": (page, {"_export": "xlsx"}),
        "print": (reverse("ratings:list_print", args=[plist.pk]), {}),
        "pdf": (reverse("ratings:list_pdf", args=[plist.pk]), {}),
        "api": (f"/api/v1/lists/{plist.pk}", {}),
    }


def text(face: str, response) -> str:
    """What the visitor reads of this face (the PDF's text is tested where the PDF is drawn)."""
    if face in ("print", "csv"):
        return b"".join(response.streaming_content).decode("utf-8-sig")
    if face == "xlsx":
        sheet = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
        return "\n".join(str(cell) for row in sheet.iter_rows(values_only=True) for cell in row if cell)
    if face == "api":
        return "withdrawn" if json.loads(response.content)["withdrawn"] else "valid"
    return response.content.decode() if face != "pdf" else ""


def visit(client, plist):
    """The first visit: every face with its validators, as a browser keeps them."""
    kept = {}
    for face, (url, params) in faces(plist).items():
        response = client.get(url, params)
        assert response.status_code == 200, face
        # Kept, but never shown again without asking.
        assert response["Cache-Control"] == "private, no-cache", face
        kept[face] = {"If-None-Match": response["ETag"], "If-Modified-Since": response["Last-Modified"]}
    return kept


def replay(client, plist, kept, *, only=None):
    """The browser's conditional requests with the validators it kept (both, as Chromium sends
    them, or ``only`` one of them, as other clients do)."""
    answers = {}
    for face, (url, params) in faces(plist).items():
        headers = kept[face] if only is None else {only: kept[face][only]}
        answers[face] = client.get(url, params, headers=headers)
    return answers


@pytest.fixture
def published_an_hour_ago(rated_club):
    """The list as a visitor saw it an hour before the officer reopened its period (validators
    count whole seconds: the moments are apart as they are on a site)."""
    plist = rated_club["list"]
    earlier = timezone.now() - datetime.timedelta(hours=1)
    PublishedList.objects.filter(pk=plist.pk).update(published_at=earlier)
    Member.objects.update(changed_at=earlier)
    Club.objects.update(changed_at=earlier)
    plist.refresh_from_db()
    return plist


def test_an_unchanged_list_is_answered_with_304_on_every_face(client, published_an_hour_ago):
    kept = visit(client, published_an_hour_ago)
    for only in (None, "If-None-Match", "If-Modified-Since"):
        answers = replay(client, published_an_hour_ago, kept, only=only)
        assert {face: r.status_code for face, r in answers.items()} == dict.fromkeys(kept, 304), only


def test_no_conditional_request_gets_304_for_a_list_withdrawn_since(client, rated_club, published_an_hour_ago,
                                                                    period_ended):
    plist = published_an_hour_ago
    kept = visit(client, plist)
    assert REOPENED not in text("page", client.get(faces(plist)["page"][0]))

    period_reopen(period=plist.period, reason="Korrektur einer Partie")
    for only in (None, "If-None-Match", "If-Modified-Since"):
        answers = replay(client, plist, kept, only=only)
        assert {face: r.status_code for face, r in answers.items()} == dict.fromkeys(kept, 200), only
        assert REOPENED in text("page", answers["page"])
        assert REOPENED in text("csv", answers["csv"]) and REOPENED in text("xlsx", answers["xlsx"])
        assert "ZURÜCKGEZOGEN" in text("print", answers["print"])
        assert "_zurueckgezogen.pdf" in answers["pdf"]["Content-Disposition"]
        assert text("api", answers["api"]) == "withdrawn"
        for face, response in answers.items():
            assert response["ETag"] != kept[face]["If-None-Match"], face
            assert (parse_http_date(response["Last-Modified"])
                    > parse_http_date(kept[face]["If-Modified-Since"])), face

    # The withdrawn list's own validators hold until it changes again: closing the period again
    # replaces it, and the browser that kept the withdrawn list is told that too.
    withdrawn = visit(client, plist)
    assert {f: r.status_code for f, r in replay(client, plist, withdrawn).items()} == dict.fromkeys(kept, 304)
    plist.period.reopenings.update(reopened_at=timezone.now() - datetime.timedelta(minutes=30))
    withdrawn = visit(client, plist)
    game_record_result(game=rated_club["spring"].rounds.get().games.get(), result=Result.WHITE_WINS)
    new = period_close(pool=rated_club["pool"])
    assert new.pk != plist.pk
    for only in (None, "If-None-Match", "If-Modified-Since"):
        answers = replay(client, plist, withdrawn, only=only)
        assert {face: r.status_code for face, r in answers.items()} == dict.fromkeys(kept, 200), only
        assert REPLACED in text("page", answers["page"]) and REPLACED in text("csv", answers["csv"])
        assert text("api", answers["api"]) == "withdrawn"


def test_a_list_standing_again_after_closing_without_corrections_is_not_answered_with_304(
        client, rated_club, published_an_hour_ago, period_ended):
    """Closing again with nothing corrected lets the withdrawn list stand again, published anew:
    a browser that kept it withdrawn is answered with the valid list."""
    plist = published_an_hour_ago
    period_reopen(period=plist.period, reason="Korrektur einer Partie")
    plist.period.reopenings.update(reopened_at=timezone.now() - datetime.timedelta(minutes=30))
    withdrawn = visit(client, plist)

    assert period_close(pool=rated_club["pool"]).pk == plist.pk

    for only in (None, "If-None-Match", "If-Modified-Since"):
        answers = replay(client, plist, withdrawn, only=only)
        assert {face: r.status_code for face, r in answers.items()} == dict.fromkeys(withdrawn, 200), only
        assert REOPENED not in text("page", answers["page"]) and REPLACED not in text("page", answers["page"])
        assert text("api", answers["api"]) == "valid"


def test_an_edited_member_name_is_a_change_of_the_list_for_if_modified_since(client, rated_club,
                                                                              published_an_hour_ago):
    """The rows show the members' current names: a rename shows to a client that only asks by date."""
    kept = visit(client, published_an_hour_ago)
    bernd = rated_club["bernd"]
    bernd.last_name = "Huber-Lang"
    bernd.save()
    answers = replay(client, published_an_hour_ago, kept, only="If-Modified-Since")
    assert answers["page"].status_code == 200 and "Huber-Lang" in text("page", answers["page"])
