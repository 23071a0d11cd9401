"""Rating officer pages: pools and periods, close and publish, reopen, starting-list imports
(pool-wide operations: ``ratings.views.pools``; a tournament's TRF file: the exchange pages).

The imports' previews run the very service that will run on confirmation, inside a transaction
that is rolled back (``clubrating.core.preview``). The close page's preview reads the members'
live values instead (``ratings.close_preview``): closing publishes exactly those, and reading
them locks nothing, where a rolled-back close would hold the pool's lock while the officer looks.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.db.models import Max, Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from clubrating.accounts.permissions import rating_officer_required
from clubrating.core.errors import Refused
from clubrating.core.preview import upload_preview_confirm
from clubrating.jobs.models import Job
from ratings.close_preview import close_preview_rows
from ratings.forms import CloseForm, ImportForm, ReopenForm
from ratings.jobs import period_close_start, period_reopen_start, pool_key, pool_recalculate_start
from ratings.lists.http import PER_PAGE
from ratings.lists.table import RatingListTable
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
from ratings.selectors import period_close_preview, pools_waiting_games
from ratings.services.errors import RatingsError
from ratings.services.imports import ratings_import_list
from ratings.services.period_checks import period_close_check, period_reopen_refusal
from ratings.services.periods import period_close, period_reopen

SESSION_KEY = "ratings_import"


@rating_officer_required
def officer_home(request):
    today = timezone.localdate()
    early_lists = PublishedList.objects.exclude(early_reason="").select_related("published_by").order_by("pk")
    periods = RatingPeriod.objects.select_related("closed_by").prefetch_related(
        Prefetch("reopenings", queryset=PeriodReopening.objects.select_related("reopened_by")),
        Prefetch("lists", queryset=early_lists, to_attr="early_lists"),
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
    waiting = pools_waiting_games()
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
        pool.waiting = waiting.get(pool.pk)
        later_closed = False  # the periods come latest first
        for period in pool.periods.all():
            period.current_list = current.get(period.pk)
            # The decisions the services take, from the data read above.
            period.close_check = period_close_check(period, today=today)
            plist = period.current_list
            period.reopenable = not period_reopen_refusal(
                period, later_closed=later_closed,
                later_list=plist is not None and plist.pk != latest_list.get(pool.pk),
            )
            later_closed = later_closed or period.state == PeriodState.CLOSED
    return render(request, "ratings/officer/home.html", {"pools": pools, "user_is_rating_officer": True})


@rating_officer_required
@require_http_methods(["GET", "POST"])
def period_close_view(request, pk):
    """The close page: the list closing publishes (read from the live values, without locking
    anything: officials keep saving results while the officer looks), what stays unfinished,
    and, before the period's last day, what closing early does, with the choice and its reason."""
    period = get_object_or_404(RatingPeriod.objects.select_related("pool"), pk=pk)
    pool = period.pool
    today = timezone.localdate()
    check = period_close_check(period, today=today)
    if not check.allowed:
        messages.error(request, check.refusal)
        return redirect("ratings:officer")
    form = CloseForm(request.POST if request.method == "POST" else None, early=check.early)
    if request.method == "POST" and form.is_valid():
        early, reason = bool(form.cleaned_data.get("early")), form.cleaned_data.get("reason") or ""
        try:
            if background(pool):
                job = period_close_start(period=period, user=request.user, early=early, reason=reason)
                return redirect("jobs:detail", job.pk)
            plist = period_close(pool=pool, user=request.user, early=early, reason=reason)
        except Refused as error:
            messages.error(request, str(error))
            return redirect("ratings:officer")
        messages.success(request, _("The period is closed and the new list is published."))
        return redirect("ratings:list", plist.pk)
    try:
        rows = close_preview_rows(period=period)
    except RatingsError as error:
        messages.error(request, str(error))
        return redirect("ratings:officer")
    # The officer checks the list page by page, as it will be published: a 20,000-row table in
    # one page would take seconds to draw and megabytes to send. Read, paged and counted in SQL
    # (``close_preview_rows``), unless closing evaluates the period anew.
    in_sql = not isinstance(rows, list)
    table = RatingListTable(rows, live_pool=pool if in_sql else None, orderable=False)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "ratings/officer/close.html", {
        "period": period, "pool": pool, "table": table, "rows": table.paginator.count,
        "user_is_rating_officer": True,
        "form": form, "early": check.early, "today": today, "next_day": today + datetime.timedelta(days=1),
        "unfinished": period_close_preview(period=period, end=today if check.early else None,
                                           pending_limit=PER_PAGE),
        "waiting": pools_waiting_games(pool_ids=[pool.pk]).get(pool.pk),
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
