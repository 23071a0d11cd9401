"""Exchanging files in the browser: TRF download, TRF tournament, PGN and member CSV imports.

Imports go through ``clubrating.core.preview.upload_preview_confirm``: the preview is the very
service that confirming runs, in a transaction that is rolled back; the uploaded text waits in
the session between preview and confirmation, so the file is sent only once.
"""

from __future__ import annotations

import datetime
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from clubrating.accounts.permissions import (
    audience_for,
    birth_years_public,
    is_official_or_staff,
    official_required,
    public_tournaments_required,
    rating_officer_required,
)
from clubrating.clubs.privacy import Audience, row_audience, visible_fields
from clubrating.core.downloads import attachment, download_name
from clubrating.core.errors import Refused
from clubrating.core.preview import Background, upload_preview_confirm
from clubrating.leagues.selectors import hidden_games
from clubrating.tournaments.models import Tournament
from ratings.jobs import trf_job_start, trf_run
from ratings.models import RatingPool

from .forms import MembersImportForm, PgnImportForm, TrfCheckForm, TrfImportForm
from .jobs import members_job_start, pgn_job_start, pgn_run
from .members_import import members_import_csv
from .trf_check import trf_check_start
from .trf_export import tournament_export_trf

PGN_SESSION_KEY = "interchange_pgn"
MEMBERS_SESSION_KEY = "interchange_members"
TRF_SESSION_KEY = "interchange_trf"


def official_or_staff_required(view):
    """As ``official_required``, but staff (who keep the member register) may too."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        user = request.user
        if not is_official_or_staff(user):
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def trf_shown(user):
    """Which of a player's fields a TRF download for ``user`` holds (``tournament_export_trf``'s
    ``shown``): visitors and members get the file without what the privacy rules keep from them
    (full birth dates, sex; a restricted profile's all but the name); officials the whole file."""
    audience = audience_for(user)
    if audience >= Audience.OFFICIAL:
        return None
    years_public, user_id, today = birth_years_public(), user.pk, datetime.date.today()

    def shown(member):
        return visible_fields(member, birth_years_public=years_public, today=today,
                              audience=row_audience(member, audience=audience, user_id=user_id))
    return shown


@public_tournaments_required
@require_GET
def tournament_trf(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    text = tournament_export_trf(
        tournament=tournament,
        shown=trf_shown(request.user),
        hidden_games=hidden_games(tournament_id=tournament.pk, now=timezone.now()),
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = attachment(download_name(tournament.name, extension="trf"))
    return response


def _pgn_run(pending: dict, user) -> dict:
    return pgn_run(text=pending["text"], tournament_pk=pending["tournament"],
                   tournament_name=pending["tournament_name"], user=user)


def _big(pending: dict) -> bool:
    """A PGN or TRF file this large is previewed and imported in the background: reading and
    saving it takes longer than a web request may."""
    return len(pending["text"].encode()) > settings.BACKGROUND_IMPORT_BYTES


def _pgn_job(preview: bool):
    return lambda pending, user: pgn_job_start(
        text=pending["text"], name=pending["name"], tournament=pending["tournament"],
        tournament_name=pending["tournament_name"], preview=preview, user=user)


PGN_BACKGROUND = Background(wanted=_big, preview=_pgn_job(True), run=_pgn_job(False))


def _pgn_pending(form: PgnImportForm) -> dict:
    name, text = form.cleaned_data["file"]
    tournament = form.target()
    return {
        "name": name, "text": text,
        "tournament": tournament.pk if isinstance(tournament, Tournament) else None,
        "tournament_name": tournament if isinstance(tournament, str) else "",
    }


def _upload_pending(form) -> dict:
    name, text = form.cleaned_data["file"]
    return {"name": name, "text": text}


@official_required
@require_http_methods(["GET", "POST"])
def pgn_import(request):
    preselected = request.GET.get("tournament", "")
    initial = {"tournament": preselected} if preselected.isdigit() else {}
    return upload_preview_confirm(
        request, form=PgnImportForm(request.POST or None, request.FILES or None, initial=initial),
        session_key=PGN_SESSION_KEY, pending=_pgn_pending,
        run=lambda pending: _pgn_run(pending, request.user),
        form_template="interchange/pgn_import.html", report_template="interchange/pgn_report.html",
        restart_url=reverse("interchange:pgn_import"), background=PGN_BACKGROUND,
    )


def _large(pending: dict) -> bool:
    """A member file this long is previewed and imported in the background."""
    rows = sum(1 for line in pending["text"].splitlines() if line.strip())
    return rows > settings.BACKGROUND_IMPORT_ROWS


MEMBERS_BACKGROUND = Background(
    wanted=_large,
    preview=lambda pending, user: members_job_start(**pending, preview=True, user=user),
    run=lambda pending, user: members_job_start(**pending, preview=False, user=user),
)


@official_or_staff_required
@require_http_methods(["GET", "POST"])
def members_import(request):
    return upload_preview_confirm(
        request, form=MembersImportForm(request.POST or None, request.FILES or None),
        session_key=MEMBERS_SESSION_KEY, pending=_upload_pending,
        run=lambda pending: members_import_csv(text=pending["text"]).plain(),
        form_template="interchange/members_import.html", report_template="interchange/members_report.html",
        restart_url=reverse("interchange:members_import"), background=MEMBERS_BACKGROUND,
    )


def _trf_background(pool: RatingPool) -> Background:
    def start(preview: bool):
        return lambda pending, user: trf_job_start(text=pending["text"], name=pending["name"], pool=pool.pk,
                                                   preview=preview, user=user)
    return Background(wanted=_big, preview=start(True), run=start(False))


@rating_officer_required
@require_http_methods(["GET", "POST"])
def trf_import(request, pk):
    """A tournament from a TRF file, rated in the pool ``pk``."""
    pool = get_object_or_404(RatingPool, pk=pk)
    return upload_preview_confirm(
        request, form=TrfImportForm(request.POST or None, request.FILES or None),
        session_key=f"{TRF_SESSION_KEY}:{pool.pk}", pending=_upload_pending,
        run=lambda pending: trf_run(pool_pk=pool.pk, text=pending["text"], user=request.user),
        form_template="interchange/trf_import.html", report_template="interchange/trf_report.html",
        restart_url=reverse("interchange:trf_import", args=[pool.pk]),
        context={"pool": pool, "user_is_rating_officer": True}, announce=True,
        background=_trf_background(pool),
    )


@official_required
@require_http_methods(["GET", "POST"])
def trf_check(request):
    """Upload a TRF file and check its pairings round by round (a background job; its page shows
    the progress and then the report). A file that cannot be read is refused here; no job is stored."""
    form = TrfCheckForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name, text = form.cleaned_data["file"]
        try:
            job = trf_check_start(text=text, name=name, rules=form.cleaned_data["rules"], user=request.user)
        except Refused as refusal:
            form.add_error("file", str(refusal))
        else:
            return redirect("jobs:detail", job.pk)
    return render(request, "interchange/trf_check.html", {"form": form})
