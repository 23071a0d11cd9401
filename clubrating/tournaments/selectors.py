"""Reads for the tournament pages, the standings command and the pairing service.

Each selector runs a fixed number of queries (players, games, byes, ...), whatever the size of the
tournament; the per-player work happens in Python on those rows.
"""

from __future__ import annotations

import functools
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.core.db import plain_rows, server_bound
from clubrating.tournaments import team_table
from clubrating.tournaments.models import (
    BYE_SYMBOLS,
    PLAYED_RESULTS,
    RESULT_POINTS,
    RESULT_SYMBOLS,
    Bye,
    ByeKind,
    Game,
    LineupEntry,
    Result,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.berger import rounds_count
from clubrating.tournaments.pairing.history import (
    ABSENT,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    PAB,
    PLAYED,
    RoundRecord,
)
from clubrating.tournaments.team_table import MatchResult, division_table
from clubrating.tournaments.tiebreaks import (
    RECOMMENDED_TEAM,
    Participant,
    TiebreakSpec,
    UnknownTiebreak,
    compute_standings,
    parse_team_tiebreaks,
    parse_tiebreaks,
)

__all__ = [
    "BoardRow",
    "CrosstableRow",
    "StandingRow",
    "MatchScore",
    "TeamStandingRow",
    "finished_q",
    "last_paired_round_number",
    "match_score",
    "paired_round_q",
    "pairings_version",
    "round_pair_check",
    "player_histories",
    "round_pairings",
    "team_match_rounds",
    "team_standings",
    "team_tiebreak_codes",
    "tournament_crosstable",
    "tournament_finished",
    "unpairable_round",
    "tournament_standings",
    "tiebreak_specs",
    "tournament_tables",
    "tournament_counts",
    "tournament_version",
    "entrant_counts",
    "current_round",
]


def _players(tournament: Tournament) -> list[TournamentPlayer]:
    # The members by key, not joined: PostgreSQL joins a tournament's players to all members of
    # a big federation by a sequential scan (20,000 rows read for 300 players).
    players = list(tournament.players.order_by("start_rank", "pk"))
    members = Member.objects.select_related("club").in_bulk({p.member_id for p in players})
    for player in players:
        player.member = members[player.member_id]
    return players


def paired_round_q() -> Q:
    """Rounds that are paired: they have games, a pairing-allocated bye or team matches (a team
    round has its matches before any lineup, hence before any game). A round that only holds
    requested byes (``services.bye_request`` creates it ahead of the pairing) is not paired."""
    return Q(games__isnull=False) | Q(byes__kind=ByeKind.PAIRING) | Q(team_matches__isnull=False)


def rounds_planned(tournament: Tournament) -> int:
    """The number of rounds: a round robin's follows from its players (FIDE C.05 Annex 1: n - 1
    rounds for n even, n for n odd, twice that in a double round robin), a team competition's
    from its teams; a Swiss has the number the director chose."""
    if tournament.kind == TournamentKind.ROUND_ROBIN:
        entrants = tournament.players.count()
    elif tournament.kind == TournamentKind.TEAM:
        entrants = tournament.teams.count()
    else:
        return tournament.rounds_count
    return max(1, rounds_count(entrants, double=tournament.double_round_robin)) if entrants >= 2 else 1


def finished_q() -> Q:
    """Tournaments that are finished: the last of their rounds is paired and every game has its
    result (a team round also needs its matches' lineups). Casual games never finish by rounds.
    A condition on ``Tournament`` for filters and annotations (the start page, the list)."""
    last_paired = Round.objects.filter(
        paired_round_q(), tournament=OuterRef("pk"), number=OuterRef("rounds_count"))
    open_game = Game.objects.filter(round__tournament=OuterRef("pk"), result=Result.NOT_PLAYED)
    match_without_games = TeamMatch.objects.filter(round__tournament=OuterRef("pk"), games__isnull=True)
    return (~Q(kind=TournamentKind.CASUAL) & Q(Exists(last_paired)) & ~Q(Exists(open_game))
            & ~Q(Exists(match_without_games)))


def _count_of(model, **filters):
    """``model``'s rows of the outer tournament, counted along the index of their tournament."""
    return Coalesce(Subquery(
        model.objects.filter(tournament=OuterRef("pk"), **filters).order_by()
        .values("tournament").annotate(n=Count("pk")).values("n")[:1]), 0)


def entrant_counts() -> dict:
    """Annotations of ``Tournament``: ``player_count`` and ``team_count`` (a team competition
    counts its teams). Each is a count per tournament along an index, so a page of tournaments
    reads its own players only; grouping by joined players and teams would read players × teams
    rows of every tournament before the page is cut (PostgreSQL evaluates these subqueries for the
    rows a ``LIMIT`` keeps)."""
    return {"player_count": _count_of(TournamentPlayer), "team_count": _count_of(Team)}


def current_round() -> Subquery:
    """Annotation of ``Tournament``: the round being played, the first with a game still without
    result (a round robin is paired whole in advance), else the last; None before any round.
    Along the rounds' index and the index of the games without result."""
    rounds = Round.objects.filter(tournament=OuterRef("pk")).values("number")
    return Coalesce(
        Subquery(rounds.filter(Exists(Game.objects.filter(round=OuterRef("pk"), result=Result.NOT_PLAYED)))
                 .order_by("number")[:1]),
        Subquery(rounds.order_by("-number")[:1]),
    )


def tournament_counts(*, ids: list[int]) -> dict[int, tuple]:
    """{tournament id: (player_count, team_count, league division id or None, current round or
    None)} of the tournaments ``ids`` (a page's few): one query whose work follows their own
    players and rounds (``entrant_counts``, ``current_round``)."""
    if not ids:
        return {}
    rows = (Tournament.objects.filter(pk__in=ids)
            .annotate(**entrant_counts(), current=current_round())
            .values_list("pk", "player_count", "team_count", "division__id", "current"))
    return {pk: tuple(rest) for pk, *rest in rows}


def tournament_finished(*, tournament: Tournament) -> bool:
    """Whether ``tournament`` is finished (``finished_q``). One query."""
    return Tournament.objects.filter(finished_q(), pk=tournament.pk).exists()


def unpairable_round(*, tournament: Tournament) -> Round | None:
    """The round whose pairing "undo the pairing" removes: the last paired round, while none of
    its games has a result (``services.round_unpair`` refuses otherwise). None if there is none."""
    rnd = tournament.rounds.filter(paired_round_q()).distinct().order_by("-number").first()
    if rnd is None or rnd.games.exclude(result=Result.NOT_PLAYED).exists():
        return None
    return rnd


def last_paired_round_number(*, tournament: Tournament) -> int:
    """The number of the last paired round, 0 before round 1 is paired."""
    return (
        Round.objects.filter(tournament=tournament).filter(paired_round_q())
        .aggregate(last=Max("number"))["last"] or 0
    )


@dataclass(frozen=True)
class PairCheck:
    """Whether the next round can be paired: its number, or the translated reason it cannot."""

    number: int
    last_paired: int
    total: int
    refusal: str = ""
    missing_results: int = 0

    @property
    def all_paired(self) -> bool:
        """Every round of the tournament is paired: there is no next round to pair or date."""
        return self.number > self.total


def round_pair_check(*, tournament: Tournament) -> PairCheck:
    """The next round's number and what stands in the way of pairing it (the pairing service
    refuses with this reason; the pairing page shows it before the button is pressed)."""
    last_paired = last_paired_round_number(tournament=tournament)
    number = last_paired + 1
    total = rounds_planned(tournament)
    if number > total:
        return PairCheck(number, last_paired, total,
                         _("All %(count)d rounds are paired already.") % {"count": total})
    # A Swiss pairs on the scores: every game of the last round needs its result first.
    missing = 0
    if last_paired and tournament.kind == TournamentKind.SWISS:
        missing = Game.objects.filter(
            round__tournament=tournament, round__number=last_paired, result=Result.NOT_PLAYED
        ).count()
    if missing:
        return PairCheck(number, last_paired, total,
                         _("Round %(number)d still has games without a result.") % {"number": last_paired},
                         missing_results=missing)
    return PairCheck(number, last_paired, total)


def pairings_version(*, tournament: Tournament, round_number: int | None = None) -> tuple[str, bool]:
    """(version, running) of a round's pairings (or of all rounds): the version changes whenever a
    board, a result or a bye changes, so a spectator's page asks for the fragment again only then;
    running says whether any game still waits for its result. Two small queries; for all rounds
    the tournament's version (``tournament_version``), which its cached pages read anyway."""
    if round_number is None:
        return _tournament_state(tournament)
    games = Game.objects.filter(round__tournament=tournament, round__number=round_number)
    byes = Bye.objects.filter(round__tournament=tournament, round__number=round_number)
    rows = list(games.order_by("pk").values_list("pk", "board", "white_id", "black_id", "result"))
    rows += list(byes.order_by("pk").values_list("pk", "member_id", "kind"))
    running = any(len(row) == 5 and row[4] == Result.NOT_PLAYED for row in rows)
    return hashlib.sha1(repr(rows).encode()).hexdigest()[:16], running


def tournament_version(*, tournament: Tournament) -> str:
    """A version of everything the tournament's pages show of its own rows: the tournament, its
    rounds, games, byes, players, teams, matches and lineups. It changes with any of them, by
    whatever route (the services, an import, the admin), so a page cached under it is never
    stale; the members' names and clubs are another version (``club_data_version``). Plain rows
    read along the tournament's indexes: a few milliseconds for a 300-player Swiss."""
    return _tournament_state(tournament)[0]


def _tournament_state(tournament: Tournament) -> tuple[str, bool]:
    """(``tournament_version``, whether a game waits for its result), read once per instance:
    a page asks for both (its live check and its cached tables)."""
    memo = getattr(tournament, "_version_state", None)
    if memo is not None:
        return memo
    tid = tournament.pk
    games = list(Game.objects.filter(round__tournament_id=tid).order_by("pk").values_list(
        "pk", "round_id", "board", "white_id", "black_id", "result", "rated_result", "rated",
        "has_colours", "date", "team_match_id"))
    parts = [
        [getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields],  # as read by the page
        list(Round.objects.filter(tournament_id=tid).order_by("pk").values_list("pk", "number", "date")),
        games,
        list(Bye.objects.filter(round__tournament_id=tid).order_by("pk").values_list(
            "pk", "round_id", "member_id", "kind")),
        list(TournamentPlayer.objects.filter(tournament_id=tid).order_by("pk").values_list(
            "pk", "member_id", "start_rank", "rating", "fide_rating", "team_id", "final_rank",
            "withdrawn_from_round")),
    ]
    if tournament.kind == TournamentKind.TEAM:
        parts += [
            list(Team.objects.filter(tournament_id=tid).order_by("pk").values_list()),
            list(TeamMatch.objects.filter(round__tournament_id=tid).order_by("pk").values_list()),
            list(LineupEntry.objects.filter(match__round__tournament_id=tid).order_by("pk").values_list()),
        ]
    running = any(row[5] == Result.NOT_PLAYED for row in games)
    tournament._version_state = (hashlib.sha1(repr(parts).encode()).hexdigest()[:20], running)
    return tournament._version_state


PENDING = "pending"  # paired, no result yet (crosstable only; standings ignore such games)


def _records_by_member(
    tournament: Tournament, last_round: int | None, pending: bool = False, ahead: bool = False
) -> tuple[dict, int]:
    """{member_id: {round: RoundRecord}} from one query for games and one for byes; with ``ahead``
    also the byes requested for rounds not paired yet."""
    games = Game.objects.filter(round__tournament=tournament).values_list(
        "round__number", "white_id", "black_id", "result", "has_colours"
    )
    byes = Bye.objects.filter(round__tournament=tournament).values_list("round__number", "member_id", "kind")
    if last_round is not None:
        games = games.filter(round__number__lte=last_round)
        byes = byes.filter(round__number__lte=last_round)
    records: dict[int, dict[int, RoundRecord]] = defaultdict(dict)
    rounds = 0
    for number, white, black, result, has_colours in games:
        rounds = max(rounds, number)
        # A game imported without colours has none in the history either.
        w, b = ("w", "b") if has_colours else (None, None)
        if result in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS):
            pw, pb = RESULT_POINTS[result]
            records[white][number] = RoundRecord(PLAYED, pw, black, w)
            records[black][number] = RoundRecord(PLAYED, pb, white, b)
        elif result == Result.WHITE_FORFEIT_WIN:
            records[white][number] = RoundRecord(FORFEIT_WIN, 1.0, black, w)
            records[black][number] = RoundRecord(FORFEIT_LOSS, 0.0, white, b)
        elif result == Result.BLACK_FORFEIT_WIN:
            records[white][number] = RoundRecord(FORFEIT_LOSS, 0.0, black, w)
            records[black][number] = RoundRecord(FORFEIT_WIN, 1.0, white, b)
        elif result == Result.DOUBLE_FORFEIT:
            records[white][number] = RoundRecord(FORFEIT_LOSS, 0.0, black, w)
            records[black][number] = RoundRecord(FORFEIT_LOSS, 0.0, white, b)
        elif pending:
            records[white][number] = RoundRecord(PENDING, 0.0, black, w)
            records[black][number] = RoundRecord(PENDING, 0.0, white, b)
        # Otherwise a game without result yet counts as nothing (the round is still running).
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
    *, tournament: Tournament, after_round: int | None = None, ahead: bool = False
) -> dict[int, dict[int, float]]:
    """{member id: {round number: points}}: every game with a result and every bye of a paired
    round (with ``ahead`` also the byes already granted for later rounds, which a TRF file counts),
    the one tally of points the standings, crosstables, pairings and the TRF export read.
    Two queries."""
    records, _rounds = _records_by_member(tournament, after_round, ahead=ahead)
    return {member: {number: rec.points for number, rec in rounds.items()}
            for member, rounds in records.items()}


def player_histories(
    tournament: Tournament, players: list[TournamentPlayer], *, before_round: int
) -> dict[int, list[RoundRecord]]:
    """Every player's rounds 1..before_round-1 keyed by starting rank (the Swiss pairing input)."""
    records, _rounds = _records_by_member(tournament, before_round - 1)
    return _by_rank(players, records, before_round - 1)


# --- standings ------------------------------------------------------------------------------------


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
    *, tournament: Tournament, codes: list[str] | str | None = None, after_round: int | None = None
) -> list[StandingRow]:
    """Ranked players with the tie-breaks ``codes`` (default: the tournament's own list).

    Raises ``UnknownTiebreak`` with the offending code when a code is unknown. Four queries."""
    specs = tiebreak_specs(tournament=tournament, codes=codes)
    players = _players(tournament)
    records, rounds = _records_by_member(tournament, after_round)
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


# --- pairings and crosstable ----------------------------------------------------------------------


@dataclass
class BoardRow:
    board: int
    white: TournamentPlayer | None
    black: TournamentPlayer | None  # None for a bye
    result: str
    game: Game | None = None
    bye_kind: str = ""


def round_pairings(*, round: Round) -> list[BoardRow]:  # noqa: A002 - the model's name
    """The boards of a round, then its byes (pairing-allocated first). Three queries."""
    players = {p.member_id: p for p in round.tournament.players.select_related("member")}
    rows = [
        BoardRow(g.board, players.get(g.white_id), players.get(g.black_id), g.result, game=g)
        for g in round.games.select_related("white", "black").order_by("board")
    ]
    byes = sorted(round.byes.all(), key=lambda b: (b.kind != ByeKind.PAIRING, b.member_id))
    board = max((r.board for r in rows), default=0)
    for offset, bye in enumerate(byes, start=1):
        rows.append(BoardRow(board + offset, players.get(bye.member_id), None, "", bye_kind=bye.kind))
    return rows


@dataclass
class CrosstableCell:
    round: int
    opponent: int | None  # opponent's starting rank
    colour: str  # "w", "b" or "" (bye / not paired)
    points: float | None  # None when not paired or not yet played
    code: str  # "1", "½", "0", "+", "−", "H", "F", "U" or "" (``_CODES``)


@dataclass
class CrosstableRow:
    player: TournamentPlayer
    points: float
    cells: list[CrosstableCell] = field(default_factory=list)


# A round seen from one player, from the one table of symbols: a played game's points, a forfeit,
# a bye (a zero-point bye or a round not paired shows nothing).
_CODES = {
    **{(PLAYED, RESULT_POINTS[result][0]): RESULT_SYMBOLS[result][0] for result in PLAYED_RESULTS},
    (FORFEIT_WIN, 1.0): RESULT_SYMBOLS[Result.WHITE_FORFEIT_WIN][0],
    (FORFEIT_LOSS, 0.0): RESULT_SYMBOLS[Result.WHITE_FORFEIT_WIN][1],
    (PAB, 1.0): BYE_SYMBOLS[ByeKind.PAIRING], (ABSENT, 1.0): BYE_SYMBOLS[ByeKind.FULL],
    (ABSENT, 0.5): BYE_SYMBOLS[ByeKind.HALF], (ABSENT, 0.0): "",
}


def tournament_crosstable(*, tournament: Tournament) -> list[CrosstableRow]:
    """Per player (starting-rank order) and round: opponent, colour, result. Four queries."""
    players = _players(tournament)
    records, rounds = _records_by_member(tournament, None, pending=True)
    return _crosstable_rows(players, records, rounds)


def _crosstable_rows(players: list[TournamentPlayer], records: dict, rounds: int) -> list[CrosstableRow]:
    by_rank = _by_rank(players, records, rounds)
    rows = []
    for p in players:
        own = records.get(p.member_id) or {}
        cells = []
        for number, rec in enumerate(by_rank[p.start_rank], start=1):
            known = number in own and rec.kind != PENDING
            cells.append(CrosstableCell(
                number, rec.opponent, rec.colour or "", rec.points if known else None,
                _CODES.get((rec.kind, rec.points), "") if known else "",
            ))
        rows.append(CrosstableRow(p, sum(r.points for r in by_rank[p.start_rank]), cells))
    return rows


def tournament_tables(
    *, tournament: Tournament, codes: list[str] | str | None = None
) -> tuple[list[StandingRow], list[CrosstableRow]]:
    """``tournament_standings`` and ``tournament_crosstable`` together (the crosstable page shows
    both) from one read of the players and the results. Raises ``UnknownTiebreak`` like the
    standings. Four queries."""
    specs = tiebreak_specs(tournament=tournament, codes=codes)
    players = _players(tournament)
    records, rounds = _records_by_member(tournament, None, pending=True)
    standings = _standing_rows(tournament, players, records, rounds, specs)
    return standings, _crosstable_rows(players, records, rounds)


# --- teams ----------------------------------------------------------------------------------------


@dataclass
class MatchBoard:
    board: int
    home: Member | None
    away: Member | None
    game: Game | None
    home_white: bool | None  # None until the game exists
    points: tuple[float, float] | None  # (home, away); None until the game has a result

    @property
    def result(self) -> str:
        """From the home team's side, e.g. "½–½", "+–−"; "" while not played."""
        if self.points is None:
            return ""
        if self.game is None:  # an empty board, lost by forfeit
            return "+–−" if self.points[0] else "−–+"
        white, black = RESULT_SYMBOLS[self.game.result]
        return f"{white}–{black}" if self.home_white else f"{black}–{white}"


@dataclass
class MatchScore:
    match: TeamMatch
    boards: list[MatchBoard]
    home_points: float
    away_points: float
    finished: bool  # every game of the match has a result

    @property
    def scored(self) -> bool:
        """Whether any board has a result yet (before, the score is not 0 : 0 but none)."""
        return self.finished or any(board.points is not None for board in self.boards)


def match_score(match: TeamMatch, *, over: bool = False) -> MatchScore:
    """The boards of a match from the home team's side and the board points of both teams.

    ``over``: the match is over (a league match whose result was entered), so a board where only
    one team had a player is won by that team by forfeit, and the match counts as finished even
    if a team lined up nobody (FIDE team practice: an empty board is lost by default).

    Reads ``match.lineup`` (with members) and ``match.games`` as prefetched by the caller."""
    lineup = list(match.lineup.all())
    home = {e.board: e.member for e in lineup if e.team_id == match.home_team_id}
    away = {e.board: e.member for e in lineup if e.team_id == match.away_team_id}
    home_ids = {e.member_id for e in lineup if e.team_id == match.home_team_id}
    offset = (match.number - 1) * match.boards  # services.lineup_set numbers the games so
    games = {g.board - offset: g for g in match.games.all()}
    boards, home_points, away_points = [], 0.0, 0.0
    for board in range(1, match.boards + 1):
        game = games.get(board)
        home_white = None if game is None else game.white_id in home_ids
        points = None
        if game is not None and game.result != Result.NOT_PLAYED:
            white, black = RESULT_POINTS[game.result]
            points = (white, black) if home_white else (black, white)
        elif game is None and over and (board in home) != (board in away):
            points = (1.0, 0.0) if board in home else (0.0, 1.0)
        if points is not None:
            home_points += points[0]
            away_points += points[1]
        boards.append(MatchBoard(board, home.get(board), away.get(board), game, home_white, points))
    finished = (bool(games) or over) and all(g.result != Result.NOT_PLAYED for g in games.values())
    return MatchScore(match, boards, home_points, away_points, finished)


def _team_matches() -> QuerySet[TeamMatch]:
    return TeamMatch.objects.select_related("home_team", "away_team").prefetch_related(
        Prefetch("lineup", queryset=LineupEntry.objects.select_related("member")), "games",
    )


def team_match_rounds(*, tournament: Tournament) -> list[tuple[Round, list[MatchScore]]]:
    """The rounds that have team matches, each with its scored matches. Four queries."""
    rounds = (
        tournament.rounds.filter(team_matches__isnull=False).distinct().order_by("number")
        .prefetch_related(Prefetch("team_matches", queryset=_team_matches().order_by("number")))
    )
    return [(rnd, [match_score(m) for m in rnd.team_matches.all()]) for rnd in rounds]


@dataclass
class TeamStandingRow:
    rank: int
    team: Team
    match_points: int
    board_points: float
    sonneborn_berger: float
    # The team tie-breaks' values in the order of ``team_tiebreak_codes`` (None: a direct
    # encounter that did not apply to the team).
    tiebreaks: list[float | None] = field(default_factory=list)


def team_tiebreak_codes(*, tournament: Tournament) -> list[str]:
    """The team competition's team tie-breaks in its order (FIDE C.07 team codes); a list that
    cannot be read (stored before the check) falls back to what every team competition had."""
    try:
        return parse_team_tiebreaks(tournament.team_tiebreaks)
    except UnknownTiebreak:
        return parse_team_tiebreaks(RECOMMENDED_TEAM)


def team_standings(*, tournament: Tournament) -> list[TeamStandingRow]:
    """Match points (2 win, 1 draw), then the tournament's team tie-breaks in its order
    (``team_tiebreak_codes``: game points, the extended Sonneborn-Berger, direct encounter, matches
    won), ranked by the one team-table engine (``team_table``, a league's too); teams equal on
    all share the rank. Board points and team Sonneborn-Berger (EMGSB) come with every row.
    Four queries."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("start_rank", "name"))
    results = []
    for match in _team_matches().filter(round__tournament=tournament):
        scored = match_score(match)
        if scored.finished:
            results.append(MatchResult(match.home_team_id, match.away_team_id, tuple(
                board.points or (0.0, 0.0) for board in scored.boards)))
    by_pk = {team.pk: team for team in teams}
    criteria = [team_table.TEAM_TIEBREAKS[code] for code in team_tiebreak_codes(tournament=tournament)]
    table = division_table([team.pk for team in teams], results,
                           criteria=(team_table.MATCH_POINTS, *criteria))
    return [TeamStandingRow(row.rank, by_pk[row.team], int(row.match_points), row.board_points, row.sonneborn,
                            [row.criteria[criterion] for criterion in criteria])
            for row in table]


# --- one board of the result entry -------------------------------------------------------------------


def board_game(*, tournament_id: int, number: int, game_pk: int) -> Game:
    """The game ``game_pk`` of round ``number`` of the tournament, with its players, round and
    tournament (``Game.DoesNotExist`` if there is none). On PostgreSQL one prepared statement,
    built once: each saved board reads it, and the ORM took longer to build the query than the
    database to answer. (None of these models' fields converts what PostgreSQL returns.)"""
    if not server_bound():
        return Game.objects.select_related("white", "black", "round__tournament").get(
            pk=game_pk, round__tournament_id=tournament_id, round__number=number
        )
    rows = plain_rows(_board_sql(), [game_pk, tournament_id, number])
    if not rows:
        raise Game.DoesNotExist(f"Game {game_pk} does not exist.")
    row = rows[0]
    objs = []
    for model in _BOARD_MODELS:
        names = [f.attname for f in model._meta.concrete_fields]
        objs.append(model.from_db(connection.alias, names, row[: len(names)]))
        row = row[len(names):]
    game, rnd, tournament, white, black = objs
    rnd.tournament = tournament
    game.round, game.white, game.black = rnd, white, black
    return game


_BOARD_MODELS = (Game, Round, Tournament, Member, Member)


@functools.cache
def _board_sql() -> str:
    quote = connection.ops.quote_name
    aliases = ("g", "r", "t", "w", "b")
    columns = ", ".join(
        f"{alias}.{quote(f.column)}" for model, alias in zip(_BOARD_MODELS, aliases)
        for f in model._meta.concrete_fields
    )
    member = Member._meta.db_table
    return (
        f"SELECT {columns} FROM {Game._meta.db_table} AS g "
        f"JOIN {Round._meta.db_table} AS r ON r.id = g.round_id "
        f"JOIN {Tournament._meta.db_table} AS t ON t.id = r.tournament_id "
        f"JOIN {member} AS w ON w.id = g.white_id JOIN {member} AS b ON b.id = g.black_id "
        "WHERE g.id = %s AND r.tournament_id = %s AND r.number = %s"
    )
