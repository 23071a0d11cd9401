"""Rating officer pages: pools and periods, close and publish, reopen, starting-list imports
(pool-wide operations: ``ratings.views.pools``; a tournament's TRF file: the exchange pages).

Previews run the very service that will run on confirmation, inside a transaction that is
rolled back (``clubrating.core.preview``): what the preview shows is exactly what confirming
publishes.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db.models import Max, Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.accounts.permissions import rating_officer_required
from clubrating.core.errors import Refused
from clubrating.core.preview import dry_run, upload_preview_confirm
from clubrating.jobs.models import Job
from ratings.forms import ImportForm, ReopenForm
from ratings.jobs import period_close_start, period_reopen_start, pool_key, pool_recalculate_start
from ratings.models import (
    FideTakeover,
    ListKind,
    PeriodReopening,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
)
from ratings.rule_names import rules_name
from ratings.rules.presets import get_rules
from ratings.selectors import period_close_preview, published_rows
from ratings.services.errors import RatingsError
from ratings.services.imports import ratings_import_list
from ratings.services.periods import period_close, period_reopen
from ratings.tables import RatingListTable

SESSION_KEY = "ratings_import"


@rating_officer_required
def officer_home(request):
    periods = RatingPeriod.objects.select_related("closed_by").prefetch_related(
        Prefetch("reopenings", queryset=PeriodReopening.objects.select_related("reopened_by"))
    ).order_by("-start")
    # The pool-wide operations (2024 transformation, FIDE take-overs) with who and when.
    audited = (
        PublishedList.objects.filter(kind__in=[ListKind.TRANSFORMATION, ListKind.FIDE_TAKEOVER])
        .select_related("published_by")
        .prefetch_related(Prefetch("fide_takeovers", queryset=FideTakeover.objects.select_related("member")))
        .order_by("pk")
    )
    pools = RatingPool.objects.prefetch_related(
        Prefetch("periods", queryset=periods), Prefetch("lists", queryset=audited, to_attr="audited_lists")
    ).order_by("name")
    current = {
        p.period_id: p for p in PublishedList.objects.filter(superseded=False, period__isnull=False)
    }
    pools = list(pools)
    latest_list = dict(
        PublishedList.objects.values("pool").annotate(latest=Max("pk")).values_list("pool", "latest")
    )
    jobs: dict[str, list[Job]] = {}
    recent = Job.objects.filter(key__in=[pool_key(p) for p in pools]).select_related("started_by")
    for job in recent.defer("output").order_by("-created_at", "-pk")[: 5 * len(pools)]:
        jobs.setdefault(job.key, []).append(job)
    for pool in pools:
        pool.rules_name = rules_name(pool.rules)
        pool.transformed = any(p.kind == ListKind.TRANSFORMATION for p in pool.audited_lists)
        rules = get_rules(pool.rules)
        pool.may_transform = rules.transformation_2024 and not pool.transformed
        pool.takes_fide = rules.fide_takeover
        pool.jobs = jobs.get(pool_key(pool), [])[:3]
        latest_closed = next((p for p in pool.periods.all() if p.state == PeriodState.CLOSED), None)
        for period in pool.periods.all():
            period.current_list = current.get(period.pk)
            # As ``period_reopen`` allows: the latest closed period, while its list is the
            # pool's latest (not while a later period is reopened, its list withdrawn).
            period.reopenable = period is latest_closed and (
                period.current_list is None or period.current_list.pk == latest_list.get(pool.pk)
            )
    return render(request, "ratings/officer/home.html", {"pools": pools, "user_is_rating_officer": True})


@rating_officer_required
@require_http_methods(["GET", "POST"])
def period_close_view(request, pk):
    period = get_object_or_404(RatingPeriod.objects.select_related("pool"), pk=pk)
    pool = period.pool
    if period.state != PeriodState.OPEN:
        messages.error(request, _("This period is already closed."))
        return redirect("ratings:officer")
    if request.method == "POST":
        try:
            if background(pool):
                return redirect("jobs:detail", period_close_start(period=period, user=request.user).pk)
            plist = period_close(pool=pool, user=request.user)
        except Refused as error:
            messages.error(request, str(error))
            return redirect("ratings:officer")
        messages.success(request, _("The period is closed and the new list is published."))
        return redirect("ratings:list", plist.pk)
    try:
        rows = dry_run(
            lambda: list(published_rows(period_close(pool=pool, user=request.user)).order_by("rank")))
    except RatingsError as error:
        messages.error(request, str(error))
        return redirect("ratings:officer")
    table = RatingListTable(rows, orderable=False)
    return render(request, "ratings/officer/close.html", {
        "period": period, "pool": pool, "table": table, "rows": len(rows), "user_is_rating_officer": True,
        "unfinished": period_close_preview(period=period),
    })


@rating_officer_required
@require_http_methods(["GET", "POST"])
def period_reopen_view(request, pk):
    period = get_object_or_404(RatingPeriod.objects.select_related("pool"), pk=pk)
    form = ReopenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        reason = form.cleaned_data["reason"]
        try:
            if background(period.pool):
                job = period_reopen_start(period=period, reason=reason, user=request.user)
                return redirect("jobs:detail", job.pk)
            period_reopen(period=period, reason=reason, user=request.user)
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("The period is open again; closing it republishes its list."))
            return redirect("ratings:officer")
    return render(request, "ratings/officer/reopen.html", {
        "period": period, "form": form, "user_is_rating_officer": True,
    })


def background(pool: RatingPool) -> bool:
    """Large pools close and reopen in the background; small ones at once."""
    return PoolMember.objects.filter(pool=pool).count() > settings.BACKGROUND_POOL_MEMBERS


@rating_officer_required
@require_POST
def pool_recalculate_view(request, pk):
    """Rebuild every rating record of the pool, always in the background."""
    pool = get_object_or_404(RatingPool, pk=pk)
    try:
        job = pool_recalculate_start(pool=pool, user=request.user)
    except Refused as error:
        messages.error(request, str(error))
        return redirect("ratings:officer")
    return redirect("jobs:detail", job.pk)


def _run_import(pool: RatingPool, pending: dict, user) -> dict:
    return ratings_import_list(pool=pool, text=pending["text"], file_format=pending["kind"],
                               note=pending["name"], user=user).plain()


def _import_pending(form: ImportForm) -> dict:
    name, text = form.cleaned_data["file"]
    return {"kind": form.cleaned_data["kind"], "name": name, "text": text}


@rating_officer_required
@require_http_methods(["GET", "POST"])
def pool_import(request, pk):
    pool = get_object_or_404(RatingPool, pk=pk)
    return upload_preview_confirm(
        request, form=ImportForm(request.POST or None, request.FILES or None),
        session_key=f"{SESSION_KEY}:{pool.pk}", pending=_import_pending,
        run=lambda pending: _run_import(pool, pending, request.user),
        form_template="ratings/officer/import.html", report_template="ratings/officer/import_report.html",
        restart_url=reverse("ratings:import", args=[pool.pk]),
        context={"pool": pool, "user_is_rating_officer": True}, announce=True,
    )
