"""FIDE tie-breaks (Play-Off and Tie-Break Regulations C.07) on plain data, codes as in TRF-2026.

Two editions: ``"2023"`` (the text applied from 2023 until 28 February 2026) and ``"2026"`` (in
force since 1 March 2026). A tournament keeps the edition of its start date (``edition_for``);
what the 2026 edition changes is listed after the 2023 rules below.

Each participant's rounds are :class:`RoundRecord` rows (see ``pairing.history``), one per round:
played games, forfeits, the pairing-allocated bye (PAB), and requested byes / missed rounds
(``ABSENT`` with the points received: 1 = full-point bye, ½ = half-point bye, 0 = zero-point bye or
not paired).

Unplayed rounds follow the regulations as FIDE's reference implementation (TEC-FIDE TieBreakServer)
reads them:

* A *voluntary unplayed round* (VUR, art. 16.1) is an unplayed round that did not bring a win's
  points: half- and zero-point byes, forfeit losses, rounds after a withdrawal. PAB, full-point
  byes and forfeit wins are not VURs.
* The participant's own unplayed rounds (byes and forfeits, in either direction) count in BH and
  SB as a game against a *dummy opponent* whose score equals the participant's own final score
  (art. 16.3); in SB it is multiplied by the points received in that round. In a round robin an
  unplayed round adds nothing.
* For an opponent's score in BH/SB (art. 16.4), the opponent's VURs after their last round that was
  not a VUR (i.e. after a withdrawal) count as draws; everything else counts as scored.
* Cut-1/Cut-2 remove the least significant values, a VUR first (art. 14.1/16.5); Median-1 also
  removes the highest value.

Fore Buchholz (FB, art. 8.3) is Buchholz with every game of the last round, played or forfeited,
counted as a draw (for the participant and his opponents); AOB (art. 8.2) averages the Buchholz
of the opponents met over the board (two decimals). PTP (art. 10.3) is the lowest whole rating
whose expected scores by FIDE's table reach the points scored against rated opponents (zero:
lowest opponent − 800; full score: highest + 800); APRO and APPO (art. 10.4, 10.5) average the
opponents' TPR and PTP, rounded half up. The TieBreakServer begun by FIDE's Technical Commission
(Otto Milvang's, with the rules of 2026) computes these, and the 2026 caps below, the same way.

WIN counts every round that brought a win's points, with or without playing (art. 7.1: forfeit
wins, PAB and full-point byes included); WON counts games won over the board only. BPG/BWG count
games played over the board with black (won with black). ARO/TPR use played games against rated
opponents; its Cut-1/2 and Median-1/2 drop the lowest (highest) rated opponents while every
game left was against a rated one (an unrated opponent is the first dropped). KS (Koya)
sums the points scored in each round against opponents with at least 50 % of the maximum score.
DE (direct encounter, art. 6) is computed within each group still tied on points and the preceding
tie-breaks. PS sums the cumulative score after each round; REP counts the rounds that were not VURs.

The 2026 edition changes:

* Own unplayed rounds (art. 16.4): the dummy opponent's score is the participant's own score,
  capped for a forfeit (won or lost) at the scheduled opponent's adjusted score (16.4.1), for any
  other unplayed round (PAB, byes, rounds after a withdrawal) at a draw's points times the number
  of rounds (16.4.2).
* Round robins (art. 15.2): a forfeit counts as the game it replaced in SB, KS and DE (against its
  scheduled opponent); only a forfeit loss stays unplayed for the participant's own counts (art. 7:
  WIN, WON, BPG, BWG, REP), and every forfeit for the rating tie-breaks (art. 10). The Buchholz
  family must not be used in a round robin (art. 8).
* Direct encounter (art. 6.1.2): two participants who met more than once add the average of their
  games. A Swiss forfeit stays out of DE (6.1.1).
* New tie-breaks that reduce drawing of lots: STD (standard points, art. 7.7: 1 for each round won,
  with or without playing, ½ for each drawn one; tournaments with 3/1/0 scoring are compared
  on 1/½/0), TPN (tournament pairing number, art. 7.8: the lower number first) and RTNG (rating,
  art. 10.6: the higher rating first).

Its parts: ``codes``, ``calculator``.
"""

from __future__ import annotations

from clubrating.tournaments.tiebreaks.calculator import Participant, StandingRow, compute_standings
from clubrating.tournaments.tiebreaks.codes import (
    CODES_2026,
    DRAW_POINTS,
    EDITION_2023,
    EDITION_2026,
    EDITION_2026_FROM,
    EDITIONS,
    NOT_IN_ROUND_ROBIN_2026,
    RECOMMENDED,
    RECOMMENDED_TEAM,
    SUPPORTED_CODES,
    TIEBREAK_PRESETS,
    WIN_POINTS,
    TiebreakSpec,
    UnknownTiebreak,
    decimals_for,
    edition_for,
    known_codes,
    parse_team_tiebreaks,
    parse_tiebreaks,
    split_code,
)

__all__ = [
    "CODES_2026",
    "DRAW_POINTS",
    "EDITIONS",
    "EDITION_2023",
    "EDITION_2026",
    "EDITION_2026_FROM",
    "NOT_IN_ROUND_ROBIN_2026",
    "Participant",
    "RECOMMENDED",
    "RECOMMENDED_TEAM",
    "SUPPORTED_CODES",
    "StandingRow",
    "TIEBREAK_PRESETS",
    "TiebreakSpec",
    "UnknownTiebreak",
    "WIN_POINTS",
    "compute_standings",
    "decimals_for",
    "edition_for",
    "known_codes",
    "parse_team_tiebreaks",
    "parse_tiebreaks",
    "split_code",
]
