"""A division's matches for its pages, read as plain rows where a page has hundreds of them.

``league_matches`` joins every match to its round, tournament, division, season, both teams and
their clubs, and every lineup entry and game to its members: for a division of 12 teams and 11
rounds on 8 boards some 4,500 model objects per read, most of them copies of the same dozen
teams, one season and a hundred members. The division's pages know the division, its season and
its teams already; here each match is read with its round only, and its lineup entries and games
(16 and 8 a match) as plain rows (``LineupRow``, ``GameRow``: the attributes ``match_score``
reads), each member once as a model object (the privacy rules read his profile). The division's
objects are set on the matches (one object per team), so that ``league_match_score``,
``lineup_visible`` and the cards read them as before. A fixed number of queries: matches
(``division_league_matches``, read once per division object), lineups, games, members.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubrating.clubs.models import Member
from clubrating.leagues.models import Division, LeagueMatch, LeagueTeam
from clubrating.leagues.selectors import division_league_matches
from clubrating.tournaments.models import Game, LineupEntry, Tournament


@dataclass(slots=True)
class LineupRow:
    """A lineup entry: the team's board and its member."""

    team_id: int
    board: int
    member_id: int
    member: Member


@dataclass(slots=True)
class GameRow:
    """A board game: its key, board, players (by key) and result (by colour)."""

    pk: int
    board: int
    white_id: int
    black_id: int
    result: str


@dataclass(slots=True)
class DivisionMatch:
    league: LeagueMatch
    lineup: list[LineupRow]
    games: list[GameRow]


def division_matches(
    *, division: Division, teams: list[LeagueTeam], round_number: int | None = None, members: bool = True,
    rows: dict | None = None, of_team: int | None = None,
) -> list[DivisionMatch]:
    """The division's matches by round and number (of round ``round_number`` only, when given),
    each with its lineup and games as rows. ``teams``: the division's teams, read with their
    tournament team and club. ``members``: with the lineups' members (else ``member`` is None: a
    table counts the boards, it names nobody). ``rows``: the tournament's rows its version was
    read from (``tournaments.selectors.version_rows``), whose lineups and games are then not read
    again. ``of_team``: the members of this tournament team's lineups alone (its page names its
    own players only)."""
    matches = division_league_matches(division=division)
    if round_number is not None:
        matches = [league for league in matches if league.match.round.number == round_number]
    ids = [league.match_id for league in matches]
    lineups: dict[int, list[tuple]] = {pk: [] for pk in ids}
    games: dict[int, list[GameRow]] = {pk: [] for pk in ids}
    if rows is not None:
        for _pk, match_id, team_id, board, member_id in rows["lineups"]:  # by key
            if match_id in lineups:
                lineups[match_id].append((team_id, board, member_id))
        by_board = sorted(rows["games"], key=lambda game: game[2])
        for pk, _round, board, white, black, result, *_rest, match_id in by_board:
            if match_id in games:
                games[match_id].append(GameRow(pk, board, white, black, result))
    else:
        for row in (LineupEntry.objects.filter(match_id__in=ids).order_by("pk")
                    .values_list("match_id", "team_id", "board", "member_id")):
            lineups[row[0]].append(row[1:])
        # By board alone (a match's games share a round): the games' default order joins rounds
        # and tournaments, and PostgreSQL then reads the federation's games in that order instead
        # of the match's by its index.
        read = (Game.objects.filter(team_match_id__in=ids).order_by("board")
                .values_list("team_match_id", "pk", "board", "white_id", "black_id", "result"))
        for match_id, *row in read:
            games[match_id].append(GameRow(*row))
    wanted: set[int] = set()
    if members and of_team is not None:
        wanted = {member for read in lineups.values() for team, _board, member in read if team == of_team}
    elif members:
        wanted = {member for read in lineups.values() for _team, _board, member in read}
        for read in games.values():
            wanted.update(member for game in read for member in (game.white_id, game.black_id))
    named = Member.objects.in_bulk(wanted) if wanted else {}
    tournament = division.tournament
    Tournament.division.related.set_cached_value(tournament, division)  # season_of reads it
    by_team = {team.team_id: team for team in teams}
    for team in teams:
        LeagueTeam.team.field.remote_field.set_cached_value(team.team, team)  # team.league_team
    out = []
    for league in matches:
        match = league.match
        match.round.tournament = tournament
        match.home_team = by_team[match.home_team_id].team
        match.away_team = by_team[match.away_team_id].team
        lineup = [LineupRow(team, board, member, named.get(member))
                  for team, board, member in lineups[match.pk]]
        out.append(DivisionMatch(league, lineup, games[match.pk]))
    return out
