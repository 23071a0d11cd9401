"""FIDE's list for the officials: the rating officer's upload (preview, then import, both as
background jobs), the lookup of a player by FIDE ID or name, adding him as a member or guest."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.accounts.permissions import rating_officer_required, register_keepers_required
from clubrating.clubs.search import search_text
from clubrating.clubs.selectors import home_club
from clubrating.core.errors import Refused

from . import selectors, services
from .forms import FideAddForm, FideListForm
from .jobs import fide_job_start
from .models import FideFollow, FideList, FidePlayer

SESSION_KEY = "federation_fide_list"


@rating_officer_required
@require_http_methods(["GET", "POST"])
def fide_import(request):
    """Upload -> preview (a job); the preview's page has the button that posts ``confirm``."""
    if request.method == "POST" and request.POST.get("confirm"):
        pending = request.session.get(SESSION_KEY)
        if not pending or pending.get("token") != request.POST.get("token"):
            messages.error(request, _nothing())
            return redirect("federation:fide_import")
        try:
            job = fide_job_start(**pending, preview=False, user=request.user)
        except Refused as refusal:
            messages.error(request, str(refusal))
            return redirect("federation:fide_import")
        del request.session[SESSION_KEY]
        return redirect("jobs:detail", job.pk)
    form = FideListForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        token = services.fide_upload_store(chunks=upload.chunks())
        pending = {"token": token, "name": form.file_name(), "month": form.cleaned_data["month"]}
        try:
            job = fide_job_start(**pending, preview=True, user=request.user)
        except Refused as refusal:
            services.fide_upload_delete(token)
            form.add_error(None, str(refusal))
        else:
            request.session[SESSION_KEY] = pending
            return redirect("jobs:detail", job.pk)
    return render(request, "federation/fide_import.html", {"form": form, "lists": selectors.fide_lists()})


def _nothing() -> str:
    return _("Nothing to import: upload the file again.")


@register_keepers_required
def fide_lookup(request):
    query = search_text(request.GET.get("q", ""))
    players = selectors.fide_player_search(query=query)
    members = selectors.members_by_fide_id([p.fide_id for p in players])
    return render(request, "federation/fide_lookup.html", {
        "query": query, "rows": [(player, members.get(player.fide_id)) for player in players],
        "limit": selectors.SEARCH_LIMIT, "latest": selectors.fide_lists().first(),
    })


@register_keepers_required
def fide_player(request, fide_id):
    player = FidePlayer.objects.filter(fide_id=fide_id).first()
    history = list(selectors.fide_history(fide_id=fide_id))
    if player is None and not history:
        raise Http404
    member = selectors.members_by_fide_id([fide_id]).get(fide_id)
    home = home_club()
    return render(request, "federation/fide_player.html", {
        "player": player or history[0], "history": history, "member": member,
        "form": FideAddForm(initial={"club": home.pk if home else None}),
        "followed": FideFollow.objects.filter(fide_id=fide_id).exists(),
        "in_directory": player is not None,
    })


@register_keepers_required
@require_POST
def fide_player_add(request, fide_id):
    form = FideAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("federation:fide_player", fide_id)
    try:
        member = services.member_add_from_fide(fide_id=fide_id, club=form.cleaned_data["club"],
                                               user=request.user)
    except Refused as refusal:
        messages.error(request, str(refusal))
        return redirect("federation:fide_player", fide_id)
    return redirect(member.get_absolute_url())


@register_keepers_required
@require_POST
def fide_player_follow(request, fide_id):
    if not FidePlayer.objects.filter(fide_id=fide_id).exists():
        raise Http404
    services.fide_follow(fide_id=fide_id, user=request.user)
    return redirect("federation:fide_player", fide_id)


@register_keepers_required
def fide_list_detail(request, year, month):
    """A past month's list as the site kept it (members and followed players)."""
    try:
        first = datetime.date(year, month, 1)
    except (ValueError, OverflowError):  # no such month, or a year beyond any date
        raise Http404 from None
    fide_list = get_object_or_404(FideList, month=first)
    rows = selectors.fide_list_rows(fide_list=fide_list)
    return render(request, "federation/fide_list.html", {"fide_list": fide_list, "rows": rows})
