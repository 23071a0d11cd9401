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

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

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


@functools.cache
def _rounds_sql() -> str:
    """The rounds of some tournaments with their state (see ``tournament_states``), the
    tournaments' ids appended as ``{ids}``: plain SQL built once, as building it through the
    ORM on every request cost more than running it."""
    r, g, b, m = (model._meta.db_table for model in (Round, Game, Bye, TeamMatch))
    return (
        f"SELECT r.tournament_id, r.number, "
        f"EXISTS(SELECT 1 FROM {g} g WHERE g.round_id = r.id AND g.result = %s), "
        f"(EXISTS(SELECT 1 FROM {g} g WHERE g.round_id = r.id) "
        f"OR EXISTS(SELECT 1 FROM {b} b WHERE b.round_id = r.id AND b.kind = %s) "
        f"OR EXISTS(SELECT 1 FROM {m} m WHERE m.round_id = r.id)), "
        f"EXISTS(SELECT 1 FROM {m} m WHERE m.round_id = r.id "
        f"AND NOT EXISTS(SELECT 1 FROM {g} g WHERE g.team_match_id = m.id)) "
        f"FROM {r} r WHERE r.tournament_id IN ({{ids}})"
    )


@functools.cache
def _entrants_sql() -> str:
    p, t = TournamentPlayer._meta.db_table, Team._meta.db_table
    return (f"SELECT tournament_id, COUNT(*), 0 FROM {p} WHERE tournament_id IN ({{ids}}) "
            f"GROUP BY tournament_id UNION ALL "
            f"SELECT tournament_id, COUNT(*), 1 FROM {t} WHERE tournament_id IN ({{ids}}) "
            "GROUP BY tournament_id")


def _rows(sql: str, params: list, ids: list[int]) -> list[tuple]:
    """``sql``'s rows, ``{ids}`` the placeholders of ``ids`` (once per occurrence)."""
    marks = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(sql.format(ids=marks), params + ids * sql.count("{ids}"))
        return cursor.fetchall()


def tournament_states(*, tournaments: Iterable[Tournament]) -> dict[int, TournamentState]:
    """{tournament id: its ``TournamentState``} of ``tournaments`` (their ``kind`` and
    ``rounds_count`` read already). One query: their rounds, each with whether a game still waits
    for its result (the games' partial index ``game_unplayed``), whether it is paired (a game, a
    pairing-allocated bye or a team match: ``paired_round_q``) and whether a team match of it
    has no games yet (its lineups are not in: the round is not complete)."""
    heads = {t.pk: t for t in tournaments}
    if not heads:
        return {}
    rounds: dict[int, list[tuple]] = {pk: [] for pk in heads}
    params = [Result.NOT_PLAYED.value, ByeKind.PAIRING.value]
    for tournament_id, *row in _rows(_rounds_sql(), params, sorted(heads)):
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
    out = {pk: [0, 0] for pk in ids}
    for pk, n, is_team in _rows(_entrants_sql(), [], ids):
        out[pk][1 if is_team else 0] = n
    return {pk: (p, t) for pk, (p, t) in out.items()}
