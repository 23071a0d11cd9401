"""The division table of a team league: the team-table engine of the tournaments
(``clubrating.tournaments.team_table``), which ranks every team competition, under the names the
league's code uses. The season's ``Criterion`` codes (MP, BP, BW, DE, W) are its criteria."""

from clubrating.tournaments.team_table import (
    MatchResult,
    Scoring,
    TableRow,
    berlin_points,
    cross_table,
    division_table,
)

__all__ = ["MatchResult", "Scoring", "TableRow", "berlin_points", "cross_table", "division_table"]
