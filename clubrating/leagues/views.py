"""The captains' and the league director's pages: made for a phone at the board.

A captain sees his teams and their matches, submits lineups, enters the results of home matches
and confirms or disputes those of away matches; the league director sees what waits for him and
decides. The pages compose the league services with the ratings' result service, so that every
board result is rated on entry. Who may act is checked by the services (and here, for reading).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.accounts.permissions import official_required
from clubrating.clubs.models import Club, Member
from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.eligibility import unavailable
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.forms import (
    CaptainForm,
    DecisionForm,
    DisputeForm,
    DivisionForm,
    LateRegistrationForm,
    LineupForm,
    ResultsForm,
    RosterMoveForm,
    ScheduleForm,
    SeasonForm,
    SeasonRulesForm,
    TeamRegistrationForm,
    home_reading,
)
from clubrating.leagues.models import (
    Captain,
    Division,
    LeagueMatch,
    LeagueSeason,
    LeagueTeam,
    MatchStatus,
    Roster,
    RosterChange,
    RosterEntry,
    Side,
)
from clubrating.leagues.public.views import ratings_on
from clubrating.leagues.selectors import (
    board_games,
    captained_teams,
    director_queue,
    is_captain,
    is_league_director,
    league_match_score,
    league_matches,
    lineup_visible,
    season_of,
)
from clubrating.leagues.templatetags.league_people import person as person_name
from clubrating.tournaments.models import Result, ResultChange, TeamMatch
from clubrating.tournaments.pairing.berger import rounds_count
from clubrating.tournaments.recording import game_result_record
from ratings.selectors import tournament_rating_pool


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


# --- setting up a season ---------------------------------------------------------------------------


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
