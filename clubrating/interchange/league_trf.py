"""A league division as a TRF-2026 file: the division's tournament (players, every board game)
with the team section instead of the old ``013`` lines: each team (``310``: its number in the
draw, name, match and board points, rank, players in roster order), each team's lineup of each
match (``300``, board by board) and each match a team did not appear to (``330``)."""

from __future__ import annotations

from collections.abc import Callable

from clubrating.clubs.models import Member
from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    format_forfeit_line,
    format_lineup_line,
    format_team_line,
)
from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.leagues.models import Division, RosterEntry, Side
from clubrating.leagues.selectors_public import division_data

__all__ = ["division_export_trf"]


def division_export_trf(
    *, division: Division, shown: Callable[[Member], frozenset[str]] | None = None
) -> str:
    """The TRF text of ``division``; ``shown`` as for ``tournament_export_trf``."""
    data = division_data(division=division)
    number = {team: team.team.start_rank or index for index, team in enumerate(data.teams, start=1)}
    ranks = dict(RosterEntry.objects.filter(roster__season=division.season).values_list("member_id", "rank"))

    def team_lines(start_ranks: dict[int, int]) -> list[str]:
        played: dict = {team: set() for team in data.teams}
        lineups, forfeits = [], []
        for round_number, _date, matches in data.rounds:
            for match in matches:
                sides = ((match.home, match.away, "home"), (match.away, match.home, "away"))
                for team, opponent, side in sides:
                    members = [getattr(board, side) for board in match.score.boards]
                    if not any(members):
                        continue
                    players = tuple(start_ranks.get(m.pk, 0) if m else 0 for m in members)
                    played[team].update(m.pk for m in members if m is not None and m.pk in start_ranks)
                    lineups.append(TrfLineup(round_number, number[team], number[opponent], players))
                if match.result is not None and match.league.absent:
                    kind = "-+" if match.league.absent == Side.HOME else "+-"
                    teams_of = (number[match.home], number[match.away])
                    forfeits.append(TrfForfeitMatch(kind, round_number, *teams_of))
        teams = [
            TrfTeam(
                number=number[row.team],
                name=row.team.name,
                match_points=row.match_points,
                game_points=row.board_points,
                rank=row.rank,
                players=tuple(
                    start_ranks[member_id]
                    for member_id in sorted(played[row.team], key=lambda m: (ranks.get(m, 0), start_ranks[m]))
                ),
            )
            for row in sorted(data.table, key=lambda row: number[row.team])
        ]
        return [
            *(format_team_line(team) for team in teams),
            *(format_lineup_line(lineup) for lineup in lineups),
            *(format_forfeit_line(forfeit) for forfeit in forfeits),
        ]

    return tournament_export_trf(tournament=division.tournament, shown=shown, team_lines=team_lines)
