"""Team competitions: pairing the teams, lineups, teams and their players.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused`` with
a translated message when the request does not fit the tournament's state; nothing is changed then.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    Game,
    LineupEntry,
    Result,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.services.rounds import _rounds_count_sync


@transaction.atomic
def lineup_set(*, match: TeamMatch, team: Team, members: list[Member | None]) -> list[LineupEntry]:
    """Set a team's board order for a match (board 1 first; None leaves a board empty, lost by
    forfeit). A game is created for every board where both teams have a player: the home team
    has white on odd boards (FIDE team practice).

    ``Game.board`` must be unique per round, so a match's games are numbered
    ``(match.number - 1) * match.boards + board``."""
    if team.pk not in (match.home_team_id, match.away_team_id):
        raise TournamentRefused(_("%(team)s does not play in this match.") % {"team": team})
    if len(members) > match.boards:
        raise TournamentRefused(_("This match has only %(boards)d boards.") % {"boards": match.boards})
    seated = [m for m in members if m is not None]
    if len({m.pk for m in seated}) != len(seated):
        raise TournamentRefused(_("A player can only sit at one board."))
    if match.games.exclude(result=Result.NOT_PLAYED).exists():
        raise TournamentRefused(_("This match already has results; its lineups cannot be changed."))
    LineupEntry.objects.filter(match=match, team=team).delete()
    entries = LineupEntry.objects.bulk_create([
        LineupEntry(match=match, team=team, board=board, member=member)
        for board, member in enumerate(members, start=1) if member is not None
    ])
    match.games.all().delete()
    home = {e.board: e.member_id for e in match.lineup.filter(team_id=match.home_team_id)}
    away = {e.board: e.member_id for e in match.lineup.filter(team_id=match.away_team_id)}
    games = []
    for board in sorted(set(home) & set(away)):
        white, black = (home[board], away[board]) if board % 2 else (away[board], home[board])
        games.append(Game(round_id=match.round_id, team_match=match,
                          board=(match.number - 1) * match.boards + board,
                          white_id=white, black_id=black))
    Game.objects.bulk_create(games)
    return entries


@transaction.atomic
def team_create(*, tournament: Tournament, name: str, club: Club | None = None) -> Team:
    """A new team of a team competition; teams are drawn in the order they were entered (Berger
    numbers 1, 2, ...), so none can be added once the first round is paired."""
    if tournament.kind != TournamentKind.TEAM:
        raise TournamentRefused(_("Teams can only be added to a team competition."))
    # One team competition at a time, so two officials entering teams get distinct start ranks.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    name = name.strip()
    if not name:
        raise TournamentRefused(_("A team needs a name."), field="name")
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise TournamentRefused(_("This tournament already has a team of this name."), field="name")
    # The Berger schedule is drawn for the number of teams: a later team would change it.
    if TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise TournamentRefused(_("Teams cannot be added after the first round was paired."))
    last = Team.objects.filter(tournament=tournament).aggregate(last=Max("start_rank"))["last"]
    team = Team.objects.create(tournament=tournament, name=name, club=club, start_rank=(last or 0) + 1)
    _rounds_count_sync(tournament)
    return team


@transaction.atomic
def team_players_assign(*, tournament: Tournament, assignments: dict[int, int | None]) -> int:
    """Put registered players (``TournamentPlayer`` ids) into teams (``Team`` ids; None: no team).
    Players not named keep their team. Returns how many players changed team."""
    players = {p.pk: p for p in TournamentPlayer.objects.filter(tournament=tournament, pk__in=assignments)}
    unknown_players = set(assignments) - set(players)
    if unknown_players:
        raise TournamentRefused(_("Only players registered in this tournament can be put into its teams."))
    teams = set(Team.objects.filter(tournament=tournament).values_list("pk", flat=True))
    if {t for t in assignments.values() if t is not None} - teams:
        raise TournamentRefused(_("Players can only be put into teams of this tournament."))
    changed = []
    for player_id, team_id in assignments.items():
        player = players[player_id]
        if player.team_id != team_id:
            player.team_id = team_id
            changed.append(player)
    TournamentPlayer.objects.bulk_update(changed, ["team"])
    return len(changed)
