"""Team league operations: seasons, divisions, teams and schedules; rosters; lineups; results,
their confirmation or dispute and the league director's decisions.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.

Board games are ordinary games of the division's team tournament. A result is written through
``record``, by default the one owner of recording a result
(``clubrating.tournaments.recording.game_result_record``: checked, written and rated), so a
league game is rated on entry like any other and its changes stay in the game's history;
forfeits are scored but not rated.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.core.errors import Refused
from clubrating.leagues.eligibility import lineup_problems
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
    Roster,
    RosterChange,
    RosterChangeKind,
    RosterEntry,
    Side,
    criteria_valid,
)
from clubrating.leagues.selectors import board_games, is_captain, is_league_director, season_of, side_of
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    Game,
    GameCategory,
    LineupEntry,
    Result,
    TeamMatch,
    Tournament,
    TournamentKind,
)
from clubrating.tournaments.pairing.berger import rounds_count
from clubrating.tournaments.recording import game_result_record
from clubrating.tournaments.services import lineup_set, round_pair, team_create

__all__ = [
    "LineupRefused",
    "captain_add",
    "division_create",
    "lineup_submit",
    "match_confirm",
    "match_decide",
    "match_dispute",
    "match_reschedule",
    "match_results_enter",
    "roster_add",
    "roster_move",
    "roster_remove",
    "roster_set",
    "schedule_check",
    "schedule_create",
    "season_create",
    "season_rules_update",
    "team_register",
]

# The result service: ``record(game=…, result=…, user=…, reason=…)`` writes and rates a result.
RecordResult = Callable[..., Game]


class LineupRefused(LeagueRefused):
    """A lineup that breaks the roster rules; ``problems`` lists each broken rule."""

    def __init__(self, problems: list[str]):
        super().__init__(" ".join(problems), code="ineligible")
        self.problems = problems


def _now(now: datetime.datetime | None) -> datetime.datetime:
    return now or timezone.now()


# --- season, divisions, teams, schedule -----------------------------------------------------------


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


# --- rosters --------------------------------------------------------------------------------------


def _roster_teams_check(season: LeagueSeason, club: Club, teams: list[LeagueTeam]) -> None:
    for team in teams:
        if team.season_id != season.pk or team.club_id != club.pk:
            raise LeagueRefused(
                _("%(team)s is not a team of %(club)s in this season.") % {"team": team, "club": club}
            )
    numbers = [team.number for team in teams]
    if numbers != sorted(numbers):
        raise LeagueRefused(
            _(
                "The teams take consecutive blocks of the roster: the players of team 1 "
                "first, then those of team 2, and so on."
            )
        )


def _roster_director(season: LeagueSeason, user) -> None:
    """Changes of a roster once the season runs are the league director's (dated and logged)."""
    if not is_league_director(user, season):
        raise LeagueRefused(_("Only the league director can change a roster."), code="forbidden")


def _not_ahead(on: datetime.date, today: datetime.date | None) -> None:
    """A move or a withdrawal takes effect when it is recorded: dated today or earlier."""
    today = today or timezone.localdate()
    if on > today:
        raise LeagueRefused(
            _("A roster change takes effect when it is recorded: date it %(today)s or earlier.")
            % {"today": date_format(today, "SHORT_DATE_FORMAT")},
            field="on",
        )


@transaction.atomic
def roster_set(
    *, season: LeagueSeason, club: Club, entries: list[tuple[Member, LeagueTeam]], on: datetime.date
) -> Roster:
    """The club's ranked roster for the season, best first, each player with his own team;
    everyone registered ``on``. Only before the club's first lineup: later changes are late
    registrations (``roster_add``), dated and logged."""
    if LineupEntry.objects.filter(team__league_team__season=season, team__league_team__club=club).exists():
        raise LeagueRefused(
            _("%(club)s has lined up players already; add late registrations one by one.") % {"club": club}
        )
    members = [member.pk for member, _team in entries]
    if len(set(members)) != len(members):
        raise LeagueRefused(_("A player can be on the roster only once."))
    _roster_teams_check(season, club, [team for _member, team in entries])
    roster, _created = Roster.objects.get_or_create(season=season, club=club)
    roster.entries.all().delete()
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(roster=roster, rank=rank, member=member, team=team, added_on=on)
            for rank, (member, team) in enumerate(entries, start=1)
        ]
    )
    return roster


@transaction.atomic
def roster_add(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    team: LeagueTeam,
    on: datetime.date,
    user,
    reason: str = "",
) -> RosterEntry:
    """The league director registers a player late: he joins the end of ``team``'s block (the
    players below move one rank down) and may play from ``on``. The change is logged."""
    _roster_director(season, user)
    _roster_teams_check(season, club, [team])
    roster, _created = Roster.objects.select_for_update().get_or_create(season=season, club=club)
    if roster.entries.filter(member=member).exists():
        raise LeagueRefused(_("%(player)s is on the roster already.") % {"player": member.full_name})
    if on < season.start_date:
        raise LeagueRefused(_("A late registration is dated within the season."), field="on")
    block_end = roster.entries.filter(team__number__lte=team.number).aggregate(last=Max("rank"))["last"] or 0
    below = roster.entries.filter(rank__gt=block_end)
    # Two steps, so that no two entries hold one rank in between (the ranks are unique).
    below.update(rank=F("rank") + 10000)
    roster.entries.filter(rank__gt=10000).update(rank=F("rank") - 9999)
    entry = RosterEntry.objects.create(
        roster=roster, rank=block_end + 1, member=member, team=team, added_on=on
    )
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.ADDED,
        valid_from=on,
        new_rank=entry.rank,
        new_team=team,
        reason=reason.strip(),
        recorded_by=user,
    )
    return entry


@transaction.atomic
def roster_remove(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    on: datetime.date,
    user,
    reason: str = "",
    today: datetime.date | None = None,
) -> None:
    """The league director takes a player off the roster from ``on`` (a withdrawal, a change of
    club; today or earlier: it takes effect at once): the players below move up one rank; the
    games he played stay. The change is logged."""
    _roster_director(season, user)
    roster = Roster.objects.select_for_update().filter(season=season, club=club).first()
    entry = None if roster is None else roster.entries.filter(member=member).select_related("team").first()
    if entry is None:
        raise LeagueRefused(
            _("%(player)s is not on the roster of %(club)s.") % {"player": member.full_name, "club": club}
        )
    if on < season.start_date:
        raise LeagueRefused(_("A roster change is dated within the season."), field="on")
    _not_ahead(on, today)
    entry.delete()
    below = roster.entries.filter(rank__gt=entry.rank)
    below.update(rank=F("rank") + 10000)  # two steps, as in roster_add (the ranks are unique)
    roster.entries.filter(rank__gt=10000).update(rank=F("rank") - 10001)
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.REMOVED,
        valid_from=on,
        old_rank=entry.rank,
        old_team=entry.team,
        reason=reason.strip(),
        recorded_by=user,
    )


@transaction.atomic
def roster_move(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    team: LeagueTeam,
    on: datetime.date,
    user,
    reason: str = "",
    today: datetime.date | None = None,
) -> RosterEntry:
    """The league director moves a player to another team of his club during the season, from
    ``on`` (today or earlier: it takes effect at once): he leaves his team's block (the players
    below move up one rank) and joins the end of ``team``'s block. His games stay; the change is
    logged."""
    _roster_director(season, user)
    _roster_teams_check(season, club, [team])
    roster = Roster.objects.select_for_update().filter(season=season, club=club).first()
    entry = None if roster is None else roster.entries.filter(member=member).select_related("team").first()
    if entry is None:
        raise LeagueRefused(
            _("%(player)s is not on the roster of %(club)s.") % {"player": member.full_name, "club": club},
            field="member",
        )
    if entry.team_id == team.pk:
        raise LeagueRefused(
            _("%(player)s belongs to %(team)s already.") % {"player": member.full_name, "team": team},
            field="team",
        )
    if on < season.start_date or (season.end_date is not None and on > season.end_date):
        raise LeagueRefused(_("A roster change is dated within the season."), field="on")
    if on < entry.added_on:
        raise LeagueRefused(
            _("%(player)s can move only from the day he was registered on.") % {"player": member.full_name},
            field="on",
        )
    _not_ahead(on, today)
    old_rank, old_team = entry.rank, entry.team
    others = roster.entries.exclude(pk=entry.pk)
    # Park the entry beyond all others, close its gap, then open one at the end of the new
    # team's block; each shift in two steps, so that no two entries hold one rank in between.
    RosterEntry.objects.filter(pk=entry.pk).update(rank=30000)
    others.filter(rank__gt=old_rank).update(rank=F("rank") + 10000)
    others.filter(rank__gt=10000).update(rank=F("rank") - 10001)
    block_end = others.filter(team__number__lte=team.number).aggregate(last=Max("rank"))["last"] or 0
    others.filter(rank__gt=block_end).update(rank=F("rank") + 10000)
    others.filter(rank__gt=10000).update(rank=F("rank") - 9999)
    entry.rank = block_end + 1
    entry.team = team
    entry.save(update_fields=["rank", "team"])
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.MOVED,
        valid_from=on,
        old_rank=old_rank,
        new_rank=entry.rank,
        old_team=old_team,
        new_team=team,
        reason=reason.strip(),
        recorded_by=user,
    )
    return entry


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


# --- lineups --------------------------------------------------------------------------------------


def _acting_for(match: LeagueMatch, team: LeagueTeam, user) -> bool:
    """Whether ``user`` acts as the league director (True) or as ``team``'s captain (False);
    refused when he is neither."""
    if is_league_director(user, season_of(match)):
        return True
    if is_captain(user, team):
        return False
    raise LeagueRefused(
        _("Only a captain of %(team)s or the league director may do this.") % {"team": team}, code="forbidden"
    )


@transaction.atomic
def lineup_submit(
    *,
    match: LeagueMatch,
    team: LeagueTeam,
    members: list[Member | None],
    user,
    now: datetime.datetime | None = None,
    ratings: dict[int, int] | None = None,
) -> list[LineupEntry]:
    """Submit ``team``'s lineup for ``match`` (board 1 first, None an empty board). A captain
    submits it before the lineup deadline; the league director may set it until results are
    entered. Refused with every broken roster rule (``LineupRefused``)."""
    match = LeagueMatch.objects.select_for_update().get(pk=match.pk)
    season = season_of(match)
    _acting_for(match, team, user)  # nobody else holds the club's lock below
    # One lineup of a club at a time: the check that nobody plays two matches of one round reads
    # the club's other lineups, which a second captain of the club may be saving meanwhile.
    list(Roster.objects.select_for_update().filter(season=season, club_id=team.club_id).values_list("pk"))
    problems = lineup_check(match=match, team=team, members=members, user=user, now=now, ratings=ratings)
    if problems:
        raise LineupRefused(problems)
    side = side_of(match, team)
    now = _now(now)
    try:
        entries = lineup_set(match=match.match, team=team.team, members=members)
    except TournamentRefused as refusal:
        raise LeagueRefused(refusal.message) from refusal
    # The board games count on the match day (the national rating valid that day).
    match.match.games.update(date=timezone.localdate(match.starts_at))
    field = "home_lineup_at" if side == Side.HOME else "away_lineup_at"
    setattr(match, field, now)
    match.save(update_fields=[field])
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.LINEUP, team=team, by=user)
    return entries


def lineup_check(
    *,
    match: LeagueMatch,
    team: LeagueTeam,
    members: list[Member | None],
    user,
    now: datetime.datetime | None = None,
    ratings: dict[int, int] | None = None,
) -> list[str]:
    """What ``lineup_submit`` checks, without saving: refused (``LeagueRefused``) when ``user``
    may not set the lineup now; else the translated reasons the lineup breaks the season's rules
    (empty when it may be submitted). The lineup page asks it while the captain chooses."""
    side = side_of(match, team)
    if side is None:
        raise LeagueRefused(_("%(team)s does not play in this match.") % {"team": team})
    director = _acting_for(match, team, user)
    season = season_of(match)
    now = _now(now)
    if not director and now >= match.lineup_deadline(season):
        deadline = timezone.localtime(match.lineup_deadline(season))
        raise LeagueRefused(
            _("The lineup deadline passed on %(date)s at %(time)s; ask the league director.")
            % {"date": date_format(deadline, "SHORT_DATE_FORMAT"), "time": time_format(deadline, "H:i")},
            code="deadline",
        )
    if match.status != MatchStatus.OPEN:
        raise LeagueRefused(_("This match has its result already; its lineups cannot be changed."))
    division = match.match.round.tournament.division
    if len(members) > division.boards:
        raise LeagueRefused(_("This match has only %(boards)d boards.") % {"boards": division.boards})
    if not any(m is not None for m in members):
        raise LeagueRefused(_("Line up at least one player."))
    return lineup_problems(match=match, team=team, members=members, ratings=ratings)


# --- results --------------------------------------------------------------------------------------


def _forfeit_against(game: Game, absent_ids: set[int]) -> str:
    """The forfeit result of a game whose one side did not appear."""
    if game.white_id in absent_ids and game.black_id in absent_ids:
        return Result.DOUBLE_FORFEIT
    return Result.BLACK_FORFEIT_WIN if game.white_id in absent_ids else Result.WHITE_FORFEIT_WIN


def _results_write(
    match: LeagueMatch,
    results: dict[int, str],
    absent: str,
    user,
    record: RecordResult,
    reason: str,
    seen: dict[int, str] | None = None,
) -> None:
    """Write the board results ``{board: result}`` (board 1..boards of the match) through the
    result service; with ``absent`` every game of that side is lost by forfeit. ``seen``: {board:
    the result the user saw}; a board that holds another one now was saved by someone else
    meanwhile and is refused (``code="stale"``), not overwritten."""
    tm = match.match
    games = board_games(match)
    unknown = [board for board in results if board not in games]
    if unknown:
        raise LeagueRefused(
            _("Board %(board)d has no game: both teams need a player there.") % {"board": min(unknown)}
        )
    if absent not in ("", *Side.values):
        raise LeagueRefused(_("Choose the team that did not appear from those offered."))
    wanted = dict(results)
    if absent:
        team_id = tm.home_team_id if absent == Side.HOME else tm.away_team_id
        absent_ids = set(tm.lineup.filter(team_id=team_id).values_list("member_id", flat=True))
        wanted = {board: _forfeit_against(game, absent_ids) for board, game in games.items()}
    for board in sorted(wanted):
        if wanted[board] not in Result.values:
            raise LeagueRefused(_("Board %(board)d: choose one of the results offered.") % {"board": board})
        game = games[board]
        if game.result != wanted[board]:
            extra = {} if seen is None or board not in seen else {"seen": seen[board]}
            try:
                record(game=game, result=wanted[board], user=user, reason=reason, **extra)
            except Refused as refusal:  # a closed rating period, a pairing conflict
                raise LeagueRefused(
                    _("Board %(board)d: %(error)s") % {"board": board, "error": refusal.message},
                    code=refusal.code,
                ) from refusal
    if absent != match.absent:
        match.absent = absent
        match.save(update_fields=["absent"])


def _complete(match: LeagueMatch) -> bool:
    return not match.match.games.filter(result=Result.NOT_PLAYED).exists()


@transaction.atomic
def match_results_enter(
    *,
    match: LeagueMatch,
    results: dict[int, str],
    user,
    record: RecordResult = game_result_record,
    absent: str = "",
    seen: dict[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The home captain enters board results (some or all, as the games end), each rated at once;
    ``absent`` ("home"/"away") records a team that did not appear. Once every board has its
    result the match is entered and waits for the away captain's confirmation. The home team
    may correct its entry until then. ``seen``: {board: the result shown when the entry began}; a
    board saved by someone else meanwhile is refused, and nothing is saved."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    home = match.match.home_team.league_team
    director = _acting_for(match, home, user)
    given, now = now, _now(now)
    if not director and now < match.starts_at:
        raise LeagueRefused(_("Results can be entered once the match has started."))
    if match.status not in (MatchStatus.OPEN, MatchStatus.ENTERED):
        raise LeagueRefused(
            _("This result has been %(status)s; only the league director can change it now.")
            % {"status": match.get_status_display()},
            code="closed",
        )
    if not match.match.lineup.exists():
        raise LeagueRefused(_("Neither team has a lineup: there is no result to enter."))
    _results_write(match, results, absent, user, record, reason="", seen=seen)
    if given is None:  # the step is dated after the board results it completes (their history)
        now = timezone.now()
    if match.status == MatchStatus.OPEN and _complete(match):
        match.status, match.entered_at, match.entered_by = MatchStatus.ENTERED, now, user
        match.save(update_fields=["status", "entered_at", "entered_by"])
        MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.ENTERED, team=home, by=user)
        if absent:
            MatchEvent.objects.create(
                match=match,
                at=now,
                kind=MatchEventKind.ABSENT,
                team=(home if absent == Side.HOME else match.match.away_team.league_team),
                by=user,
            )
    return match


def _away_step(match: LeagueMatch, user) -> LeagueTeam:
    away = match.match.away_team.league_team
    director = is_league_director(user, season_of(match))
    if not is_captain(user, away) and not director:
        raise LeagueRefused(
            _("Only a captain of %(team)s can confirm or dispute this result.") % {"team": away},
            code="forbidden",
        )
    if not director and match.entered_by_id is not None and match.entered_by_id == user.pk:
        # A captain of both teams (a club derby) does not confirm his own entry.
        raise LeagueRefused(
            _(
                "You entered this result yourself: another captain of %(team)s confirms or disputes it, "
                "or the league director decides."
            )
            % {"team": away},
            code="forbidden",
        )
    if match.status != MatchStatus.ENTERED:
        raise LeagueRefused(
            _(
                "Only a result entered by the home team and not yet confirmed or disputed can "
                "be confirmed or disputed."
            ),
            code="state",
        )
    return away


@transaction.atomic
def match_confirm(*, match: LeagueMatch, user, now: datetime.datetime | None = None) -> LeagueMatch:
    """The away captain confirms the entered result."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    away = _away_step(match, user)
    now = _now(now)
    match.status, match.confirmed_at, match.confirmed_by = MatchStatus.CONFIRMED, now, user
    match.save(update_fields=["status", "confirmed_at", "confirmed_by"])
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.CONFIRMED, team=away, by=user)
    return match


@transaction.atomic
def match_dispute(
    *, match: LeagueMatch, user, reason: str, now: datetime.datetime | None = None
) -> LeagueMatch:
    """The away captain disputes the entered result, saying why. The result stays rated as
    entered until the league director decides."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    away = _away_step(match, user)
    now = _now(now)
    reason = reason.strip()
    if not reason:
        raise LeagueRefused(_("Say why you dispute the result."), field="reason")
    match.status, match.disputed_at, match.disputed_by = MatchStatus.DISPUTED, now, user
    match.dispute_reason = reason[:500]
    match.save(update_fields=["status", "disputed_at", "disputed_by", "dispute_reason"])
    MatchEvent.objects.create(
        match=match, at=now, kind=MatchEventKind.DISPUTED, team=away, by=user, reason=reason[:500]
    )
    return match


@transaction.atomic
def match_decide(
    *,
    match: LeagueMatch,
    user,
    reason: str,
    record: RecordResult = game_result_record,
    results: dict[int, str] | None = None,
    absent: str = "",
    seen: dict[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The league director decides a match (a dispute, a missing result, any correction): the
    board results ``results`` are written with ``reason`` in their history and rated as any
    correction; the match is decided. Every board needs a result afterwards. ``seen`` as for
    ``match_results_enter``."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    if not is_league_director(user, season_of(match)):
        raise LeagueRefused(_("Only the league director can decide a match."), code="forbidden")
    reason = reason.strip()[:500]
    if not reason:
        raise LeagueRefused(_("Give the reason of the decision."), field="reason")
    if not absent and not match.match.lineup.exists():
        # Without any lineup the match would count as a 0 : 0 draw for both teams.
        raise LeagueRefused(
            _("Neither team has a lineup: name the team that did not appear."), field="absent"
        )
    _results_write(match, results or {}, absent, user, record, reason=reason, seen=seen)
    if not _complete(match):
        raise LeagueRefused(_("Every board needs a result before the match can be decided."))
    now = _now(now)  # (after the board results it decides: their history comes first)
    if match.entered_at is None:
        match.entered_at, match.entered_by = now, user
    match.status, match.decided_at, match.decided_by, match.decision_reason = (
        MatchStatus.DECIDED,
        now,
        user,
        reason,
    )
    match.save(
        update_fields=["status", "entered_at", "entered_by", "decided_at", "decided_by", "decision_reason"]
    )
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.DECIDED, by=user, reason=reason)
    return match


@transaction.atomic
def match_ineligible(
    *,
    match: LeagueMatch,
    side: str,
    board: int,
    user,
    reason: str,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The league director finds that ``side``'s player on ``board`` was not eligible: that board
    (and by the season's rule every board below it) counts as lost, less the season's deduction
    of board points; the games keep their results for the ratings (docs/rules.md, "The state
    federations' league rules"). The match is decided with ``reason``."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    season = season_of(match)
    if not is_league_director(user, season):
        raise LeagueRefused(_("Only the league director can decide a match."), code="forbidden")
    reason = reason.strip()[:500]
    if not reason:
        raise LeagueRefused(_("Give the reason of the decision."), field="reason")
    if side not in Side.values:
        raise LeagueRefused(_("Name the team that lined up the ineligible player."), field="side")
    division = match.match.round.tournament.division
    if not 1 <= board <= division.boards:
        raise LeagueRefused(
            _("This match has only %(boards)d boards.") % {"boards": division.boards}, field="board"
        )
    if match.status == MatchStatus.OPEN:
        raise LeagueRefused(_("The match has no result yet."))
    now = _now(now)
    match.ineligible_side, match.ineligible_board = side, board
    match.status, match.decided_at, match.decided_by, match.decision_reason = (
        MatchStatus.DECIDED,
        now,
        user,
        reason,
    )
    match.save(
        update_fields=[
            "ineligible_side", "ineligible_board", "status", "decided_at", "decided_by", "decision_reason"
        ]
    )
    team = match.match.home_team.league_team if side == Side.HOME else match.match.away_team.league_team
    MatchEvent.objects.create(
        match=match, at=now, kind=MatchEventKind.DECIDED, team=team, by=user, reason=reason
    )
    return match
