"""The pairings of a TRF file, checked once for every reader of it (tournament import, rating
evaluation): no player against himself, no round beyond the planned ones (``XXR``), and both
lines of every game agree on the opponent, the colours and the results.

Lines of the dummy "spielfrei" player and entries against it are left out: it stands for a
bye, whatever the file writes, and its line usually has no entry back.
"""

from __future__ import annotations

from ..limits import FieldError

__all__ = ["PAIRED_RESULTS", "check_pairings"]

# (white code, black code) of the two lines of one game, or of the lower start rank first when
# neither has a colour (forfeits in old files). ("", "") is paired but not yet played.
PAIRED_RESULTS = frozenset({
    ("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+"), ("-", "-"),
    ("W", "L"), ("L", "W"), ("D", "D"), ("", ""),
})
_COLOURS = frozenset({("w", "b"), ("b", "w"), ("-", "-")})


def check_pairings(players: list, declared_rounds: int | None) -> None:
    """FieldError (with the player's line) at the first entry that cannot stand."""
    by_rank = {p.start_rank: p for p in players}
    for player in players:
        if player.is_dummy:
            continue
        for game in player.results:
            where = {"line": player.line_no, "round": game.round}
            if declared_rounds and game.round > declared_rounds:
                raise FieldError("beyond", rounds=declared_rounds, **where)
            if game.opponent is None:
                continue
            if game.opponent == player.start_rank:
                raise FieldError("self", **where)
            other = by_rank[game.opponent]  # the reader has checked that it exists
            if other.is_dummy:
                continue
            names = {"me": player.start_rank, "other": other.start_rank}
            theirs = next((g for g in other.results if g.round == game.round), None)
            if theirs is None or theirs.opponent != player.start_rank:
                raise FieldError("unpaired", other_line=other.line_no, **names, **where)
            if (game.colour, theirs.colour) not in _COLOURS:
                raise FieldError("colours", **names, **where)
            pair = (theirs.result, game.result) if game.colour == "b" else (game.result, theirs.result)
            if pair not in PAIRED_RESULTS:
                raise FieldError("results", mine=game.result or " ", theirs=theirs.result or " ",
                                 **names, **where)
