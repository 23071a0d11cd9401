"""Team competitions: the public team standings and matches, and the director's pages for
teams, team membership, pairing the team rounds (Berger, ``services.round_pair``) and lineups.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.core.errors import Refused
from clubrating.core.permissions import official_required, public_tournaments_required

from .. import selectors, services
from ..forms_teams import LineupForm, TeamForm, TeamPlayersForm
from ..models import (
    FORFEIT_RESULTS,
    RESULT_POINTS,
    Game,
    LineupEntry,
    Result,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
)
from .public import tournament_context

_SYMBOL = {1.0: "1", 0.5: "½", 0.0: "0"}
_FORFEIT_SYMBOL = {1.0: "+", 0.0: "−"}


def _team_tournament(pk) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.kind != TournamentKind.TEAM:
        raise Http404(_("This is not a team competition."))
    return tournament


@dataclass
class BoardLine:
    board: int
    home: object | None  # Member
    away: object | None
    home_white: bool | None  # None until the game exists
    result: str  # from the home team's side, e.g. "½–½", "+–−"; "" not yet played
    game: Game | None


@dataclass
class MatchView:
    match: TeamMatch
    boards: list[BoardLine]
    home_points: float
    away_points: float
    finished: bool


def _home_side(game: Game, home_ids: set[int]) -> tuple[float, float] | None:
    if game.result == Result.NOT_PLAYED:
        return None
    white, black = RESULT_POINTS[game.result]
    return (white, black) if game.white_id in home_ids else (black, white)


def _match_view(match: TeamMatch) -> MatchView:
    lineup = list(match.lineup.all())
    home = {e.board: e.member for e in lineup if e.team_id == match.home_team_id}
    away = {e.board: e.member for e in lineup if e.team_id == match.away_team_id}
    home_ids = {m.pk for m in home.values()}
    offset = (match.number - 1) * match.boards  # services.lineup_set numbers the games so
    games = {g.board - offset: g for g in match.games.all()}
    lines, home_points, away_points = [], 0.0, 0.0
    for board in range(1, match.boards + 1):
        game = games.get(board)
        points = _home_side(game, home_ids) if game else None
        text = ""
        if points:
            symbols = _FORFEIT_SYMBOL if game.result in FORFEIT_RESULTS else _SYMBOL
            text = f"{symbols[points[0]]}–{symbols[points[1]]}"
            home_points += points[0]
            away_points += points[1]
        lines.append(BoardLine(board, home.get(board), away.get(board),
                               None if game is None else game.white_id in home_ids, text, game))
    games_list = list(games.values())
    finished = bool(games_list) and all(g.result != Result.NOT_PLAYED for g in games_list)
    return MatchView(match, lines, home_points, away_points, finished)


def _rounds_with_matches(tournament: Tournament) -> list[tuple[Round, list[MatchView]]]:
    matches = TeamMatch.objects.select_related("home_team", "away_team").prefetch_related(
        Prefetch("lineup", queryset=LineupEntry.objects.select_related("member")),
        "games",
    ).order_by("number")
    rounds = tournament.rounds.filter(team_matches__isnull=False).distinct().order_by("number") \
        .prefetch_related(Prefetch("team_matches", queryset=matches))
    return [(rnd, [_match_view(m) for m in rnd.team_matches.all()]) for rnd in rounds]


@public_tournaments_required
def team_standings(request, pk):
    tournament = _team_tournament(pk)
    rows = selectors.team_standings(tournament=tournament)
    teams = tournament.teams.select_related("club").prefetch_related("players__member") \
        .order_by("start_rank", "name")
    return render(request, "tournaments/teams/standings.html", tournament_context(
        request, tournament, "team_standings", rows=rows, teams=teams))


@public_tournaments_required
def team_matches(request, pk):
    tournament = _team_tournament(pk)
    return render(request, "tournaments/teams/matches.html", tournament_context(
        request, tournament, "team_matches", rounds=_rounds_with_matches(tournament)))


def _manage_page(request, tournament, *, team_form=None, players_form=None, status=200):
    return render(request, "tournaments/teams/manage.html", tournament_context(
        request, tournament, "teams_manage",
        team_form=team_form or TeamForm(tournament=tournament),
        players_form=players_form or TeamPlayersForm(tournament=tournament),
        teams=tournament.teams.select_related("club").order_by("start_rank", "name"),
        next_number=selectors.last_paired_round_number(tournament=tournament) + 1,
        rounds=_rounds_with_matches(tournament),
    ), status=status)


@official_required
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
