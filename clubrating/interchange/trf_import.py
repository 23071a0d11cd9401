"""Import a FIDE TRF16 file (Swiss-Manager, JaVaFo ...) as a tournament with its results.

Everything is checked in memory first and then written in one transaction, so a refused
file changes nothing. How round entries become games and byes:

* ``n w 1`` / ``0`` / ``=`` played games; ``+`` / ``-`` forfeits (``+-``, ``-+``, ``--``);
  ``W`` / ``D`` / ``L`` played results that must not be rated (``rated=False``).
* ``0000 - H`` half-point bye, ``F`` full-point bye, ``U`` pairing-allocated bye,
  ``Z`` zero-point bye. Legacy codings: ``0000 - +`` (Swiss-Manager's old pairing bye) is
  a pairing-allocated bye, ``0000 - -`` (unpaired, scoring nothing) a zero-point bye.
* A blank round (late entry, withdrawal) creates nothing; the export writes it blank again.
* A game against a dummy "spielfrei" player is that player's pairing-allocated bye; the
  dummy itself is not a member (the report lists it as refused).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.matching import Identity, MemberMatcher, split_name
from clubrating.clubs.models import Member, Sex
from clubrating.interchange.formats.trf import (
    TrfError,
    TrfGame,
    TrfPlayer,
    TrfTournament,
    national_ratings,
    parse_trf,
    read_trf,
)
from clubrating.interchange.formats.trf.settings import trf_settings
from clubrating.tournaments.models import (
    Acceleration,
    Bye,
    ByeKind,
    Game,
    GameCategory,
    Result,
    Round,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.trf_pairing import file_edition
from clubrating.tournaments.tiebreaks import RECOMMENDED, UnknownTiebreak, edition_for, parse_tiebreaks

from .errors import ImportRefused, ambiguous_member
from .formats.limits import LENGTHS
from .refusals import file_error, trf_refused
from .results import results_record
from .titles import title_code

# (white code, black code) -> (scored result, rated flag)
_GAME_RESULTS: dict[tuple[str, str], tuple[str, bool]] = {
    ("1", "0"): (Result.WHITE_WINS, True),
    ("0", "1"): (Result.BLACK_WINS, True),
    ("=", "="): (Result.DRAW, True),
    ("+", "-"): (Result.WHITE_FORFEIT_WIN, True),
    ("-", "+"): (Result.BLACK_FORFEIT_WIN, True),
    ("-", "-"): (Result.DOUBLE_FORFEIT, True),
    ("W", "L"): (Result.WHITE_WINS, False),
    ("L", "W"): (Result.BLACK_WINS, False),
    ("D", "D"): (Result.DRAW, False),
    ("", ""): (Result.NOT_PLAYED, True),
}
# Round entries without an opponent.
_BYE_CODES = {
    "H": ByeKind.HALF, "=": ByeKind.HALF, "D": ByeKind.HALF,
    "F": ByeKind.FULL,
    "U": ByeKind.PAIRING, "+": ByeKind.PAIRING, "1": ByeKind.PAIRING, "W": ByeKind.PAIRING,
    "Z": ByeKind.ZERO, "-": ByeKind.ZERO, "0": ByeKind.ZERO, "L": ByeKind.ZERO,
}


@dataclass
class ImportReport:
    tournament: Tournament
    matched: list[tuple[int, Member]] = field(default_factory=list)  # (start rank, member)
    created: list[tuple[int, Member]] = field(default_factory=list)  # new guests
    refused: list[tuple[int, int, str]] = field(default_factory=list)  # (start rank, line, why)
    games: int = 0
    forfeits: int = 0
    unrated: int = 0  # played results coded W/D/L
    byes: Counter = field(default_factory=Counter)  # ByeKind -> count
    rounds: int = 0  # rounds created

    def _counts(self) -> dict:
        return {
            "name": self.tournament.name, "players": len(self.matched) + len(self.created),
            "matched": len(self.matched), "created": len(self.created), "refused": len(self.refused),
            "rounds": self.rounds, "games": self.games, "forfeits": self.forfeits,
            "unrated": self.unrated, "byes": sum(self.byes.values()),
        }

    def summary(self) -> str:
        return _(
            "Imported %(name)s: %(players)d players (%(matched)d matched, %(created)d new guests, "
            "%(refused)d refused), %(rounds)d rounds, %(games)d games (%(forfeits)d forfeits, "
            "%(unrated)d unrated), %(byes)d byes."
        ) % self._counts()

    def preview(self) -> str:
        """The summary before confirming: nothing is saved yet."""
        return _(
            "%(name)s will be imported: %(players)d players (%(matched)d matched, %(created)d new "
            "guests, %(refused)d refused), %(rounds)d rounds, %(games)d games (%(forfeits)d forfeits, "
            "%(unrated)d unrated), %(byes)d byes."
        ) % self._counts()

    def plain(self) -> dict:
        """The report as plain data, safe to read after a preview's rollback."""
        return {
            "summary": self.summary(),
            "preview": self.preview(),
            "matched": [f"{rank}. {member.full_name}" for rank, member in self.matched],
            "created": [f"{rank}. {member.full_name}" for rank, member in self.created],
            "refused": [
                _("Line %(line)d: player %(rank)d (%(why)s)") % {"line": line, "rank": rank, "why": why}
                for rank, line, why in self.refused
            ],
            "tournament_url": self.tournament.get_absolute_url(),
        }


def _refuse(line_no: int, message: str) -> ImportRefused:
    return ImportRefused(_("Line %(line)d: %(message)s") % {"line": line_no, "message": message})


def _settings(trf: TrfTournament, kind: str, edition: str) -> dict:
    """The file's first colour (XXC, TRF-2026 152) and tie-breaks (TRF-2026 202), where given. A
    tie-break list with a code the tournament's edition of C.07 does not know is not taken: the
    tournament gets the list recommended for its system, which the director can change."""
    settings = trf_settings(trf.extra_lines)
    values = {"tiebreaks": RECOMMENDED[kind]}
    if settings.initial_colour and kind == TournamentKind.SWISS:
        values["initial_colour"] = settings.initial_colour
    if settings.pairing_system.endswith("_BAKU") and kind == TournamentKind.SWISS:
        values["acceleration"] = Acceleration.BAKU
    if settings.pairing_system and kind == TournamentKind.SWISS:
        # The edition the file names is kept, so that the tournament pairs as it was paired.
        values["pairing_rules"] = file_edition(trf)
    if settings.tiebreaks:
        try:
            specs = parse_tiebreaks(settings.tiebreaks, edition,
                                    round_robin=kind == TournamentKind.ROUND_ROBIN)
        except UnknownTiebreak:
            specs = []
        if specs:
            values["tiebreaks"] = ",".join(spec.label for spec in specs)
    return values


def _kind(text: str) -> str:
    text = text.lower()
    if any(word in text for word in ("robin", "rundenturnier", "berger", "round-robin")):
        return TournamentKind.ROUND_ROBIN
    return TournamentKind.SWISS


@dataclass
class _Plan:
    """Everything the file says, checked, before a single row is written."""

    # round -> [(white, black, result, rated, colours given)]
    games: dict[int, list[tuple[int, int, str, bool, bool]]] = field(default_factory=dict)
    byes: list[tuple[int, int, str]] = field(default_factory=list)  # (round, start rank, kind)


def _pair(player: TrfPlayer, game: TrfGame, other: TrfPlayer) -> tuple[int, int, str, bool, bool]:
    """The game of ``player`` against ``other`` in ``game.round`` as (white, black, result, rated,
    colours given); the reader has checked that both lines agree (``formats.trf.checks``)."""
    theirs = next(g for g in other.results if g.round == game.round)
    colours = (game.colour, theirs.colour)
    # Without colours (forfeits in old files) the lower start rank is recorded as white, and the
    # game as having no colours, so that an export writes none either.
    white, black = (game, theirs) if game.colour != "b" else (theirs, game)
    white_rank, black_rank = ((player, other) if white is game else (other, player))
    mapped = _GAME_RESULTS[(white.result, black.result)]
    return white_rank.start_rank, black_rank.start_rank, mapped[0], mapped[1], colours != ("-", "-")


def _plan(trf: TrfTournament) -> _Plan:
    plan = _Plan()
    by_rank = {p.start_rank: p for p in trf.players}
    for player in trf.players:
        if player.is_dummy:
            continue
        for game in player.results:
            if game.opponent is None:
                if game.result:
                    plan.byes.append((game.round, player.start_rank, _BYE_CODES[game.result]))
                continue
            other = by_rank[game.opponent]  # the reader has checked that it exists
            if other.is_dummy:
                plan.byes.append((game.round, player.start_rank, _BYE_CODES.get(game.result, "")
                                  or ByeKind.ZERO))
                continue
            paired = _pair(player, game, other)
            if player.start_rank < other.start_rank:
                plan.games.setdefault(game.round, []).append(paired)
    return plan


def _member_for(player: TrfPlayer, national_id: str) -> Member:
    last, first = split_name(player.name)
    sex = {"m": Sex.MALE, "w": Sex.FEMALE, "f": Sex.FEMALE}.get(player.sex, "")
    return Member(
        last_name=last, first_name=first, sex=sex, birth_date=player.birth_date,
        birth_year=None if player.birth_date else player.birth_year, club=None,
        national_id=national_id, fide_id=player.fide_id, fide_rating=player.rating,
        fide_title=title_code(player.title),
        # Blank in the file stays blank: an unknown federation, not the club's.
        federation=player.federation.strip().upper()[:3],
        # A player the club does not know is a guest (in no club, not active), not a club member.
        active=False,
    )


def _day(day: date) -> str:
    """A date in the UI's format (22.11.2026 in German)."""
    return date_format(day, "SHORT_DATE_FORMAT")


def _check_dates(trf: TrfTournament) -> tuple[date, date | None]:
    dates = [d for d in trf.round_dates if d]
    start = trf.start_date or (min(dates) if dates else None)
    end = trf.end_date or (max(dates) if dates else None)
    if start is None:
        raise ImportRefused(_("The file gives no start date (line 042) and no round dates (line 132)."))
    if end and end < start:
        raise ImportRefused(_("The end date %(end)s (line 052) is before the start date %(start)s.")
                            % {"end": _day(end), "start": _day(start)})
    return start, end


@transaction.atomic
def tournament_import_trf(
    *, text: str | Path, name: str | None = None, category: str = GameCategory.STANDARD,
    rated: bool = True, user=None, before_results: Callable[[Tournament], object] | None = None,
) -> ImportReport:
    """Create a tournament from TRF text (a ``Path`` is read from disk); refuse bad files whole.

    The results are recorded by their owner (``recording.game_results_record``: checked, written,
    rated in the pools that rate the tournament); ``before_results(tournament)`` runs just before,
    for the caller to name the pool that rates it. A refused result or a refusal by the ratings
    (a closed period) undoes the whole import."""
    try:
        trf = read_trf(text) if isinstance(text, Path) else parse_trf(text)
    except OSError as error:
        raise ImportRefused(_("Cannot read the file: %(error)s") % {"error": file_error(error)}) from error
    except TrfError as error:
        raise trf_refused(error) from None
    if category not in GameCategory.values:
        raise ImportRefused(_("Unknown game category %(category)s.") % {"category": category})
    start, end = _check_dates(trf)
    name = (name or trf.name or "").strip()
    if not name:
        raise ImportRefused(_("The file gives no tournament name (line 012); give one."))
    if len(name) > LENGTHS["tournament_name"]:
        raise ImportRefused(_("The tournament name is longer than %(max)d characters.")
                            % {"max": LENGTHS["tournament_name"]})
    if Tournament.objects.filter(name=name, start_date=start).exists():
        raise ImportRefused(_("A tournament %(name)s starting on %(date)s exists already.")
                            % {"name": name, "date": _day(start)})
    plan = _plan(trf)
    national = national_ratings(trf)
    players = [p for p in trf.players if not p.is_dummy]
    identities = {
        p.start_rank: Identity.named(
            p.name, fide_id=p.fide_id, birth_date=p.birth_date, birth_year=p.birth_year,
            national_id=national[p.start_rank].national_id if p.start_rank in national else "",
        )
        for p in players
    }
    matcher = MemberMatcher(identities.values())
    tournament = Tournament.objects.create(
        name=name, kind=_kind(trf.kind), category=category, start_date=start, end_date=end,
        place=trf.city[:120], director=trf.chief_arbiter[:120], rated=rated,
        federation=trf.federation.strip().upper()[:3],
        rounds_count=max(trf.rounds, trf.declared_rounds or 0, 1), time_control=trf.time_control[:120],
        tiebreak_rules=edition_for(start), **_settings(trf, _kind(trf.kind), edition_for(start)),
    )
    report = ImportReport(tournament=tournament)
    report.refused = [(p.start_rank, p.line_no, _("dummy bye player")) for p in trf.players if p.is_dummy]
    members: dict[int, Member] = {}
    seen: dict[int, int] = {}  # member id -> line that matched it first
    fide_lines: dict[int, int] = {}
    for player in players:
        if player.fide_id:
            if player.fide_id in fide_lines:
                raise _refuse(player.line_no, _("FIDE ID %(id)d appears on line %(line)d as well.")
                              % {"id": player.fide_id, "line": fide_lines[player.fide_id]})
            fide_lines[player.fide_id] = player.line_no
        found = matcher.match(identities[player.start_rank])
        if found.ambiguous:
            where = _("Line %(line)d") % {"line": player.line_no}
            raise ambiguous_member(where, player.name, found.ambiguous)
        member = found.member
        if member is None:
            member = _member_for(player, identities[player.start_rank].national_id)
            member.save()
            report.created.append((player.start_rank, member))
        else:
            if member.pk in seen:
                raise _refuse(player.line_no, _("this player is the same member as on line %(line)d.")
                              % {"line": seen[member.pk]})
            report.matched.append((player.start_rank, member))
        seen[member.pk] = player.line_no
        members[player.start_rank] = member
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, member=members[p.start_rank], start_rank=p.start_rank,
                         rating=national[p.start_rank].rating if p.start_rank in national else None,
                         fide_rating=p.rating,
                         final_rank=p.rank)  # the organiser's rank, tie-breaks included
        for p in players
    )
    round_numbers = set(plan.games) | {r for r, _rank, _kind in plan.byes}
    dates = dict(enumerate(trf.round_dates, start=1))
    rounds = {
        number: Round.objects.create(tournament=tournament, number=number, date=dates.get(number))
        for number in sorted(round_numbers | {n for n, d in dates.items() if d})
    }
    games, results = [], []
    for number, pairs in sorted(plan.games.items()):
        for board, (white, black, result, rated_game, coloured) in enumerate(pairs, start=1):
            games.append(Game(round=rounds[number], board=board, white=members[white],
                              black=members[black], rated=rated_game, has_colours=coloured))
            results.append((result, result))
            report.forfeits += result in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
                                          Result.DOUBLE_FORFEIT)
            report.unrated += not rated_game
    Game.objects.bulk_create(games)
    report.games = len(games)
    Bye.objects.bulk_create(
        Bye(round=rounds[number], member=members[rank], kind=kind) for number, rank, kind in plan.byes
    )
    if before_results is not None:
        before_results(tournament)
    results_record(games, results, user)
    report.byes = Counter(kind for _number, _rank, kind in plan.byes)
    report.rounds = len(rounds)
    return report

