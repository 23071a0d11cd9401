"""Team competitions: the public team standings and matches, and the director's pages for
teams, team membership, pairing the team rounds (Berger, ``services.round_pair``) and lineups.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from clubrating.accounts.permissions import official_required, public_tournaments_required
from clubrating.core.errors import Refused

from .. import selectors, services
from ..forms_teams import LineupForm, TeamForm, TeamPlayersForm
from ..models import Team, TeamMatch, Tournament, TournamentKind
from ._league import league_division, not_a_league_division
from ._texts import Texts
from .public import tournament_context

# The team tie-breaks' names (FIDE C.07), for the column headings' tooltips and the legend.
TEAM_TIEBREAK_NAMES = {
    "GP": _lazy("game points"),
    "EMMSB": _lazy("extended Sonneborn-Berger: opponent's match points × match points"),
    "EMGSB": _lazy("extended Sonneborn-Berger: opponent's match points × game points"),
    "EGMSB": _lazy("extended Sonneborn-Berger: opponent's game points × match points"),
    "EGGSB": _lazy("extended Sonneborn-Berger: opponent's game points × game points"),
    "DE": _lazy("direct encounter"),
    "WIN": _lazy("matches won"),
}


def _team_tournament(pk) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.kind != TournamentKind.TEAM:
        raise Http404(_("This is not a team competition."))
    return tournament


@public_tournaments_required
def team_standings(request, pk):
    tournament = _team_tournament(pk)
    division = league_division(tournament.pk)
    if division is not None:  # the league's table: the season's rules and criteria
        return redirect("leagues:division", pk=division.pk)
    rows = selectors.team_standings(tournament=tournament)
    codes = selectors.team_tiebreak_codes(tournament=tournament)
    texts = Texts()
    lines = [(row, texts.tiebreaks(row.tiebreaks, codes)) for row in rows]
    teams = tournament.teams.select_related("club").prefetch_related("players__member") \
        .order_by("start_rank", "name")
    return render(request, "tournaments/teams/standings.html", tournament_context(
        request, tournament, "team_standings", rows=rows, lines=lines, teams=teams,
        columns=[(code, TEAM_TIEBREAK_NAMES[code]) for code in codes]))


@public_tournaments_required
def team_matches(request, pk):
    tournament = _team_tournament(pk)
    division = league_division(tournament.pk)
    if division is not None:  # the league's rounds: lineups shown once their deadline passed
        return redirect("leagues:division_rounds", pk=division.pk)
    return render(request, "tournaments/teams/matches.html", tournament_context(
        request, tournament, "team_matches", rounds=selectors.team_match_rounds(tournament=tournament)))


def _manage_page(request, tournament, *, team_form=None, players_form=None, status=200):
    return render(request, "tournaments/teams/manage.html", tournament_context(
        request, tournament, "teams_manage",
        team_form=team_form or TeamForm(tournament=tournament),
        players_form=players_form or TeamPlayersForm(tournament=tournament),
        teams=tournament.teams.select_related("club").order_by("start_rank", "name"),
        next_number=selectors.last_paired_round_number(tournament=tournament) + 1,
        rounds=selectors.team_match_rounds(tournament=tournament),
        unpairable=selectors.unpairable_round(tournament=tournament),
    ), status=status)


@official_required
@not_a_league_division
def teams_manage(request, pk):
    """The teams, who plays for which team, pairing and lineups. POST creates a team."""
    tournament = _team_tournament(pk)
    form = TeamForm(request.POST if request.method == "POST" else None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_create(tournament=tournament, name=form.cleaned_data["name"],
                                        club=form.cleaned_data["club"])
        except Refused as error:
            form.add_error(error.field or None, error.message)  # a refused name lands at its field
        else:
            messages.success(request, _("Team “%(name)s” created.") % {"name": team.name})
            return redirect("tournaments:teams_manage", pk=pk)
    return _manage_page(request, tournament, team_form=form)


@official_required
@require_POST
@not_a_league_division
def team_players_assign(request, pk):
    tournament = _team_tournament(pk)
    form = TeamPlayersForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            count = services.team_players_assign(tournament=tournament, assignments=form.assignments())
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("Teams saved (%(count)d changes).") % {"count": count})
            return redirect("tournaments:teams_manage", pk=pk)
    return _manage_page(request, tournament, players_form=form)


@official_required
@require_POST
@not_a_league_division
def team_round_pair(request, pk):
    tournament = _team_tournament(pk)
    try:
        rnd = services.round_pair(tournament=tournament)
    except Refused as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(number)d has been paired.") % {"number": rnd.number})
    return redirect("tournaments:teams_manage", pk=pk)


@official_required
@not_a_league_division
def lineup_edit(request, pk, match_pk, team_pk):
    tournament = _team_tournament(pk)
    match = get_object_or_404(TeamMatch.objects.select_related("round", "home_team", "away_team"),
                              pk=match_pk, round__tournament=tournament)
    team = get_object_or_404(Team, pk=team_pk, tournament=tournament)
    if team.pk not in (match.home_team_id, match.away_team_id):
        raise Http404(_("This team does not play in this match."))
    form = LineupForm(request.POST if request.method == "POST" else None, match=match, team=team)
    if request.method == "POST" and form.is_valid():
        try:
            services.lineup_set(match=match, team=team, members=form.cleaned_data["members"])
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("Lineup of %(team)s saved.") % {"team": team.name})
            return redirect("tournaments:teams_manage", pk=pk)
    return render(request, "tournaments/teams/lineup.html", tournament_context(
        request, tournament, "teams_manage", match=match, team=team, form=form, round=match.round))
