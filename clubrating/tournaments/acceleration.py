"""A Swiss tournament's virtual points for the pairing (FIDE C.04.5.1, Baku acceleration), from its
registrations and round 1: the rule itself is ``pairing/baku.py``."""

from __future__ import annotations

from clubrating.tournaments.models import (
    Acceleration,
    Bye,
    ByeKind,
    Game,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.baku import baku_acceleration, baku_group_a_size

__all__ = ["tournament_acceleration"]


def _round_one_list(tournament: Tournament, players: list[TournamentPlayer]) -> list[TournamentPlayer]:
    """The start list group A was cut from: the players of round 1 once it is paired (a later
    entry keeps group A's last player where he was), else everybody who has not withdrawn."""
    games = Game.objects.filter(round__tournament=tournament, round__number=1)
    byes = Bye.objects.filter(round__tournament=tournament, round__number=1)
    members = set(games.values_list("white_id", flat=True)) | set(games.values_list("black_id", flat=True))
    if members or byes.filter(kind=ByeKind.PAIRING).exists():
        members |= set(byes.values_list("member_id", flat=True))
        return [p for p in players if p.member_id in members]
    return [p for p in players if not (p.withdrawn_from_round and p.withdrawn_from_round <= 1)]


def tournament_acceleration(
    *, tournament: Tournament, players: list[TournamentPlayer]
) -> dict[int, dict[int, float]]:
    """``{start rank: {round: virtual points}}`` for ``players`` (the tournament's registrations,
    each with its start rank); empty when the tournament is not accelerated."""
    if tournament.acceleration != Acceleration.BAKU or tournament.kind != TournamentKind.SWISS:
        return {}
    first = sorted(_round_one_list(tournament, players), key=lambda p: p.start_rank)
    if not first:
        return {}
    last = first[min(baku_group_a_size(len(first)), len(first)) - 1].start_rank
    group_a = [p.start_rank for p in players if p.start_rank <= last]
    return baku_acceleration(group_a=group_a, rounds=tournament.rounds_count)
