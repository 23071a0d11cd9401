"""A league match's page: its card, results, confirmation, dispute and the directors' decision."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.forms import DecisionForm, DisputeForm, ResultsForm, home_reading
from clubrating.leagues.models import LeagueMatch, MatchStatus, Side
from clubrating.leagues.selectors import (
    board_games,
    is_captain,
    is_league_director,
    league_match_score,
    league_matches,
    lineup_visible,
    season_of,
)
from clubrating.leagues.templatetags.league_people import person as person_name
from clubrating.tournaments.models import Result, ResultChange
from clubrating.tournaments.recording import game_result_record


def _match(pk) -> LeagueMatch:
    try:
        return league_matches().get(pk=pk)
    except LeagueMatch.DoesNotExist as missing:
        raise Http404 from missing


def _roles(user, match: LeagueMatch) -> dict:
    """What ``user`` is for ``match``: director, home captain, away captain; 403 if none."""
    home = match.match.home_team.league_team
    away = match.match.away_team.league_team
    roles = {
        "director": is_league_director(user, season_of(match)),
        "home_captain": is_captain(user, home),
        "away_captain": is_captain(user, away),
        "home": home,
        "away": away,
    }
    if not (roles["director"] or roles["home_captain"] or roles["away_captain"]):
        raise PermissionDenied
    return roles


def _home_white(match: LeagueMatch) -> dict[int, bool]:
    """{board: the home player has White} of the boards that have a game."""
    return {b.board: b.home_white for b in league_match_score(match).boards if b.home_white is not None}


def _reading(result: str, home_white: bool) -> str:
    return Result(home_reading(result, home_white=home_white)).label if result else "—"


def _history(match: LeagueMatch, home_white: dict[int, bool]) -> list[tuple]:
    """The match's steps and its board results' changes, oldest first: (when, who, what, why).
    A board's results read as its card does, from the home player's side."""
    rows = [
        (e.at, person_name(e.by), e.get_kind_display() + (f" · {e.team}" if e.team else ""), e.reason)
        for e in match.events.select_related("by__member", "team__team")
    ]
    games = {game.pk: board for board, game in board_games(match).items()}
    for change in ResultChange.objects.filter(game_id__in=games).select_related("changed_by__member"):
        board = games[change.game_id]
        white = home_white.get(board, True)
        what = _("Board %(board)d: %(old)s → %(new)s") % {
            "board": board,
            "old": _reading(change.old_result, white),
            "new": _reading(change.new_result, white),
        }
        rows.append((change.changed_at, person_name(change.changed_by), what, change.reason))
    return sorted(rows, key=lambda row: row[0])


def _match_page(
    request,
    match: LeagueMatch,
    roles: dict,
    *,
    results_form=None,
    decision_form=None,
    dispute_form=None,
    status=200,
):
    now = timezone.now()
    season = season_of(match)
    games = board_games(match)
    scored = league_match_score(match)
    visible = {
        side: lineup_visible(match=match, side=side, user=request.user, now=now) for side in Side.values
    }
    started = now >= match.starts_at
    open_result = match.status in (MatchStatus.OPEN, MatchStatus.ENTERED)
    can_enter = open_result and (roles["director"] or (roles["home_captain"] and started))
    before_deadline = now < match.lineup_deadline(season)
    lineup_teams = [
        team
        for side, team in ((Side.HOME, roles["home"]), (Side.AWAY, roles["away"]))
        if match.status == MatchStatus.OPEN
        and not any(g.result for g in games.values())
        and (roles["director"] or (roles[f"{side}_captain"] and before_deadline))
    ]
    home_white = {b.board: b.home_white for b in scored.boards if b.home_white is not None}
    if can_enter and match.match.lineup.all():
        results_form = results_form or ResultsForm(
            games=games, home_white=home_white, initial={"absent": match.absent}
        )
    else:
        results_form = None
    if roles["director"] and match.match.lineup.all():
        decision_form = decision_form or DecisionForm(
            games=games, home_white=home_white, initial={"absent": match.absent}
        )
    context = {
        "match": match,
        "season": season,
        "division": match.match.round.tournament.division,
        "score": scored,
        "home_visible": visible[Side.HOME],
        "away_visible": visible[Side.AWAY],
        "roles": roles,
        "deadline": match.lineup_deadline(season),
        "result_due": match.result_due(season),
        "late": match.entered_late(season),
        "started": started,
        "lineup_teams": lineup_teams,
        "results_form": results_form,
        "can_confirm": match.status == MatchStatus.ENTERED
        and (roles["director"] or (roles["away_captain"] and match.entered_by_id != request.user.pk)),
        "dispute_form": dispute_form or DisputeForm(),
        "decision_form": decision_form,
        "history": _history(match, home_white),
    }
    # Each board with its result field in the captain's and the director's form (None: no game).
    context["rows"] = [
        {
            "board": b,
            "entry": results_form[f"board_{b.board}"] if results_form and b.game else None,
            "decision": decision_form[f"board_{b.board}"] if decision_form and b.game else None,
        }
        for b in scored.boards
    ]
    return render(request, "leagues/match.html", context, status=status)


@login_required
def match_detail(request, pk):
    match = _match(pk)
    return _match_page(request, match, _roles(request.user, match))


def _refused(request, refusal: Refused, pk):
    messages.error(request, refusal.message)
    return redirect("leagues:match", pk=pk)


@login_required
@require_POST
def match_results(request, pk):
    match = _match(pk)
    roles = _roles(request.user, match)
    form = ResultsForm(request.POST, games=board_games(match), home_white=_home_white(match))
    if not form.is_valid():
        return _match_page(request, match, roles, results_form=form, status=400)
    try:
        match = services.match_results_enter(
            match=match,
            results=form.results(),
            seen=form.seen(),
            absent=form.cleaned_data["absent"],
            user=request.user,
            record=game_result_record,
        )
    except Refused as refusal:
        return _refused(request, refusal, pk)
    if match.status == MatchStatus.ENTERED:
        messages.success(request, _("The result is entered; the away captain confirms it."))
    else:
        messages.success(request, _("Saved. Boards without a result can be entered as their games end."))
    return redirect("leagues:match", pk=pk)


@login_required
@require_POST
def match_confirm(request, pk):
    match = _match(pk)
    _roles(request.user, match)
    try:
        services.match_confirm(match=match, user=request.user)
    except Refused as refusal:
        return _refused(request, refusal, pk)
    messages.success(request, _("The result is confirmed."))
    return redirect("leagues:match", pk=pk)


@login_required
@require_POST
def match_dispute(request, pk):
    match = _match(pk)
    roles = _roles(request.user, match)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _match_page(request, match, roles, dispute_form=form, status=400)
    try:
        services.match_dispute(match=match, user=request.user, reason=form.cleaned_data["reason"])
    except Refused as refusal:
        return _refused(request, refusal, pk)
    messages.success(request, _("The result is disputed; the league director decides."))
    return redirect("leagues:match", pk=pk)


@login_required
@require_POST
def match_decide(request, pk):
    match = _match(pk)
    roles = _roles(request.user, match)
    form = DecisionForm(request.POST, games=board_games(match), home_white=_home_white(match))
    if not form.is_valid():
        return _match_page(request, match, roles, decision_form=form, status=400)
    try:
        services.match_decide(
            match=match,
            user=request.user,
            reason=form.cleaned_data["reason"],
            results=form.results(),
            seen=form.seen(),
            absent=form.cleaned_data["absent"],
            record=game_result_record,
        )
    except Refused as refusal:
        return _refused(request, refusal, pk)
    messages.success(request, _("The match is decided."))
    return redirect("leagues:match", pk=pk)
