"""Setting up a season: the season and its rules, divisions, teams, captains and the schedule, and
moving a match.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import (
    Captain,
    Division,
    LeagueMatch,
    LeagueSeason,
    LeagueTeam,
    MatchEvent,
    MatchEventKind,
    MatchStatus,
    criteria_valid,
)
from clubrating.leagues.selectors import is_league_director, season_of
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Game, GameCategory, Result, TeamMatch, Tournament, TournamentKind
from clubrating.tournaments.pairing.berger import rounds_count
from clubrating.tournaments.services import round_pair, team_create


def _now(now: datetime.datetime | None) -> datetime.datetime:
    return now or timezone.now()



def _rules_check(
    *,
    start_date: datetime.date,
    end_date: datetime.date | None,
    match_points: tuple[int, int, int],
    standings_criteria: Iterable[str],
    fixing_games: int,
) -> list[str]:
    """Refuse rules that do not fit together; the standings criteria as a list."""
    criteria = list(standings_criteria)
    if not criteria_valid(criteria):
        raise LeagueRefused(
            _("Choose each standings criterion at most once, from those offered."), field="standings_criteria"
        )
    win, draw, loss = match_points
    if not win > draw >= loss:
        raise LeagueRefused(
            _("A win must give more match points than a draw, a draw at least as many as a loss."),
            field="match_points",
        )
    if fixing_games < 1:
        raise LeagueRefused(
            _("A player is fixed in a higher team after one game at the least."), field="fixing_games"
        )
    if end_date is not None and end_date < start_date:
        raise LeagueRefused(_("The season cannot end before it starts."), field="end_date")
    return criteria


FEDERATION_RULES = (
    "foreign_limit",
    "youth_board",
    "youth_max_age",
    "rating_tolerance",
    "result_deadline_hours",
    "ineligible_boards_below",
    "ineligible_deduction",
)


def _federation_rules_check(rules: dict) -> dict:
    """The state federation's rules a season sets (docs/rules.md, "The state federations' league
    rules"): only those named, each a whole number (None: not applied; the youth board's age is
    always set)."""
    unknown = set(rules) - set(FEDERATION_RULES)
    if unknown:
        raise LeagueRefused(_("Unknown league rule: %(rule)s.") % {"rule": ", ".join(sorted(unknown))})
    for name, value in rules.items():
        if name == "ineligible_boards_below":
            continue
        if name == "ineligible_deduction":
            if value is None or value < 0:
                raise LeagueRefused(_("The deduction is 0 or more board points."), field=name)
            continue
        if value is None and name == "youth_max_age":
            raise LeagueRefused(_("The youth board needs an age."), field=name)
        if value is not None and (not isinstance(value, int) or value < 0):
            raise LeagueRefused(_("A league rule is a whole number, 0 or more."), field=name)
    if rules.get("youth_board") == 0:
        raise LeagueRefused(_("The youth board is a board of the match: 1 or more."), field="youth_board")
    return rules


@transaction.atomic
def season_create(
    *,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    organizer_club: Club | None = None,
    match_points: tuple[int, int, int] = (2, 1, 0),
    standings_criteria: Iterable[str] = ("MP", "BP", "BW", "DE"),
    lineup_deadline_hours: int = 24,
    fixing_games: int = 3,
    match_start_time: datetime.time = datetime.time(14, 0),
    directors: Iterable = (),
    federation_rules: dict | None = None,
) -> LeagueSeason:
    """A new league season with its rules; ``directors`` are the users who run it."""
    name = name.strip()
    if not name:
        raise LeagueRefused(_("A league season needs a name."), field="name")
    if LeagueSeason.objects.filter(name__iexact=name).exists():
        raise LeagueRefused(_("A league season of this name exists already."), field="name")
    criteria = _rules_check(
        start_date=start_date,
        end_date=end_date,
        match_points=match_points,
        standings_criteria=standings_criteria,
        fixing_games=fixing_games,
    )
    win, draw, loss = match_points
    season = LeagueSeason.objects.create(
        name=name,
        start_date=start_date,
        end_date=end_date,
        organizer_club=organizer_club,
        match_points_win=win,
        match_points_draw=draw,
        match_points_loss=loss,
        standings_criteria=",".join(criteria),
        lineup_deadline_hours=lineup_deadline_hours,
        fixing_games=fixing_games,
        match_start_time=match_start_time,
        **_federation_rules_check(federation_rules or {}),
    )
    directors = list(directors)
    season.directors.set(directors)
    for user in directors:  # the seasons they direct, as cached by the selectors
        user.__dict__.pop("_league_seasons", None)
    return season


def season_played(season: LeagueSeason) -> bool:
    """Whether a board game of the season has a result: its rules are then fixed."""
    return (
        Game.objects.filter(round__tournament__division__season=season)
        .exclude(result=Result.NOT_PLAYED)
        .exists()
    )


@transaction.atomic
def season_rules_update(
    *,
    season: LeagueSeason,
    user,
    start_date: datetime.date,
    end_date: datetime.date | None,
    match_points: tuple[int, int, int],
    standings_criteria: Iterable[str],
    lineup_deadline_hours: int,
    fixing_games: int,
    match_start_time: datetime.time,
    federation_rules: dict | None = None,
) -> LeagueSeason:
    """Change the season's rules, by its director, as long as no board game has a result: the
    teams played the first match under the rules they were told, so these hold to the end."""
    season = LeagueSeason.objects.select_for_update().get(pk=season.pk)
    if not is_league_director(user, season):
        raise LeagueRefused(_("Only the league director can change the season's rules."), code="forbidden")
    if season_played(season):
        raise LeagueRefused(
            _("The first match of the season has been played; its rules can no longer be changed."),
            code="played",
        )
    criteria = _rules_check(
        start_date=start_date,
        end_date=end_date,
        match_points=match_points,
        standings_criteria=standings_criteria,
        fixing_games=fixing_games,
    )
    season.start_date = start_date
    season.end_date = end_date
    season.match_points_win, season.match_points_draw, season.match_points_loss = match_points
    season.standings_criteria = ",".join(criteria)
    season.lineup_deadline_hours = lineup_deadline_hours
    season.fixing_games = fixing_games
    season.match_start_time = match_start_time
    for name, value in _federation_rules_check(federation_rules or {}).items():
        setattr(season, name, value)
    season.save()
    return season


@transaction.atomic
def division_create(
    *,
    season: LeagueSeason,
    name: str,
    boards: int = 8,
    double_round_robin: bool = False,
    level: int = 1,
    category: str = GameCategory.STANDARD,
) -> Division:
    """A division of the season, backed by a new team tournament that holds its rounds,
    matches, lineups and games (rated in the pools that rate that tournament)."""
    name = name.strip()
    if not name:
        raise LeagueRefused(_("A division needs a name."), field="name")
    if Division.objects.filter(season=season, name__iexact=name).exists():
        raise LeagueRefused(_("This season has a division of this name already."), field="name")
    if boards < 1:
        raise LeagueRefused(_("A division plays on one board at the least."), field="boards")
    tournament = Tournament.objects.create(
        name=f"{season.name} – {name}",
        kind=TournamentKind.TEAM,
        category=category,
        start_date=season.start_date,
        end_date=season.end_date,
        organizer_club=season.organizer_club,
        double_round_robin=double_round_robin,
        rounds_count=1,
    )
    return Division.objects.create(
        season=season, name=name, boards=boards, level=level, tournament=tournament
    )


@transaction.atomic
def team_register(*, division: Division, club: Club, number: int, name: str = "") -> LeagueTeam:
    """A club's team number ``number`` (1 the first team) in ``division``; named "club number"
    unless ``name`` is given. Only before the division's schedule is made."""
    season = division.season
    if number < 1:
        raise LeagueRefused(_("Teams are numbered from 1."), field="number")
    if division.tournament.rounds.exists():
        raise LeagueRefused(
            _("This division has its schedule already; no team can join it."), field="division"
        )
    if LeagueTeam.objects.filter(season=season, club=club, number=number).exists():
        raise LeagueRefused(
            _("%(club)s has a team %(number)d in this season already.") % {"club": club, "number": number},
            field="number",
        )
    try:
        team = team_create(
            tournament=division.tournament,
            club=club,
            name=name.strip() or f"{club.short_name or club.name} {number}",
        )
    except TournamentRefused as refusal:
        raise LeagueRefused(refusal.message, field=refusal.field) from refusal
    return LeagueTeam.objects.create(season=season, division=division, club=club, number=number, team=team)


@transaction.atomic
def captain_add(*, team: LeagueTeam, user) -> Captain:
    """Make ``user`` (any member's account) a captain of ``team``."""
    captain, _created = Captain.objects.get_or_create(team=team, user=user)
    user.__dict__.pop("_league_captaincies", None)  # the teams he captains, as cached by the selectors
    return captain


def schedule_check(*, division: Division, dates: list[datetime.date] | None = None) -> int:
    """The number of rounds of the division's round robin; refused when it has its schedule
    already, has fewer than two teams, or (if ``dates`` are given) when they do not fit."""
    tournament = division.tournament
    if TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise LeagueRefused(_("This division has its schedule already."))
    teams = division.teams.count()
    if teams < 2:
        raise LeagueRefused(_("A division needs at least two teams."))
    rounds = rounds_count(teams, double=tournament.double_round_robin)
    if dates is None:
        return rounds
    if len(dates) != rounds:
        raise LeagueRefused(
            _("The schedule has %(rounds)d rounds: give a date for each.") % {"rounds": rounds}, field="dates"
        )
    if any(later < earlier for earlier, later in zip(dates, dates[1:], strict=False)):
        raise LeagueRefused(_("The rounds' dates must follow each other in order."), field="dates")
    if dates and dates[0] < tournament.start_date:
        raise LeagueRefused(_("The first round cannot be before the season starts (%(date)s).") % {
            "date": date_format(tournament.start_date, "SHORT_DATE_FORMAT")}, field="dates")
    return rounds


@transaction.atomic
def schedule_create(
    *, division: Division, dates: list[datetime.date], start_time: datetime.time | None = None
) -> list[LeagueMatch]:
    """The division's whole round robin by the Berger tables (FIDE C.05 Annex 1; double: the
    second cycle with home and away swapped): round n on ``dates[n - 1]``, every match starting
    at ``start_time`` (else the season's usual time). The first-named team of a Berger pairing
    plays at home."""
    season = division.season
    tournament = division.tournament
    schedule_check(division=division, dates=dates)
    time = start_time or season.match_start_time
    league_team = {t.team_id: t for t in division.teams.all()}
    matches = []
    for day in dates:
        try:
            rnd = round_pair(tournament=tournament, date=day)
        except TournamentRefused as refusal:
            raise LeagueRefused(refusal.message) from refusal
        rnd.team_matches.update(boards=division.boards)
        starts_at = timezone.make_aware(datetime.datetime.combine(day, time))
        for match in rnd.team_matches.all():
            assert match.home_team_id in league_team and match.away_team_id in league_team
            matches.append(LeagueMatch(match=match, starts_at=starts_at))
    if dates and tournament.end_date is None:
        Tournament.objects.filter(pk=tournament.pk).update(end_date=dates[-1])
    return LeagueMatch.objects.bulk_create(matches)


@transaction.atomic
def match_reschedule(
    *,
    match: LeagueMatch,
    starts_at: datetime.datetime,
    user,
    reason: str = "",
    venue: str | None = None,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The league director moves a match (the lineup deadline moves with it) while it has no
    result; its board games count on the new day. ``venue``: where it is played now (None: as
    before; "": at the home club). The move is kept in the match's history (the old and the new
    start and venue, and why)."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    if not is_league_director(user, season_of(match)):
        raise LeagueRefused(_("Only the league director can move a match."), code="forbidden")
    if match.status != MatchStatus.OPEN or match.match.games.exclude(result=Result.NOT_PLAYED).exists():
        raise LeagueRefused(_("This match has results already; it can no longer be moved."))
    old, old_venue = match.starts_at, match.venue
    venue = old_venue if venue is None else venue.strip()
    if starts_at == old and venue == old_venue:
        return match
    match.starts_at = starts_at
    match.venue = venue
    match.save(update_fields=["starts_at", "venue"])
    match.match.games.update(date=timezone.localdate(starts_at))
    parts = []
    if starts_at != old:
        new = timezone.localtime(starts_at)
        parts.append(f"{timezone.localtime(old):%d.%m.%Y %H:%M} → {new:%d.%m.%Y %H:%M}")
    if venue != old_venue:
        parts.append(f"{old_venue or '—'} → {venue or '—'}")
    parts.append(reason.strip())
    MatchEvent.objects.create(
        match=match,
        at=_now(now),
        kind=MatchEventKind.MOVED,
        by=user,
        reason=" · ".join(part for part in parts if part)[:500],
    )
    return match
