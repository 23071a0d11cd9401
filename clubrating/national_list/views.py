"""The rating officer's national list pages: upload, column mapping, preview, apply (a background
job); and handing a kept list to a new pool as its starting list.

The uploaded file waits in the session (as text: an XLSX workbook read as CSV) from the upload to
the apply. The preview is the import itself in a transaction that is rolled back
(``clubrating.core.preview.dry_run``), so that it shows exactly what applying saves.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.accounts.permissions import rating_officer_required
from clubrating.core.errors import Refused
from clubrating.core.preview import dry_run, upload_preview_confirm
from clubrating.interchange.formats.detect import CSV
from ratings.models import PublishedList, RatingPool
from ratings.services import ratings_import_list

from .forms import MappingForm, StartListForm, UploadForm
from .jobs import national_list_job_start
from .mapping import mapping_initial, mapping_remembered
from .models import NationalList
from .selectors import national_list_starting_csv, national_lists
from .services import national_file_table, national_file_text, national_list_import

SESSION_KEY = "national_list"
START_SESSION_KEY = "national_list_start"


def _context(**extra) -> dict:
    return {"user_is_rating_officer": True, **extra}


@rating_officer_required
@require_http_methods(["GET", "POST"])
def index(request):
    """The upload form and the lists kept."""
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name, raw = form.cleaned_data["file"]
        try:
            text = national_file_text(raw)
            national_file_table(text=text)
        except Refused as error:
            form.add_error("file", str(error))
        else:
            request.session[SESSION_KEY] = {
                "name": name, "text": text, "list_date": form.cleaned_data["list_date"].isoformat()}
            return redirect("national_list:mapping")
    return render(request, "national_list/index.html", _context(
        form=form, lists=national_lists(), remembered=mapping_remembered()))


def _pending(request) -> dict | None:
    pending = request.session.get(SESSION_KEY)
    if not pending:
        messages.error(request, _("Nothing to import: upload the file again."))
    return pending


@rating_officer_required
@require_http_methods(["GET", "POST"])
def mapping(request):
    """The columns (remembered, else guessed from the header), then the preview."""
    pending = _pending(request)
    if pending is None:
        return redirect("national_list:index")
    try:
        columns = national_file_table(text=pending["text"]).columns
    except Refused as error:
        messages.error(request, str(error))
        return redirect("national_list:index")
    # Back from the preview ("change the columns"): the columns just chosen.
    chosen = pending.get("columns") or {}
    initial = chosen if chosen and set(chosen.values()) <= set(columns) else mapping_initial(columns)
    form = MappingForm(request.POST or None, columns=columns, initial=initial)
    list_date = datetime.date.fromisoformat(pending["list_date"])
    if request.method == "POST" and form.is_valid():
        chosen = form.columns()
        try:
            report = dry_run(lambda: national_list_import(
                text=pending["text"], columns=chosen, list_date=list_date, file_name=pending["name"],
                user=request.user).plain())
        except Refused as error:
            form.add_error(None, str(error))
        else:
            request.session[SESSION_KEY] = {**pending, "columns": chosen}
            return render(request, "national_list/preview.html", _context(
                report={**report, "done": False}, file_name=pending["name"], list_date=list_date))
    return render(request, "national_list/mapping.html", _context(
        form=form, file_name=pending["name"], list_date=list_date, columns=columns))


@rating_officer_required
@require_POST
def apply(request):
    """Apply the previewed list: a background job, one transaction."""
    pending = _pending(request)
    if pending is None or "columns" not in pending:
        return redirect("national_list:index")
    try:
        job = national_list_job_start(
            text=pending["text"], name=pending["name"], columns=pending["columns"],
            list_date=datetime.date.fromisoformat(pending["list_date"]), user=request.user)
    except Refused as error:
        messages.error(request, str(error))
        return redirect("national_list:index")
    finally:
        del request.session[SESSION_KEY]
    return redirect("jobs:detail", job.pk)


def _start_pending(national_list: NationalList, form: StartListForm) -> dict:
    pool = form.cleaned_data["pool"]
    return {"pool": pool.pk, "list": national_list.pk, "name": _("National list of %(day)s") % {
        "day": national_list.list_date.isoformat()}}


def _start_run(pending: dict, user) -> dict:
    """The list as the pool's starting list, by the pool's own starting-list import."""
    pool = RatingPool.objects.filter(pk=pending["pool"]).first()
    national_list = NationalList.objects.filter(pk=pending["list"]).first()
    if pool is None or national_list is None:
        raise Refused(_("The pool or the national list no longer exists; start again."))
    with transaction.atomic():
        report = ratings_import_list(pool=pool, text=national_list_starting_csv(national_list=national_list),
                                     file_format=CSV, note=pending["name"], user=user)
    return {**report.plain(), "pool_name": pool.name}


@rating_officer_required
@require_http_methods(["GET", "POST"])
def start_list(request, pk):
    """Hand a kept list to a new pool as its starting list (an explicit act: preview, confirm)."""
    national_list = get_object_or_404(NationalList, pk=pk)
    pools = RatingPool.objects.exclude(pk__in=PublishedList.objects.values("pool")).order_by("name")
    form = StartListForm(request.POST or None, pools=pools)
    key = f"{START_SESSION_KEY}:{national_list.pk}"
    waiting = request.session.get(key) if request.POST.get("confirm") else None
    pool = (RatingPool.objects.filter(pk=waiting["pool"]).first() if waiting
            else form.cleaned_data["pool"] if request.method == "POST" and form.is_valid() else None)
    return upload_preview_confirm(
        request, form=form, session_key=key,
        pending=lambda form: _start_pending(national_list, form),
        run=lambda pending: _start_run(pending, request.user),
        form_template="national_list/start_list.html", report_template="national_list/start_report.html",
        restart_url=reverse("national_list:start_list", args=[national_list.pk]),
        context=_context(national_list=national_list, pool=pool), announce=True,
    )
