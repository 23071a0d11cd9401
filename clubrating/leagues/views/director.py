"""The league director's home page and a club's roster for the season."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubrating.clubs.models import Club, Member
from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.forms import LateRegistrationForm, RosterMoveForm
from clubrating.leagues.models import LeagueSeason, LeagueTeam, Roster, RosterChange, RosterEntry
from clubrating.leagues.selectors import director_queue, is_captain, is_league_director, league_match_score
from clubrating.leagues.views.setup import _refusal_to_form
from clubrating.tournaments.models import TeamMatch


@login_required
def director_home(request, pk):
    """The league director's page: disputes, missing and unconfirmed results of the season."""
    season = get_object_or_404(LeagueSeason, pk=pk)
    if not is_league_director(request.user, season):
        raise PermissionDenied
    queue = director_queue(season=season, now=timezone.now())
    for match in (*queue.disputed, *queue.missing, *queue.unconfirmed):
        match.score = league_match_score(match)
        match.late = match.entered_late(season)
    rosters = Roster.objects.filter(season=season).select_related("club").order_by("club__name")
    rounds: dict[int, list[int]] = {}
    for division_id, number in (
        TeamMatch.objects.filter(round__tournament__division__season=season)
        .values_list("round__tournament__division", "round__number")
        .distinct()
        .order_by("round__number")
    ):
        rounds.setdefault(division_id, []).append(number)
    divisions = [(division, rounds.get(division.pk, [])) for division in season.divisions.all()]
    return render(
        request,
        "leagues/director.html",
        {"season": season, "queue": queue, "divisions": divisions, "rosters": rosters},
    )


@login_required
@require_http_methods(["GET", "POST"])
def roster(request, pk, club_pk):
    """A club's roster for the season with its changes; the club's captains read it, the league
    director also registers players late."""
    season = get_object_or_404(LeagueSeason, pk=pk)
    club = get_object_or_404(Club, pk=club_pk)
    teams = LeagueTeam.objects.filter(season=season, club=club).select_related("team").order_by("number")
    director = is_league_director(request.user, season)
    if not director and not any(is_captain(request.user, team) for team in teams):
        raise PermissionDenied
    entries = (
        RosterEntry.objects.filter(roster__season=season, roster__club=club)
        .select_related("member", "team__team")
        .order_by("rank")
    )
    form = move_form = None
    if director:
        members = (
            Member.objects.filter(club=club, active=True)
            .exclude(roster_entries__roster__season=season)
            .order_by("last_name", "first_name")
        )
        moving = request.method == "POST" and "move-member" in request.POST
        form = LateRegistrationForm(
            None if moving else request.POST or None,
            members=members,
            teams=teams,
            initial={"on": timezone.localdate()},
        )
        move_form = RosterMoveForm(
            request.POST if moving else None,
            members=Member.objects.filter(
                roster_entries__roster__season=season, roster_entries__roster__club=club
            ).order_by("last_name", "first_name"),
            teams=teams,
            initial={"on": timezone.localdate()},
        )
        if moving and move_form.is_valid():
            try:
                entry = services.roster_move(
                    season=season,
                    club=club,
                    member=move_form.cleaned_data["member"],
                    team=move_form.cleaned_data["team"],
                    on=move_form.cleaned_data["on"],
                    user=request.user,
                    reason=move_form.cleaned_data["reason"],
                )
            except Refused as refusal:
                _refusal_to_form(move_form, refusal)
            else:
                messages.success(
                    request,
                    _("%(player)s plays for %(team)s from %(day)s, on rank %(rank)d.")
                    % {
                        "player": entry.member.full_name,
                        "team": entry.team,
                        "day": date_format(move_form.cleaned_data["on"], "SHORT_DATE_FORMAT"),
                        "rank": entry.rank,
                    },
                )
                return redirect("leagues:roster", pk=pk, club_pk=club_pk)
        elif request.method == "POST" and not moving and form.is_valid():
            try:
                entry = services.roster_add(
                    season=season,
                    club=club,
                    member=form.cleaned_data["member"],
                    team=form.cleaned_data["team"],
                    on=form.cleaned_data["on"],
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except Refused as refusal:
                form.add_error(None, refusal.message)
            else:
                messages.success(
                    request,
                    _("%(player)s is registered on rank %(rank)d.")
                    % {"player": entry.member.full_name, "rank": entry.rank},
                )
                return redirect("leagues:roster", pk=pk, club_pk=club_pk)
    elif request.method == "POST":
        raise PermissionDenied
    changes = RosterChange.objects.filter(roster__season=season, roster__club=club).select_related(
        "member", "old_team__team", "new_team__team", "recorded_by__member"
    )
    return render(
        request,
        "leagues/roster.html",
        {
            "season": season,
            "club": club,
            "entries": entries,
            "changes": changes,
            "form": form,
            "move_form": move_form,
        },
        status=400
        if (form is not None and form.errors) or (move_form is not None and move_form.errors)
        else 200,
    )
