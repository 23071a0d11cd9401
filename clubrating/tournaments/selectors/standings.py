"""Each player's rounds and the standings with their tie-breaks."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from clubrating.tournaments.models import (
    RESULT_POINTS,
    Bye,
    ByeKind,
    Game,
    Result,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.history import ABSENT, FORFEIT_LOSS, FORFEIT_WIN, PAB, PLAYED, RoundRecord
from clubrating.tournaments.selectors.plain import plain_players
from clubrating.tournaments.selectors.rounds import _players, rounds_planned, version_rows
from clubrating.tournaments.tiebreaks import Participant, TiebreakSpec, compute_standings, parse_tiebreaks

PENDING = "pending"  # paired, no result yet (crosstable only; standings ignore such games)


def _records_by_member(
    tournament: Tournament, last_round: int | None, pending: bool = False, ahead: bool = False,
    shared: bool = False,
) -> tuple[dict, int]:
    """{member_id: {round: RoundRecord}} from one query for games and one for byes; with ``ahead``
    also the byes requested for rounds not paired yet; with ``shared`` from the rows the
    tournament's version was read from (``rounds.version_rows``), without queries of its own."""
    if shared:  # the rows the tournament's version was read from (a page drawn under it)
        rows = version_rows(tournament)
        number_of = {pk: number for pk, number, _date in rows["rounds"]}
        games = [(number_of[g[1]], g[3], g[4], g[5], g[8]) for g in rows["games"]]
        byes = [(number_of[b[1]], b[2], b[3]) for b in rows["byes"]]
        if last_round is not None:
            games = [g for g in games if g[0] <= last_round]
            byes = [b for b in byes if b[0] <= last_round]
    else:
        games = Game.objects.filter(round__tournament=tournament).values_list(
            "round__number", "white_id", "black_id", "result", "has_colours"
        )
        byes = Bye.objects.filter(round__tournament=tournament).values_list(
            "round__number", "member_id", "kind")
        if last_round is not None:
            games = games.filter(round__number__lte=last_round)
            byes = byes.filter(round__number__lte=last_round)
    records: dict[int, dict[int, RoundRecord]] = defaultdict(dict)
    rounds = 0
    sides = _SIDES_PENDING if pending else _SIDES
    new = tuple.__new__  # a RoundRecord without its constructor's call: thousands per page
    for number, white, black, result, has_colours in games:
        if number > rounds:
            rounds = number
        side = sides.get(result)
        if side is None:
            continue  # a game without result yet counts as nothing (the round is still running)
        (kind_w, pw), (kind_b, pb) = side
        # A game imported without colours has none in the history either.
        records[white][number] = new(RoundRecord, (kind_w, pw, black, "w" if has_colours else None))
        records[black][number] = new(RoundRecord, (kind_b, pb, white, "b" if has_colours else None))
    byes = list(byes)
    rounds = max([rounds] + [number for number, _member, kind in byes if kind == ByeKind.PAIRING])
    for number, member, kind in byes:
        if number > rounds and not ahead:
            continue  # a bye requested for a round not paired yet
        if kind == ByeKind.PAIRING:
            records[member][number] = RoundRecord(PAB, 1.0)
        else:
            records[member][number] = RoundRecord(ABSENT, {"full": 1.0, "half": 0.5}.get(kind, 0.0))
    return records, rounds


# Each result's record kind and points for white and black (``_records_by_member``).
_SIDES: dict[str, tuple[tuple[str, float], tuple[str, float]]] = {
    **{str(result): ((PLAYED, RESULT_POINTS[result][0]), (PLAYED, RESULT_POINTS[result][1]))
       for result in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)},
    str(Result.WHITE_FORFEIT_WIN): ((FORFEIT_WIN, 1.0), (FORFEIT_LOSS, 0.0)),
    str(Result.BLACK_FORFEIT_WIN): ((FORFEIT_LOSS, 0.0), (FORFEIT_WIN, 1.0)),
    str(Result.DOUBLE_FORFEIT): ((FORFEIT_LOSS, 0.0), (FORFEIT_LOSS, 0.0)),
}
_SIDES_PENDING = {**_SIDES, str(Result.NOT_PLAYED): ((PENDING, 0.0), (PENDING, 0.0))}


def _by_rank(players, records, rounds: int, key: str = "start_rank") -> dict[int, list[RoundRecord]]:
    """Records keyed by starting rank (or ``key``), opponents likewise, one per round 1..rounds."""
    rank_of = {p.member_id: getattr(p, key) for p in players}
    absent = RoundRecord(ABSENT, 0.0)
    numbers = range(1, rounds + 1)
    result = {}
    for p in players:
        own = records.get(p.member_id) or {}
        row = []
        for number in numbers:
            rec = own.get(number, absent)
            if rec.opponent is not None:
                rec = RoundRecord(rec.kind, rec.points, rank_of.get(rec.opponent), rec.colour)
            row.append(rec)
        result[getattr(p, key)] = row
    return result


def points_by_round(
    *, tournament: Tournament, after_round: int | None = None, ahead: bool = False, shared: bool = False,
) -> dict[int, dict[int, float]]:
    """{member id: {round number: points}}: every game with a result and every bye of a paired
    round (with ``ahead`` also the byes already granted for later rounds, which a TRF file counts),
    the one tally of points the standings, crosstables, pairings and the TRF export read.
    Two queries; none with ``shared`` (the rows the tournament's version was read from, for a page
    drawn under it: ``rounds.version_rows``)."""
    records, _rounds = _records_by_member(tournament, after_round, ahead=ahead, shared=shared)
    return {member: {number: rec.points for number, rec in rounds.items()}
            for member, rounds in records.items()}


def player_histories(
    tournament: Tournament, players: list[TournamentPlayer], *, before_round: int
) -> dict[int, list[RoundRecord]]:
    """Every player's rounds 1..before_round-1 keyed by starting rank (the Swiss pairing input)."""
    records, _rounds = _records_by_member(tournament, before_round - 1)
    return _by_rank(players, records, before_round - 1)



@dataclass
class StandingRow:
    rank: int
    player: TournamentPlayer
    points: float
    tiebreaks: list[float]

    @property
    def player_id(self) -> int:
        return self.player.pk


def tournament_standings(
    *, tournament: Tournament, codes: list[str] | str | None = None, after_round: int | None = None,
    plain: bool = False,
) -> list[StandingRow]:
    """Ranked players with the tie-breaks ``codes`` (default: the tournament's own list); with
    ``plain`` the rows' players are plain rows (``selectors.plain``: the pages), else models, and
    the results are those the tournament's version was read from (``rounds.version_rows``).

    Raises ``UnknownTiebreak`` with the offending code when a code is unknown. Four queries."""
    specs = tiebreak_specs(tournament=tournament, codes=codes)
    players = plain_players(tournament) if plain else _players(tournament)
    records, rounds = _records_by_member(tournament, after_round, shared=plain)
    if after_round is not None:
        rounds = after_round
    return _standing_rows(tournament, players, records, rounds, specs)


def tiebreak_specs(*, tournament: Tournament, codes: list[str] | str | None = None) -> list[TiebreakSpec]:
    """The tie-breaks ``codes`` (default: the tournament's own list) by the tournament's edition of
    C.07; ``UnknownTiebreak`` names a code that edition does not know (or forbids here)."""
    return parse_tiebreaks(tournament.tiebreaks if codes is None else codes, tournament.tiebreak_rules,
                           round_robin=tournament.kind == TournamentKind.ROUND_ROBIN)


def _standing_rows(tournament: Tournament, players: list[TournamentPlayer], records: dict, rounds: int,
                   specs: list[TiebreakSpec]) -> list[StandingRow]:
    # Keyed by member (one registration each) so players without a starting rank yet still get a
    # row, and the records' opponents (members) are the participants' keys as they are; an
    # opponent who is not a player of the tournament counts as no opponent.
    player_of = {p.member_id: p for p in players}
    absent = RoundRecord(ABSENT, 0.0)
    numbers = range(1, rounds + 1)
    participants = []
    for p in players:
        own = records.get(p.member_id) or {}
        line = [own.get(number, absent) for number in numbers]
        for i, rec in enumerate(line):
            if rec.kind == PENDING:  # the standings count no game still waiting for its result
                line[i] = absent
            elif rec.opponent is not None and rec.opponent not in player_of:
                line[i] = RoundRecord(rec.kind, rec.points, None, rec.colour)
        participants.append(Participant(p.member_id, p.fide_rating or p.rating or p.member.fide_rating, line,
                                        number=p.start_rank))
    # Fore Buchholz needs to know whether the last round listed is the tournament's last.
    final_round = rounds_planned(tournament) if any(spec.code == "FB" for spec in specs) else None
    rows = compute_standings(participants, specs, round_robin=tournament.kind == TournamentKind.ROUND_ROBIN,
                             edition=tournament.tiebreak_rules, final_round=final_round)
    order = {p.member_id: i for i, p in enumerate(players)}  # starting-rank order within shared ranks
    rows.sort(key=lambda r: (r.rank, order[r.id]))
    return [StandingRow(r.rank, player_of[r.id], r.points, r.tiebreaks) for r in rows]
