"""The captain's pages: his phone page and a team's lineup for a match."""

from __future__ import annotations

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
from clubrating.leagues.eligibility import unavailable
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.forms import LineupForm
from clubrating.leagues.models import LeagueMatch, LeagueSeason, LeagueTeam, MatchStatus, RosterEntry
from clubrating.leagues.public.views import ratings_on
from clubrating.leagues.selectors import (
    captained_teams,
    is_captain,
    league_match_score,
    league_matches,
    season_of,
)
from clubrating.leagues.views.matches import _match, _refused, _roles
from ratings.selectors import tournament_rating_pool


@login_required
def captain_home(request):
    """The captain's start page: his teams, each with its matches of the season."""
    teams = list(captained_teams(request.user))
    now = timezone.now()
    matches = {}
    for match in (
        league_matches()
        .filter(
            match__round__tournament__division__teams__in=teams,
        )
        .distinct()
        .order_by("starts_at", "match__number")
    ):
        match.score = league_match_score(match)
        season = match.match.round.tournament.division.season
        match.late = match.entered_late(season)
        due = match.result_due(season)
        # The reminder: a started home match without its result, to be entered by then.
        home_captain = any(t.team_id == match.match.home_team_id for t in teams)
        waiting = home_captain and match.status == MatchStatus.OPEN and match.starts_at <= now
        match.due = due if waiting else None
        for team in teams:
            if team.team_id in (match.match.home_team_id, match.match.away_team_id):
                matches.setdefault(team.pk, []).append(match)
    rows = []
    for team in teams:
        own = matches.get(team.pk, [])
        upcoming = next((m for m in own if m.status == MatchStatus.OPEN and m.starts_at >= now), None)
        next_match = None
        if upcoming is not None:
            home = upcoming.match.home_team_id == team.team_id
            deadline = upcoming.lineup_deadline(team.division.season)
            next_match = {
                "match": upcoming,
                "deadline": deadline,
                "submitted": upcoming.home_lineup_at if home else upcoming.away_lineup_at,
                "open": now < deadline,
                "opponent": upcoming.match.away_team if home else upcoming.match.home_team,
            }
        waiting = [
            m for m in own if m.status == MatchStatus.ENTERED and m.match.away_team_id == team.team_id
        ]
        rows.append({"team": team, "matches": own, "next": next_match, "waiting": waiting})
    seasons = LeagueSeason.objects.filter(directors=request.user) if request.user.is_authenticated else []
    return render(
        request,
        "leagues/captain_home.html",
        {"teams": rows, "seasons": seasons, "now": now},
    )


def lineup_ratings(match: LeagueMatch, member_ids: list[int]) -> dict[int, int]:
    """{member: national rating on the match day} from the list in force then of the pool that
    rates the division (as the match cards' forecast reads them); unrated members left out."""
    pool = tournament_rating_pool(match.match.round.tournament)
    if pool is None or not member_ids:
        return {}
    day = timezone.localdate(match.starts_at)
    return ratings_on(pool, {day: set(member_ids)})[day]


def _lineup_form(request, match: LeagueMatch, team: LeagueTeam, division) -> tuple[LineupForm, dict]:
    """The lineup form of ``team`` for ``match`` (its roster with the match day's ratings and who
    cannot play) and those ratings."""
    roster = list(
        RosterEntry.objects.filter(roster__season=team.season, roster__club=team.club)
        .select_related("member", "team")
        .order_by("rank")
    )
    current = {e.board: e.member_id for e in match.match.lineup.all() if e.team_id == team.team_id}
    ratings = lineup_ratings(match, [entry.member_id for entry in roster])
    form = LineupForm(
        request.POST or None,
        boards=division.boards,
        roster=roster,
        initial_members=current,
        ratings=ratings,
        reasons=unavailable(match=match, team=team, entries=roster),
    )
    return form, ratings


def _lineup_team(request, match: LeagueMatch, team_pk: int, roles: dict) -> LeagueTeam:
    team = get_object_or_404(LeagueTeam.objects.select_related("team", "club", "season"), pk=team_pk)
    if team not in (roles["home"], roles["away"]):  # a team of another match or division
        raise Http404
    if not (roles["director"] or is_captain(request.user, team)):
        raise PermissionDenied
    return team


@login_required
@require_POST
def lineup_check(request, pk, team_pk):
    """The lineup page's check while the captain chooses (htmx): what the submission would be
    refused for or warned about, by the same service checks, nothing saved."""
    match = _match(pk)
    team = _lineup_team(request, match, team_pk, _roles(request.user, match))
    division = match.match.round.tournament.division
    form, ratings = _lineup_form(request, match, team, division)
    problems, gaps = [], []
    if form.is_valid():
        gaps = form.gaps()
        try:
            problems = services.lineup_check(
                match=match, team=team, members=form.lineup(), user=request.user, ratings=ratings
            )
        except Refused as refusal:
            problems = [refusal.message]
    else:
        problems = [error for errors in form.errors.values() for error in errors]
    return render(request, "leagues/_lineup_check.html", {"problems": problems, "gaps": gaps})


@login_required
@require_http_methods(["GET", "POST"])
def lineup_edit(request, pk, team_pk):
    match = _match(pk)
    roles = _roles(request.user, match)
    team = get_object_or_404(LeagueTeam.objects.select_related("team", "club", "season"), pk=team_pk)
    if team not in (roles["home"], roles["away"]):  # a team of another match or division
        return _refused(
            request, LeagueRefused(_("%(team)s does not play in this match.") % {"team": team}), pk
        )
    if not (roles["director"] or is_captain(request.user, team)):
        raise PermissionDenied
    division = match.match.round.tournament.division
    season = season_of(match)
    form, ratings = _lineup_form(request, match, team, division)
    problems, gaps = [], []
    if request.method == "POST" and form.is_valid():
        gaps = [] if form.cleaned_data["confirm_gaps"] else form.gaps()
    if request.method == "POST" and form.is_valid() and not gaps:
        try:
            services.lineup_submit(
                match=match, team=team, members=form.lineup(), user=request.user, ratings=ratings
            )
        except services.LineupRefused as refusal:
            problems = refusal.problems
        except Refused as refusal:
            problems = [refusal.message]
        else:
            messages.success(request, _("The lineup of %(team)s is submitted.") % {"team": team})
            return redirect("leagues:match", pk=pk)
    chosen = [
        ratings.get(int(value))
        for value in (form[f"board_{b}"].value() for b in range(1, division.boards + 1))
        if value and str(value).isdigit()
    ]
    rated = [rating for rating in chosen if rating is not None]
    deadline = match.lineup_deadline(season)
    return render(
        request,
        "leagues/lineup.html",
        {
            "match": match,
            "team": team,
            "form": form,
            "problems": problems,
            "gaps": gaps,
            "season": season,
            "deadline": deadline,
            "division": division,
            "average": round(sum(rated) / len(rated)) if rated else None,
            "rated_count": len(rated),
            "chosen_count": len(chosen),
            "late": not roles["director"] and timezone.now() >= deadline,
            "directors": season.directors.select_related("member").order_by("last_name", "username"),
        },
        status=400 if problems or form.errors or gaps else 200,
    )
