"""A division's matches for its pages, read without building the same objects again and again.

``league_matches`` joins every match to its round, tournament, division, season, both teams and
their clubs, and every lineup entry and game to its members: for a division of 12 teams and 11
rounds on 8 boards some 4,500 model objects per read, most of them copies of the same dozen
teams, one season and a hundred members. The division's pages know the division, its season and
its teams already; here each match is read with its round only, its lineups and games without
joins, and the division's objects are set on them (one object per team, per member), so that
``league_match_score``, ``lineup_visible`` and the cards read them as before. A fixed number of
queries: matches, lineups, games, members.
"""

from __future__ import annotations

from django.db.models import Prefetch

from clubrating.clubs.models import Member
from clubrating.leagues.models import Division, LeagueMatch, LeagueTeam
from clubrating.tournaments.models import Game, LineupEntry, Tournament


def division_matches(*, division: Division, teams: list[LeagueTeam]) -> list[LeagueMatch]:
    """The division's matches by round and number, with what ``league_matches`` gives them.
    ``teams``: the division's teams, read with their tournament team and club."""
    matches = list(
        LeagueMatch.objects.filter(match__round__tournament=division.tournament_id)
        .select_related("match__round")
        .prefetch_related(Prefetch("match__lineup", queryset=LineupEntry.objects.all()),
                          # By board alone (a match's games share a round): the games' default
                          # order joins rounds and tournaments, and PostgreSQL then reads the
                          # federation's games in that order instead of the match's by its index.
                          Prefetch("match__games", queryset=Game.objects.order_by("board")))
        .order_by("match__round__number", "match__number")
    )
    wanted: set[int] = set()
    for league in matches:
        wanted.update(entry.member_id for entry in league.match.lineup.all())
        for game in league.match.games.all():
            wanted.update((game.white_id, game.black_id))
    members = Member.objects.in_bulk(wanted)
    tournament = division.tournament
    Tournament.division.related.set_cached_value(tournament, division)  # season_of reads it
    by_team = {team.team_id: team for team in teams}
    for team in teams:
        LeagueTeam.team.field.remote_field.set_cached_value(team.team, team)  # team.league_team
    for league in matches:
        match = league.match
        match.round.tournament = tournament
        match.home_team = by_team[match.home_team_id].team
        match.away_team = by_team[match.away_team_id].team
        for entry in match.lineup.all():
            entry.member = members[entry.member_id]
        for game in match.games.all():
            game.white, game.black = members[game.white_id], members[game.black_id]
    return matches
