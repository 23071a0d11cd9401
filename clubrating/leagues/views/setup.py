"""Setting up a season: a new season, its divisions and teams, a division's schedule."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubrating.accounts.permissions import official_required
from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.forms import (
    CaptainForm,
    DivisionForm,
    ScheduleForm,
    SeasonForm,
    SeasonRulesForm,
    TeamRegistrationForm,
)
from clubrating.leagues.models import Captain, Division, LeagueSeason, LeagueTeam
from clubrating.leagues.selectors import is_league_director
from clubrating.tournaments.models import TeamMatch
from clubrating.tournaments.pairing.berger import rounds_count


def _refusal_to_form(form, refusal: Refused) -> None:
    """Show a service's refusal at its field where the form has one, else above the form."""
    field = refusal.field if refusal.field in form.fields else None
    if refusal.field == "match_points":
        field = "match_points_win"
    elif refusal.field == "standings_criteria":
        field = "criterion_1"
    form.add_error(field, refusal.message)


@official_required
@require_http_methods(["GET", "POST"])
def season_new(request):
    """An official creates a league season with its rules; he directs it."""
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(
                name=form.cleaned_data["name"],
                organizer_club=form.cleaned_data["organizer_club"],
                directors=[request.user],
                **form.rules(),
            )
        except Refused as refusal:
            _refusal_to_form(form, refusal)
        else:
            messages.success(request, _("The season %(season)s is created.") % {"season": season})
            return redirect("leagues:setup", pk=season.pk)
    return render(request, "leagues/season_new.html", {"form": form}, status=400 if form.errors else 200)


def _directed_season(request, pk) -> LeagueSeason:
    season = get_object_or_404(LeagueSeason, pk=pk)
    if not is_league_director(request.user, season):
        raise PermissionDenied
    return season


@login_required
@require_http_methods(["GET", "POST"])
def season_setup(request, pk):
    """The season's setup for its director: its rules (until the first match is played), its
    divisions, their teams and the teams' captains. Each form posts its own ``step``."""
    season = _directed_season(request, pk)
    divisions = season.divisions.select_related("tournament").order_by("level", "name")
    teams = (
        LeagueTeam.objects.filter(season=season)
        .select_related("team", "division")
        .order_by("division__level", "division__name", "team__name")
    )
    played = services.season_played(season)
    step = request.POST.get("step") if request.method == "POST" else None
    forms_ = {
        "rules": SeasonRulesForm(
            request.POST if step == "rules" else None, initial=SeasonRulesForm.initial_of(season)
        ),
        "division": DivisionForm(request.POST if step == "division" else None),
        "team": TeamRegistrationForm(
            request.POST if step == "team" else None,
            divisions=divisions,
            initial={"division": divisions[0]} if len(divisions) == 1 else None,
        ),
        "captain": CaptainForm(request.POST if step == "captain" else None, teams=teams),
    }
    if request.method == "POST":
        form = forms_.get(step)
        if form is None:
            return HttpResponseBadRequest()
        if form.is_valid():
            data = form.cleaned_data
            try:
                if step == "rules":
                    services.season_rules_update(season=season, user=request.user, **form.rules())
                    done = _("The season's rules are saved.")
                elif step == "division":
                    division = services.division_create(
                        season=season,
                        name=data["name"],
                        boards=data["boards"],
                        level=data["level"],
                        double_round_robin=data["double_round_robin"],
                    )
                    done = _("The division %(division)s is added.") % {"division": division.name}
                elif step == "team":
                    team = services.team_register(
                        division=data["division"], club=data["club"], number=data["number"], name=data["name"]
                    )
                    done = _("%(team)s is registered.") % {"team": team}
                else:
                    services.captain_add(team=data["team"], user=form.user)
                    done = _("%(user)s captains %(team)s.") % {
                        "user": form.user.get_username(),
                        "team": data["team"],
                    }
            except Refused as refusal:
                _refusal_to_form(form, refusal)
            else:
                messages.success(request, done)
                return redirect("leagues:setup", pk=season.pk)
    captains = {}
    for captain in Captain.objects.filter(team__season=season).select_related("user__member"):
        captains.setdefault(captain.team_id, []).append(captain.user)
    scheduled = set(
        TeamMatch.objects.filter(round__tournament__division__season=season).values_list(
            "round__tournament__division", flat=True
        )
    )
    rows = [
        {
            "division": division,
            "scheduled": division.pk in scheduled,
            "teams": [(team, captains.get(team.pk, [])) for team in teams if team.division_id == division.pk],
        }
        for division in divisions
    ]
    return render(
        request,
        "leagues/setup.html",
        {"season": season, "played": played, "forms": forms_, "rows": rows, "step": step},
        status=400 if step and forms_[step].errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def division_schedule(request, pk):
    """The division's round robin by the Berger tables: the dates previewed, then created."""
    division = get_object_or_404(Division.objects.select_related("season", "tournament"), pk=pk)
    season = _directed_season(request, division.season_id)
    team_count = division.teams.count()
    rounds = rounds_count(team_count, double=division.double_round_robin) if team_count >= 2 else 0
    scheduled = TeamMatch.objects.filter(round__tournament=division.tournament).exists()
    form = ScheduleForm(
        request.POST or None, initial={"start_time": season.match_start_time, "first_date": season.start_date}
    )
    preview = None
    if request.method == "POST" and form.is_valid():
        dates = form.dates(rounds)
        try:
            services.schedule_check(division=division, dates=dates)
            if request.POST.get("action") == "create":
                matches = services.schedule_create(
                    division=division, dates=dates, start_time=form.cleaned_data["start_time"]
                )
                messages.success(
                    request,
                    _("The schedule is made: %(rounds)d rounds, %(matches)d matches.")
                    % {"rounds": rounds, "matches": len(matches)},
                )
                return redirect("leagues:setup", pk=season.pk)
            preview = dates
        except Refused as refusal:
            _refusal_to_form(form, refusal)
    return render(
        request,
        "leagues/schedule_new.html",
        {
            "season": season,
            "division": division,
            "form": form,
            "rounds": rounds,
            "team_count": team_count,
            "scheduled": scheduled,
            "preview": preview,
            "per_round": team_count // 2,
        },
        status=400 if form.errors else 200,
    )
