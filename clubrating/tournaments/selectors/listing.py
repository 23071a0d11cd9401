"""What lists of tournaments show of each one (the start page, the tournament list): whether it is
finished, the round being played and its players or teams.

Read for the listed tournaments only, each by one query along their own indexes (their rounds, and
per round the first game still without result, the first game at all, the first team match
without games; their players and teams), once for all of them: neither a subquery per
tournament (which PostgreSQL answers by scanning the small tables of players, rounds and
matches once per tournament) nor a join of players, teams and games, whose rows multiply. The
rules are those of ``finished_q``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Value

from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Game,
    Result,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)


@dataclass(frozen=True)
class TournamentState:
    finished: bool
    current_round: int | None  # the first round with a game still without result, else the last


def tournament_states(*, tournaments: Iterable[Tournament]) -> dict[int, TournamentState]:
    """{tournament id: its ``TournamentState``} of ``tournaments`` (their ``kind`` and
    ``rounds_count`` read already). One query: their rounds, each with whether a game still waits
    for its result (the games' partial index ``game_unplayed``), whether it is paired (a game, a
    pairing-allocated bye or a team match: ``paired_round_q``) and whether a team match of it
    has no games yet (its lineups are not in: the round is not complete)."""
    heads = {t.pk: t for t in tournaments}
    if not heads:
        return {}
    games = Game.objects.filter(round=OuterRef("pk"))
    rows = Round.objects.filter(tournament_id__in=sorted(heads)).order_by().annotate(
        waiting=Exists(games.filter(result=Result.NOT_PLAYED)),
        paired=Exists(games) | Exists(Bye.objects.filter(round=OuterRef("pk"), kind=ByeKind.PAIRING))
        | Exists(TeamMatch.objects.filter(round=OuterRef("pk"))),
        unlined=Exists(TeamMatch.objects.filter(round=OuterRef("pk")).filter(
            ~Exists(Game.objects.filter(team_match=OuterRef("pk"))))),
    ).values_list("tournament_id", "number", "waiting", "paired", "unlined")
    rounds: dict[int, list[tuple]] = {pk: [] for pk in heads}
    for tournament_id, *row in rows:
        rounds[tournament_id].append(tuple(row))
    out = {}
    for pk, tournament in heads.items():
        numbered = sorted(rounds[pk])
        last_paired = any(number == tournament.rounds_count and paired for number, _w, paired, _u in numbered)
        incomplete = any(waiting or unlined for _n, waiting, _p, unlined in numbered)
        finished = tournament.kind != TournamentKind.CASUAL and last_paired and not incomplete
        current = next((number for number, waiting, _p, _u in numbered if waiting),
                       numbered[-1][0] if numbered else None)
        out[pk] = TournamentState(finished, current)
    return out


def tournament_entrants(*, ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """{tournament id: (players, teams)} of the tournaments ``ids`` (0 for none). One query: the
    players and the teams of those tournaments counted along their tournament's index."""
    ids = sorted(set(ids))
    if not ids:
        return {}
    players, teams = (
        model.objects.filter(tournament_id__in=ids).order_by().values("tournament_id")
        .annotate(n=Count("pk"), team=Value(is_team)).values_list("tournament_id", "n", "team")
        for model, is_team in ((TournamentPlayer, False), (Team, True)))
    out = {pk: [0, 0] for pk in ids}
    for pk, n, is_team in players.union(teams, all=True):
        out[pk][1 if is_team else 0] = n
    return {pk: (p, t) for pk, (p, t) in out.items()}
