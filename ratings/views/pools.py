"""Rating officer pages on a whole pool: create it, the 2024 transformation, FIDE take-over.

Like ``ratings.views.officer``, a preview runs the very service that confirming runs, inside a
transaction that is rolled back.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from clubrating.accounts.permissions import rating_officer_required
from clubrating.core.preview import dry_run
from ratings.adapters import as_number
from ratings.forms import FideTakeoverForm, PoolCreateForm
from ratings.models import PublishedList, RatingPool
from ratings.rule_names import rules_name
from ratings.rules.presets import PRESETS
from ratings.services.calendar import period_bounds
from ratings.services.errors import RatingsError
from ratings.services.fide import fide_candidates, pool_take_over_fide
from ratings.services.pools import pool_create
from ratings.services.transform import pool_transform_2024


@dataclass
class ChangeRow:
    """One member of a previewed list: the old and the new value."""

    rank: int
    name: str
    old: int | float | None
    new: int | float
    change: int | float | None


def change_rows(plist: PublishedList) -> list[ChangeRow]:
    entries = plist.entries.select_related("member").order_by("rank")
    return [
        ChangeRow(
            e.rank, e.member.full_name, as_number(e.previous_rating), as_number(e.rating), as_number(e.change)
        )
        for e in entries
    ]


@rating_officer_required
@require_http_methods(["GET", "POST"])
def pool_create_view(request):
    form = PoolCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pool = pool_create(**form.cleaned_data)
        except RatingsError as error:
            form.add_error(None, str(error))
        else:
            period = pool.periods.get()
            messages.success(
                request,
                _("The pool “%(pool)s” is created; its first period runs %(start)s – %(end)s.")
                % {
                    "pool": pool.name,
                    "start": date_format(period.start, "SHORT_DATE_FORMAT"),
                    "end": date_format(period.end, "SHORT_DATE_FORMAT"),
                },
            )
            return redirect(f"{reverse('ratings:officer')}#pool-{pool.pk}")
    return render(request, "ratings/officer/pool_create.html", {
        "form": form, "user_is_rating_officer": True, "presets": presets_explained(),
    })


def presets_explained(year: int = 2027) -> list[dict]:
    """Each rule set in words for the officer choosing one: its name, the periods of a year (the
    calendar a pool of it follows), the floor and the games a newcomer needs for a first rating."""
    rows = []
    for code, rules in PRESETS.items():
        if rules.periods_per_year is None:
            calendar = _("one tournament per period")
        else:
            periods, day = [], datetime.date(year, 1, 1)
            while day.year == year:
                start, end = period_bounds(rules, day)
                first, last = (date_format(d, "SHORT_DATE_FORMAT") for d in (start, end))
                periods.append(f"{first}–{last}")
                day = end + datetime.timedelta(days=1)
            shown = periods if len(periods) <= 4 else [periods[0], "…", periods[-1]]  # monthly: long
            calendar = ngettext("%(count)d period a year, in %(year)d: %(periods)s",
                                "%(count)d periods a year, in %(year)d: %(periods)s", len(periods)) % {
                "count": len(periods), "year": year, "periods": ", ".join(shown)}
        rows.append({"code": code, "name": rules_name(code), "calendar": calendar, "floor": rules.floor,
                     "min_games": rules.min_games})
    return rows


@rating_officer_required
@require_http_methods(["GET", "POST"])
def pool_transform_view(request, pk):
    pool = get_object_or_404(RatingPool, pk=pk)
    if request.method == "POST":
        try:
            plist = pool_transform_2024(pool=pool, user=request.user)
        except RatingsError as error:
            messages.error(request, str(error))
            return redirect("ratings:officer")
        messages.success(request, _("The transformed list is published."))
        return redirect("ratings:list", plist.pk)
    try:
        rows = dry_run(lambda: change_rows(pool_transform_2024(pool=pool, user=request.user)))
    except RatingsError as error:
        messages.error(request, str(error))
        return redirect("ratings:officer")
    return render(
        request,
        "ratings/officer/transform.html",
        {
            "pool": pool,
            "rows": rows,
            "changed": sum(1 for r in rows if r.change),
            "user_is_rating_officer": True,
        },
    )


@dataclass
class TakeoverRow:
    name: str
    fide: int
    rating: int | float
    converted: bool


def _takeover_preview(
    pool: RatingPool, members: list[int], user
) -> tuple[list[TakeoverRow], list[ChangeRow]]:
    plist = pool_take_over_fide(pool=pool, members=members, user=user)
    taken = [
        TakeoverRow(t.member.full_name, t.fide_rating, as_number(t.rating), t.converted)
        for t in plist.fide_takeovers.select_related("member").order_by(
            "member__last_name", "member__first_name"
        )
    ]
    return taken, change_rows(plist)


@rating_officer_required
@require_http_methods(["GET", "POST"])
def pool_fide_view(request, pk):
    """GET: the preview for the chosen newcomers (``?member=…``; default all); POST: confirm."""
    pool = get_object_or_404(RatingPool, pk=pk)
    candidates = fide_candidates(pool)
    data = request.POST if request.method == "POST" else request.GET
    form = FideTakeoverForm(data if "member" in data else None, candidates=candidates)
    context = {"pool": pool, "form": form, "user_is_rating_officer": True}
    if not candidates:
        return render(request, "ratings/officer/fide.html", context)
    if form.is_bound and not form.is_valid():
        return render(request, "ratings/officer/fide.html", context)
    chosen = form.cleaned_data["member"] if form.is_bound else [m.pk for m in candidates]
    if request.method == "POST":
        try:
            plist = pool_take_over_fide(pool=pool, members=chosen, user=request.user)
        except RatingsError as error:
            messages.error(request, str(error))
            return redirect("ratings:fide", pool.pk)
        messages.success(
            request,
            ngettext(
                "%(count)d first rating taken over from FIDE is published.",
                "%(count)d first ratings taken over from FIDE are published.",
                len(chosen),
            )
            % {"count": len(chosen)},
        )
        return redirect("ratings:list", plist.pk)
    try:
        taken, rows = dry_run(lambda: _takeover_preview(pool, chosen, request.user))
    except RatingsError as error:
        form.add_error(None, str(error))
        return render(request, "ratings/officer/fide.html", context)
    return render(
        request,
        "ratings/officer/fide.html",
        {
            **context,
            "taken": taken,
            "rows": rows,
            "chosen": chosen,
            "converted": any(t.converted for t in taken),
        },
    )
