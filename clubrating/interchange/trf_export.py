"""Export a tournament as FIDE TRF16 text (built from the database, written by the pure writer).

A running round (some of its games still without a result) is written as the round to be
paired, the one form TRF16, JaVaFo's TRF(x) and TRF-2026 give it: no result code means "paired,
not yet played", and pairing programs (bbpPairings, JaVaFo, py4swiss) refuse a game without one.
So its games are left out, its requested byes (H, F, Z: known before the pairing) kept, and its
pairing-allocated bye left to the pairing; a pairing program run on the file pairs that round, and
its pairing can be compared with the one published. The points column counts what is written.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection

from clubrating.clubs import privacy
from clubrating.clubs.models import Member, Sex
from clubrating.interchange.formats.trf import TrfGame, TrfPlayer, TrfTournament, write_trf
from clubrating.interchange.formats.trf.acceleration import acceleration_lines
from clubrating.interchange.formats.trf.settings import DUTCH, DUTCH_2025, TrfSettings, settings_lines
from clubrating.tournaments.acceleration import tournament_acceleration
from clubrating.tournaments.models import (
    BYE_SYMBOLS,
    RESULT_SYMBOLS,
    Acceleration,
    Bye,
    ByeKind,
    Game,
    PairingRules,
    Result,
    ResultChange,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.selectors import points_by_round, tiebreak_specs, tournament_standings

# Scored result -> (white code, black code), for rated and for unrated (W/D/L) games: the result
# symbols in TRF16's spelling ("=" a draw, "-" a forfeit loss).
_TRF_SPELLING = str.maketrans({"½": "=", "−": "-"})
_CODES = {result: (white.translate(_TRF_SPELLING), black.translate(_TRF_SPELLING))
          for result, (white, black) in RESULT_SYMBOLS.items()}
_UNRATED_CODES = {Result.WHITE_WINS: ("W", "L"), Result.BLACK_WINS: ("L", "W"), Result.DRAW: ("D", "D")}
_BYE_CODES = BYE_SYMBOLS
_KIND_TEXT = {
    TournamentKind.SWISS: "Individual: Swiss-System",
    TournamentKind.ROUND_ROBIN: "Individual: Round-Robin",
    TournamentKind.TEAM: "Team: Round-Robin",
    TournamentKind.CASUAL: "Individual: Casual games",
}


# TRF-2026's names of the editions of the Dutch system: the one approved in 2025 (C.04.3, applied
# from 1 February 2026) and the one before it.
_SYSTEM_NAMES = {PairingRules.DUTCH_2026: DUTCH_2025, PairingRules.DUTCH_2017: DUTCH}


def _settings(tournament: Tournament) -> TrfSettings:
    """The tournament's TRF-2026 settings: the pairing system and the first colour of a Swiss,
    the tie-breaks of every tournament (``192``, ``152``/``XXC``, ``202``). The system is the
    edition the tournament is paired by (``dutch_rules``: the one stored with it, else that of its
    start date), so that a file exported again pairs the same rounds."""
    swiss = tournament.kind == TournamentKind.SWISS
    pairing = _SYSTEM_NAMES[tournament.dutch_rules] if swiss else ""
    if pairing and tournament.acceleration == Acceleration.BAKU:
        pairing += "_BAKU"  # TRF-2026's name of the system with Baku acceleration (C.04.5.1)
    try:
        codes = ",".join(spec.label for spec in tiebreak_specs(tournament=tournament))
    except ValueError:  # a list the tournament's edition does not know is not exported
        codes = ""
    return TrfSettings(tournament.initial_colour if swiss else "", pairing, codes)


def _running_round(games: list[Game]) -> int | None:
    """The last round with a game still waiting for its result (the round being played)."""
    return max((g.round.number for g in games if g.result == Result.NOT_PLAYED), default=None)


def _registrations(
    tournament: Tournament, member_ids: set[int]
) -> dict[int, tuple[int, TournamentPlayer | None]]:
    """member id -> (start rank, registration); members who only appear in games or byes
    (casual games, data entered without registering) get the next free start ranks."""
    players = list(TournamentPlayer.objects.filter(tournament=tournament).select_related("member"))
    ranked = sorted((p for p in players if p.start_rank), key=lambda p: p.start_rank)
    unranked = sorted((p for p in players if not p.start_rank),
                      key=lambda p: (-(p.fide_rating or p.rating or 0), p.member.last_name, p.member_id))
    result: dict[int, tuple[int, TournamentPlayer | None]] = {p.member_id: (p.start_rank, p) for p in ranked}
    next_rank = max((p.start_rank for p in ranked), default=0)
    for player in unranked:
        next_rank += 1
        result[player.member_id] = (next_rank, player)
    for member_id in sorted(member_ids - result.keys()):
        next_rank += 1
        result[member_id] = (next_rank, None)
    return result


def _file_ranks(
    tournament: Tournament, registrations: dict[int, tuple[int, TournamentPlayer | None]],
    points: dict[int, float],
) -> dict[int, int] | None:
    """The organiser's ranks (``final_rank``, 0 = unranked) while they still describe the data:
    every player has one, no result was edited after it was entered, and no better rank has
    fewer points. Otherwise None (the ranks are computed)."""
    given = {
        member_id: reg.final_rank
        for member_id, (_rank, reg) in registrations.items() if reg and reg.final_rank is not None
    }
    if len(given) != len(registrations):
        return None
    if ResultChange.objects.filter(game__round__tournament=tournament).exclude(old_result="").exists():
        return None
    ranked = sorted((rank, -points[m]) for m, rank in given.items() if rank)
    if any(later < earlier for (_r1, earlier), (_r2, later) in zip(ranked, ranked[1:], strict=False)):
        return None
    return given


def _standings_ranks(
    tournament: Tournament, registrations: dict[int, tuple[int, TournamentPlayer | None]],
    points: dict[int, float],
) -> dict[int, int]:
    """Ranks from the tournament's standings (points, then its tie-breaks; remaining ties by start
    rank). Players outside the standings (no registration or start rank; unknown tie-break codes)
    fall back to points then start rank."""
    start_ranks = {member_id: rank for member_id, (rank, _reg) in registrations.items()}
    complete = all(reg and reg.start_rank for _rank, reg in registrations.values())
    try:
        rows = tournament_standings(tournament=tournament) if complete else []
    except ValueError:  # a tie-break code the calculator does not know
        rows = []
    if rows and {row.player.member_id for row in rows} == registrations.keys() and all(
        row.points == points[row.player.member_id] for row in rows
    ):
        order = [row.player.member_id for row in sorted(rows, key=lambda r: (r.rank, r.player.start_rank))]
    else:
        order = sorted(points, key=lambda member_id: (-points[member_id], start_ranks[member_id]))
    return {member_id: rank for rank, member_id in enumerate(order, start=1)}


def _team_lines(tournament: Tournament, start_ranks: dict[int, int]) -> list[str]:
    """TRF16 ``013`` lines of a team competition: team name in columns 5-36, then the start
    ranks of its players in columns 37-40, 42-45, ... (so a team tool can rebuild the teams)."""
    if tournament.kind != TournamentKind.TEAM:
        return []
    members: dict[int, list[int]] = defaultdict(list)
    for team_id, member_id in TournamentPlayer.objects.filter(
        tournament=tournament, team__isnull=False
    ).values_list("team_id", "member_id"):
        members[team_id].append(start_ranks[member_id])
    return [
        f"013 {team.name[:32]:<32}" + " ".join(f"{rank:>4}" for rank in sorted(members[team.pk]))
        for team in tournament.teams.order_by("start_rank", "name", "pk")
    ]


def tournament_export_trf(
    *, tournament: Tournament, shown: Callable[[Member], frozenset[str]] | None = None,
    team_lines: Callable[[dict[int, int]], list[str]] | None = None,
    hidden_games: Collection[int] = (),
) -> str:
    """The TRF16 text of ``tournament``: players, points, ranks, every round's games and byes.

    ``shown`` tells which of a player's fields the reader may see (``clubrating.clubs.privacy``);
    the others are left blank. Without it (officials, rating submissions) the file is complete.
    ``team_lines`` ({member id: start rank} -> lines) writes the team records instead of the
    ``013`` lines (a league division's TRF-2026 team section, ``league_trf``). ``hidden_games``
    (ids) are left out: a league division's games whose lineups are not public yet."""
    games = list(
        Game.objects.filter(round__tournament=tournament).exclude(pk__in=hidden_games).select_related("round")
    )
    byes = list(Bye.objects.filter(round__tournament=tournament).select_related("round"))
    involved = {g.white_id for g in games} | {g.black_id for g in games} | {b.member_id for b in byes}
    registrations = _registrations(tournament, involved)
    members = Member.objects.in_bulk(registrations.keys())
    start_ranks = {member_id: rank for member_id, (rank, _reg) in registrations.items()}
    entries: dict[int, list[TrfGame]] = defaultdict(list)
    running = _running_round(games)
    left_out: set[tuple[int, int]] = set()  # (member, round) whose points the file does not list
    for game in games:
        number = game.round.number
        if number == running or game.result == Result.NOT_PLAYED:
            left_out |= {(game.white_id, number), (game.black_id, number)}
            continue
        codes = (_UNRATED_CODES.get(game.result) if not game.rated else None) or _CODES[game.result]
        # A game imported without colours (a forfeit in an old file) is written without them again.
        white, black = ("w", "b") if game.has_colours else ("-", "-")
        entries[game.white_id].append(TrfGame(number, start_ranks[game.black_id], white, codes[0]))
        entries[game.black_id].append(TrfGame(number, start_ranks[game.white_id], black, codes[1]))
    for bye in byes:
        if bye.round.number == running and bye.kind == ByeKind.PAIRING:
            left_out.add((bye.member_id, running))
            continue
        entries[bye.member_id].append(TrfGame(bye.round.number, None, "-", _BYE_CODES[bye.kind]))
    points = points_by_round(tournament=tournament, ahead=True)  # the file lists those byes too
    totals = {member_id: sum(value for number, value in points.get(member_id, {}).items()
                             if (member_id, number) not in left_out)
              for member_id in registrations}
    ranks = (_file_ranks(tournament, registrations, totals)
             or _standings_ranks(tournament, registrations, totals))
    trf_players, team = [], tournament.kind == TournamentKind.TEAM
    for member_id, (start_rank, registration) in registrations.items():
        member = members[member_id]
        rating = (registration.fide_rating if registration else None) or member.fide_rating
        fields = privacy.ALL_FIELDS if shown is None else shown(member)
        trf_players.append(TrfPlayer(
            start_rank=start_rank,
            sex=("w" if member.sex == Sex.FEMALE else member.sex) if "sex" in fields else "",
            title=member.fide_title if "title" in fields else "",
            # A team competition's file lists each team's players: a name there tells his club.
            name=member.full_name if not team or privacy.name_beside_team_in(fields)
            else str(privacy.WITHHELD_NAME),
            rating=rating if "ratings" in fields else None,
            federation=member.federation if "club" in fields else "",
            fide_id=member.fide_id if "fide_id" in fields else None,
            birth_year=member.year_of_birth if privacy.BIRTH_YEAR in fields else None,
            birth_date=member.birth_date if "birth_date" in fields else None,
            points=totals[member_id], rank=ranks[member_id],
            results=sorted(entries[member_id], key=lambda g: g.round),
        ))
    round_dates = dict(tournament.rounds.values_list("number", "date"))
    played_rounds = max([*round_dates, *(g.round for e in entries.values() for g in e)], default=0)
    trf = TrfTournament(
        name=tournament.name, city=tournament.place, federation=tournament.federation,
        start_date=tournament.start_date, end_date=tournament.end_date,
        players_count=len(trf_players), rated_players_count=sum(1 for p in trf_players if p.rating),
        teams_count=tournament.teams.count() if tournament.kind == TournamentKind.TEAM else 0,
        kind=_KIND_TEXT.get(tournament.kind, ""), chief_arbiter=tournament.director,
        time_control=tournament.time_control,
        round_dates=[round_dates.get(n) for n in range(1, played_rounds + 1)],
        rounds=played_rounds, players=trf_players,
        # The planned number of rounds, so that a pairing program can continue the file: JaVaFo's
        # XXR and TRF-2026's 142 (mandatory for in-tournament data exchange).
        extra_lines=[
            *(team_lines(start_ranks) if team_lines else _team_lines(tournament, start_ranks)),
            f"XXR {tournament.rounds_count}",
            f"142 {tournament.rounds_count}",
            *settings_lines(_settings(tournament)),
            # The virtual points written out (TRF-2026 250), so that a program needs no rule of its own.
            *acceleration_lines(tournament_acceleration(tournament=tournament, players=[
                reg for _rank, reg in registrations.values() if reg and reg.start_rank])),
        ],
    )
    return write_trf(trf)
