"""The league director's pages beyond the queue: a round's matches with their state, and moving a
match (day, start, venue, reason). Opening, correcting and deciding a match is its match page."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.forms import IneligibleForm, MatchMoveForm
from clubrating.leagues.models import Division, LeagueMatch
from clubrating.leagues.selectors import is_league_director, league_match_score, league_matches, season_of


@login_required
def director_round(request, pk, number):
    """All matches of a division's round for its director: teams, start and venue, lineups
    submitted, score and state; each opens its match page (correct, decide) or its move page."""
    division = get_object_or_404(Division.objects.select_related("season", "tournament"), pk=pk)
    if not is_league_director(request.user, division.season):
        raise PermissionDenied
    numbers = list(
        division.tournament.rounds.filter(team_matches__isnull=False)
        .distinct()
        .order_by("number")
        .values_list("number", flat=True)
    )
    if number not in numbers:
        raise Http404
    matches = list(
        league_matches()
        .filter(match__round__tournament=division.tournament_id, match__round__number=number)
        .order_by("starts_at", "match__number")
    )
    now = timezone.now()
    rows = [
        {
            "match": match,
            "score": league_match_score(match),
            "deadline_passed": now >= match.lineup_deadline(division.season),
            "late": match.entered_late(division.season),
            "overdue": match.status == "open"
            and match.result_due(division.season) is not None
            and now > match.result_due(division.season),
        }
        for match in matches
    ]
    return render(
        request,
        "leagues/director_round.html",
        {"season": division.season, "division": division, "number": number, "numbers": numbers, "rows": rows},
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_move(request, pk):
    """The director moves a match that has no result yet: a new day and start, a venue, why."""
    try:
        match = league_matches().get(pk=pk)
    except LeagueMatch.DoesNotExist as missing:
        raise Http404 from missing
    season = season_of(match)
    if not is_league_director(request.user, season):
        raise PermissionDenied
    start = timezone.localtime(match.starts_at)
    form = MatchMoveForm(
        request.POST or None,
        initial={"date": start.date(), "time": start.time().replace(second=0), "venue": match.venue},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        starts_at = timezone.make_aware(datetime.datetime.combine(data["date"], data["time"]))
        try:
            services.match_reschedule(
                match=match,
                starts_at=starts_at,
                venue=data["venue"],
                reason=data["reason"],
                user=request.user,
            )
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("The match is moved."))
            return redirect("leagues:match", pk=pk)
    return render(
        request,
        "leagues/match_move.html",
        {"match": match, "season": season, "division": match.match.round.tournament.division, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def match_ineligible(request, pk):
    """The director records an ineligible player: his board (and by the season's rule those
    below) is lost, less the season's deduction; the match is decided."""
    try:
        match = league_matches().get(pk=pk)
    except LeagueMatch.DoesNotExist as missing:
        raise Http404 from missing
    if not is_league_director(request.user, season_of(match)):
        raise PermissionDenied
    form = IneligibleForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("leagues:match", pk=pk)
    try:
        services.match_ineligible(
            match=match,
            side=form.cleaned_data["side"],
            board=form.cleaned_data["board"],
            reason=form.cleaned_data["reason"],
            user=request.user,
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The match is decided."))
    return redirect("leagues:match", pk=pk)
