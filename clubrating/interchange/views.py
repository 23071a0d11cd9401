"""Exchanging files in the browser: TRF download, TRF tournament, PGN and member CSV imports.

Imports are previewed with ``clubrating.core.preview.dry_run``: the very service that confirming
runs, in a transaction that is rolled back. The uploaded text waits in the session between
preview and confirmation, so the file is sent only once.
"""

from __future__ import annotations

import re
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clubrating.core.errors import Refused
from clubrating.core.permissions import (
    is_official,
    official_required,
    public_tournaments_required,
    rating_officer_required,
)
from clubrating.core.preview import dry_run
from clubrating.tournaments.models import Tournament
from ratings.models import RatingPool
from ratings.services import RatingsError, tournament_ratings_update

from .errors import ImportRefused
from .forms import MembersImportForm, PgnImportForm, TrfImportForm
from .jobs import members_import_start, members_preview_start
from .members_import import members_import_csv
from .pgn_import import games_import_pgn
from .trf_export import tournament_export_trf
from .trf_import import tournament_import_trf

PGN_SESSION_KEY = "interchange_pgn"
MEMBERS_SESSION_KEY = "interchange_members"
TRF_SESSION_KEY = "interchange_trf"


def official_or_staff_required(view):
    """As ``official_required``, but staff (who keep the member register) may too."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        user = request.user
        if not (is_official(user) or (user.is_authenticated and user.is_active and user.is_staff)):
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def trf_filename(name: str) -> str:
    """The tournament name, without characters that file systems refuse, plus ".trf"."""
    cleaned = " ".join(re.sub(r'[\\/:*?"<>|\x00-\x1f]', " ", name).split())
    return f"{cleaned or 'tournament'}.trf"


@public_tournaments_required
@require_GET
def tournament_trf(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    text = tournament_export_trf(tournament=tournament)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, trf_filename(tournament.name))
    return response


def _pgn_run(text: str, tournament: Tournament | str | None, user) -> dict:
    return games_import_pgn(text=text, tournament=tournament, user=user).plain()


@official_required
@require_http_methods(["GET", "POST"])
def pgn_import(request):
    if request.method == "POST" and request.POST.get("confirm"):
        pending = request.session.get(PGN_SESSION_KEY)
        if not pending:
            messages.error(request, _("Nothing to import: upload the file again."))
            return redirect("interchange:pgn_import")
        tournament = pending["tournament_name"] or None
        if pending["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=pending["tournament"]).first()
            if tournament is None:
                del request.session[PGN_SESSION_KEY]
                messages.error(request, _("The chosen tournament no longer exists; upload the file again."))
                return redirect("interchange:pgn_import")
        try:
            report = _pgn_run(pending["text"], tournament, request.user)
        except ImportRefused as error:
            del request.session[PGN_SESSION_KEY]  # the data changed since the preview: start again
            messages.error(request, str(error))
            return redirect("interchange:pgn_import")
        del request.session[PGN_SESSION_KEY]
        return render(request, "interchange/pgn_report.html", {"report": report, "done": True})
    preselected = request.GET.get("tournament", "")
    initial = {"tournament": preselected} if preselected.isdigit() else {}
    form = PgnImportForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        name, text = form.cleaned_data["file"]
        tournament = form.target()
        try:
            report = dry_run(lambda: _pgn_run(text, tournament, request.user))
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            request.session[PGN_SESSION_KEY] = {
                "name": name, "text": text,
                "tournament": tournament.pk if isinstance(tournament, Tournament) else None,
                "tournament_name": tournament if isinstance(tournament, str) else "",
            }
            return render(request, "interchange/pgn_report.html",
                          {"report": report, "done": False, "file_name": name})
    return render(request, "interchange/pgn_import.html", {"form": form})


def _large(text: str) -> bool:
    """A member file this long is previewed and imported in the background."""
    return sum(1 for line in text.splitlines() if line.strip()) > settings.BACKGROUND_IMPORT_ROWS


def _members_run(text: str) -> dict:
    return members_import_csv(text=text).plain()


@official_or_staff_required
@require_http_methods(["GET", "POST"])
def members_import(request):
    if request.method == "POST" and request.POST.get("confirm"):
        pending = request.session.get(MEMBERS_SESSION_KEY)
        if not pending:
            messages.error(request, _("Nothing to import: upload the file again."))
            return redirect("interchange:members_import")
        if _large(pending["text"]):
            try:
                job = members_import_start(text=pending["text"], name=pending["name"], user=request.user)
            except Refused as error:
                messages.error(request, str(error))
                return redirect("interchange:members_import")
            del request.session[MEMBERS_SESSION_KEY]
            return redirect("jobs:detail", job.pk)
        try:
            report = _members_run(pending["text"])
        except ImportRefused as error:
            del request.session[MEMBERS_SESSION_KEY]  # the data changed since the preview: start again
            messages.error(request, str(error))
            return redirect("interchange:members_import")
        del request.session[MEMBERS_SESSION_KEY]
        return render(request, "interchange/members_report.html", {"report": report, "done": True})
    form = MembersImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name, text = form.cleaned_data["file"]
        if _large(text):
            try:
                job = members_preview_start(text=text, name=name, user=request.user)
            except Refused as error:
                form.add_error("file", str(error))
                return render(request, "interchange/members_import.html", {"form": form})
            request.session[MEMBERS_SESSION_KEY] = {"name": name, "text": text}
            return redirect("jobs:detail", job.pk)
        try:
            report = dry_run(lambda: _members_run(text))
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            request.session[MEMBERS_SESSION_KEY] = {"name": name, "text": text}
            return render(request, "interchange/members_report.html",
                          {"report": report, "done": False, "file_name": name})
    return render(request, "interchange/members_import.html", {"form": form})


def _trf_run(pool: RatingPool, text: str, user) -> dict:
    """Import the tournament and rate it in ``pool``: one transaction, so that a refusal by the
    ratings (a closed period) undoes the import as well."""
    with transaction.atomic():
        report = tournament_import_trf(text=text, category=pool.category, user=user)
        tournament_ratings_update(tournament=report.tournament, pool=pool)
    return report.plain()


@rating_officer_required
@require_http_methods(["GET", "POST"])
def trf_import(request, pk):
    """A tournament from a TRF file, rated in the pool ``pk``."""
    pool = get_object_or_404(RatingPool, pk=pk)
    context = {"pool": pool, "user_is_rating_officer": True}
    if request.method == "POST" and request.POST.get("confirm"):
        pending = request.session.get(TRF_SESSION_KEY)
        if not pending or pending["pool"] != pool.pk:
            messages.error(request, _("Nothing to import: upload the file again."))
            return redirect("interchange:trf_import", pool.pk)
        try:
            report = _trf_run(pool, pending["text"], request.user)
        except (RatingsError, ImportRefused) as error:
            messages.error(request, str(error))
            return redirect("interchange:trf_import", pool.pk)
        del request.session[TRF_SESSION_KEY]
        messages.success(request, report["summary"])
        return render(request, "interchange/trf_report.html", {**context, "report": report, "done": True})
    form = TrfImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name, text = form.cleaned_data["file"]
        try:
            report = dry_run(lambda: _trf_run(pool, text, request.user))
        except (RatingsError, ImportRefused) as error:
            form.add_error("file", str(error))
        else:
            request.session[TRF_SESSION_KEY] = {"pool": pool.pk, "name": name, "text": text}
            return render(request, "interchange/trf_report.html",
                          {**context, "report": report, "done": False, "file_name": name})
    return render(request, "interchange/trf_import.html", {**context, "form": form})
