"""A league division as a TRF-2026 file: the division's tournament (players, every board game)
with the team section instead of the old ``013`` lines: each team (``310``: its number in the
draw, name, match and board points, rank, players in roster order), each team's lineup of each
match (``300``, board by board) and each match a team did not appear to (``330``).

And the way back for a division's frame: its teams (``310``) and schedule (the ``132`` round dates,
the pairings of the ``300`` records) from the TRF file of a team round robin, as a new division of
a season. The results stay out: they are entered (and rated) as the league's results are."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.core.errors import Refused
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.limits import FieldError
from clubrating.interchange.formats.trf import TrfError, parse_trf
from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    format_forfeit_line,
    format_lineup_line,
    format_team_line,
    team_records,
)
from clubrating.interchange.refusals import field_refused, trf_refused
from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.leagues import services
from clubrating.leagues.models import Division, LeagueSeason, RosterEntry, Side
from clubrating.leagues.selectors import hidden_games, lineup_visible
from clubrating.leagues.selectors_public import division_data
from clubrating.tournaments.pairing.berger import rounds_count

__all__ = ["division_export_trf", "division_import_trf"]


def division_export_trf(
    *, division: Division, shown: Callable[[Member], frozenset[str]] | None = None
) -> str:
    """The TRF text of ``division``; ``shown`` as for ``tournament_export_trf``. A match's lineups
    and games are left out while they are not public (before their lineup deadline)."""
    data = division_data(division=division)
    now = timezone.now()
    # What every reader may see (``lineup_visible`` for a visitor: the deadline has passed).
    hidden = {
        match.league.pk
        for match in data.matches
        if not lineup_visible(match=match.league, side=Side.HOME, user=None, now=now)
    }
    number = {team: team.team.start_rank or index for index, team in enumerate(data.teams, start=1)}
    ranks = dict(RosterEntry.objects.filter(roster__season=division.season).values_list("member_id", "rank"))

    def team_lines(start_ranks: dict[int, int]) -> list[str]:
        played: dict = {team: set() for team in data.teams}
        lineups, forfeits = [], []
        for round_number, _date, matches in data.rounds:
            for match in matches:
                if match.league.pk in hidden:
                    continue
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

    return tournament_export_trf(
        tournament=division.tournament,
        shown=shown,
        team_lines=team_lines,
        hidden_games=hidden_games(tournament_id=division.tournament_id, now=now),
    )


_NUMBERED = re.compile(r"^(?P<club>.*?)\s+(?P<number>\d{1,2})$")


def _club_and_number(name: str) -> tuple[Club, int]:
    """The club of a team named "SK Donaustadt 2" (its name or short name without the number)
    and the team's number (1 without one)."""
    found = _NUMBERED.match(name)
    club_name, number = (found["club"], int(found["number"])) if found else (name, 1)
    clubs = list(Club.objects.filter(Q(name__iexact=club_name) | Q(short_name__iexact=club_name))[:2])
    if len(clubs) != 1:
        raise ImportRefused(
            _("Team %(team)s: no club or more than one is called %(club)s; enter the club first.")
            % {"team": name, "club": club_name}
        )
    return clubs[0], number


@transaction.atomic
def division_import_trf(*, season: LeagueSeason, name: str, text: str) -> Division:
    """A new division of ``season`` with the teams and the schedule of a team round robin's TRF
    file, single or double (twice the rounds). The file's pairings must be the Berger tables'
    (FIDE C.05 Annex 1) in its team numbers' order, as the division's own schedule is; the number
    of boards is the longest lineup's."""
    try:
        trf = parse_trf(text)
        records = team_records(trf.extra_lines)
    except TrfError as error:
        raise trf_refused(error) from error
    except FieldError as problem:
        raise field_refused(problem) from problem
    teams = sorted(records.teams, key=lambda team: team.number)
    if len(teams) < 2:
        raise ImportRefused(_("The file has no team records (310) of two teams or more."))
    if [team.number for team in teams] != list(range(1, len(teams) + 1)):
        raise ImportRefused(_("The file's teams must be numbered 1, 2, 3 … without gaps."))
    boards = max((len(lineup.players) for lineup in records.lineups), default=0)
    if not boards:
        raise ImportRefused(_("The file has no lineups (300): the number of boards is not known."))
    dates = trf.round_dates
    if not dates or not all(dates):
        raise ImportRefused(_("The file gives no date for every round (132)."))
    # A double round robin has twice the single one's rounds (the second cycle with home and away
    # swapped, as the division's own schedule).
    double = len(dates) == 2 * rounds_count(len(teams), double=False)
    try:
        division = services.division_create(
            season=season, name=name, boards=boards, double_round_robin=double
        )
        registered = {}
        for team in teams:
            club, number = _club_and_number(team.name)
            registered[team.number] = services.team_register(
                division=division, club=club, number=number, name=team.name
            )
        services.schedule_create(division=division, dates=list(dates))
    except ImportRefused:
        raise
    except Refused as refusal:
        raise ImportRefused(refusal.message) from refusal
    itself = next((lineup for lineup in records.lineups if lineup.team == lineup.opponent), None)
    if itself is not None:
        raise ImportRefused(_("Round %(round)d: team %(team)d is named as its own opponent.") % {
            "round": itself.round, "team": itself.team})
    wanted = {(lineup.round, frozenset((lineup.team, lineup.opponent))) for lineup in records.lineups}
    by_team = {team.team_id: number for number, team in registered.items()}
    scheduled = {
        (round_number, frozenset((by_team[m.home.team_id], by_team[m.away.team_id])))
        for round_number, _date, matches in division_data(division=division).rounds
        for m in matches
    }
    if not wanted <= scheduled:
        round_number, pair = min(wanted - scheduled, key=lambda item: (item[0], sorted(item[1])))
        first, second = sorted(pair)
        raise ImportRefused(
            _(
                "Round %(round)d: teams %(first)d and %(second)d do not meet there by the Berger "
                "tables; only a round robin in the Berger order can be imported."
            )
            % {"round": round_number, "first": first, "second": second}
        )
    return division
