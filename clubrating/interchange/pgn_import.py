"""Import games from a PGN file into a tournament (created from the headers when missing).

The file is split into games here, not by ``chess.pgn`` alone: broadcast exports (lichess
studies) hold header-only games separated by blank lines, which ``read_game`` would merge.
Each game's movetext, if any, is parsed with ``chess`` and kept as SAN in ``Game.moves``.
Everything is checked first and written in one transaction; a bad file changes nothing.
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

import chess.pgn
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubrating.clubs.matching import Identity, MemberMatcher, split_name
from clubrating.clubs.models import Member
from clubrating.tournaments.models import (
    Bye,
    Game,
    GameCategory,
    Result,
    ResultChange,
    Round,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)

from .errors import ImportRefused, ambiguous_member
from .formats.limits import (
    BOARDS_MAX,
    FIDE_ID_MAX,
    LENGTHS,
    RATING_MAX,
    ROUNDS_MAX,
    FieldError,
    check_date,
    check_length,
    parse_rating,
    parse_whole,
)
from .refusals import text_checked
from .titles import title_code

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TERMINATION = re.compile(r"(1-0|0-1|1/2-1/2|\*)\s*$")
_RESULTS = {"1-0": Result.WHITE_WINS, "0-1": Result.BLACK_WINS, "1/2-1/2": Result.DRAW}
_ROUND = re.compile(r"^\s*(\d+)(?:\.(\d+))?\s*$", re.ASCII)
_DATE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$", re.ASCII)
_UNKNOWN = ("", "?", "-", "0")  # what PGN writers put for an unknown rating or ID


@dataclass
class PgnImportReport:
    tournaments: list[Tournament] = field(default_factory=list)
    created_tournaments: list[Tournament] = field(default_factory=list)
    games: int = 0
    with_moves: int = 0
    matched: list[Member] = field(default_factory=list)
    created: list[Member] = field(default_factory=list)

    def summary(self) -> str:
        return _(
            "Imported %(games)d games (%(moves)d with moves) into %(tournaments)s; players: "
            "%(matched)d matched, %(created)d new members."
        ) % {"games": self.games, "moves": self.with_moves,
             "tournaments": ", ".join(t.name for t in self.tournaments),
             "matched": len(self.matched), "created": len(self.created)}

    def preview(self) -> str:
        """The summary before confirming: nothing is saved yet."""
        return _(
            "%(games)d games (%(moves)d with moves) will be imported into %(tournaments)s; players: "
            "%(matched)d matched, %(created)d new members."
        ) % {"games": self.games, "moves": self.with_moves,
             "tournaments": ", ".join(t.name for t in self.tournaments),
             "matched": len(self.matched), "created": len(self.created)}

    def plain(self) -> dict:
        """The report as plain data, safe to read after a preview's rollback."""
        created = {t.pk for t in self.created_tournaments}
        return {
            "summary": self.summary(),
            "preview": self.preview(),
            "games": self.games,
            "with_moves": self.with_moves,
            "tournaments": [
                {"name": t.name, "created": t.pk in created, "pk": t.pk} for t in self.tournaments
            ],
            "matched": [m.full_name for m in self.matched],
            "created": [m.full_name for m in self.created],
        }


@dataclass
class _PgnGame:
    number: int  # 1-based position in the file, for messages
    line_no: int
    headers: dict[str, str]
    moves: str
    event: str = ""
    round: int = 0
    board: int | None = None
    date: date | None = None
    event_date: date | None = None  # the EventDate tag: the event's first day, not the game's
    result: str = ""

    @property
    def label(self) -> str:
        return _("Game %(number)d (line %(line)d, %(white)s – %(black)s)") % {
            "number": self.number, "line": self.line_no,
            "white": self.headers.get("White", "?"), "black": self.headers.get("Black", "?"),
        }


def _split(text: str) -> list[tuple[int, list[str], list[str]]]:
    """(first line number, header lines, movetext lines) per game."""
    games: list[tuple[int, list[str], list[str]]] = []
    in_moves = True
    for line_no, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("["):
            if in_moves:
                games.append((line_no, [], []))
                in_moves = False
            games[-1][1].append(line)
        elif line.startswith("%") or line.startswith(";"):
            continue  # escape and comment lines
        elif line:
            if not games:
                raise ImportRefused(_("Line %(line)d: moves before the first game's headers.")
                                    % {"line": line_no})
            games[-1][2].append(line)
            in_moves = True
        elif games and games[-1][1]:
            in_moves = True  # a blank line ends the header block
    return games


def _parse_date(headers: dict[str, str], keys=("Date", "UTCDate")) -> date | None:
    for key in keys:
        match = _DATE.match(headers.get(key, ""))
        if match:
            try:
                return date(*(int(g) for g in match.groups()))
            except ValueError:
                return None
    return None


def _read(text: str) -> list[_PgnGame]:
    games: list[_PgnGame] = []
    previous_event = ""
    for number, (line_no, header_lines, move_lines) in enumerate(_split(text), start=1):
        headers: dict[str, str] = {}
        for offset, line in enumerate(header_lines):
            match = _HEADER.match(line)
            if not match:
                raise ImportRefused(_("Line %(line)d: the header %(header)s is cut off or malformed.")
                                    % {"line": line_no + offset, "header": line[:60]})
            headers[match.group(1)] = match.group(2).replace('\\"', '"')
        movetext = " ".join(move_lines)
        game = _PgnGame(number=number, line_no=line_no, headers=headers, moves="")
        for key in ("White", "Black", "Result"):
            if not headers.get(key, "").strip("? "):
                raise ImportRefused(_("%(game)s: the %(header)s header is missing.")
                                    % {"game": game.label, "header": key})
        game.result = _RESULTS.get(headers["Result"], "")
        if not game.result:
            raise ImportRefused(_("%(game)s: the result %(result)s is not a finished game's result.")
                                % {"game": game.label, "result": headers["Result"]})
        if movetext:
            ending = _TERMINATION.search(movetext)
            if not ending:
                raise ImportRefused(_("%(game)s: the moves do not end with a result; the file seems "
                                      "to be cut off.") % {"game": game.label})
            if ending.group(1) != headers["Result"]:
                raise ImportRefused(_("%(game)s: the moves end with %(end)s but the Result header "
                                      "says %(result)s.") % {"game": game.label, "end": ending.group(1),
                                                             "result": headers["Result"]})
            parsed = chess.pgn.read_game(io.StringIO("\n".join(header_lines) + "\n\n" + movetext))
            if parsed is None or parsed.errors:
                error = parsed.errors[0] if parsed and parsed.errors else ""
                raise ImportRefused(_("%(game)s: the moves cannot be read: %(error)s")
                                    % {"game": game.label, "error": error})
            if parsed.next() is not None:
                game.moves = parsed.accept(
                    chess.pgn.StringExporter(headers=False, variations=False, comments=False)
                )
        round_match = _ROUND.match(headers.get("Round", ""))
        if not round_match:
            raise ImportRefused(_("%(game)s: the round %(round)s is not a number like 3 or 3.1.")
                                % {"game": game.label, "round": headers.get("Round", "")})
        try:
            _check(game.headers, round_match)
        except FieldError as problem:
            message = _("%(game)s: %(problem)s") % {"game": game.label, "problem": problem.render(_)}
            raise ImportRefused(message, line=line_no, field=problem.field) from None
        game.round = int(round_match.group(1))
        game.board = int(round_match.group(2)) if round_match.group(2) else None
        game.date = _parse_date(headers)
        game.event_date = _parse_date(headers, ("EventDate",))
        event = headers.get("Event", "").strip()
        # Broadcast exports put the Event header on the first game only.
        game.event = previous_event = event if event and event != "?" else previous_event
        games.append(game)
    if not games:
        raise ImportRefused(_("The file holds no games."))
    return games


def _check(headers: dict[str, str], round_match: re.Match) -> None:
    """The headers the import stores, each within the range and length of its field."""
    parse_whole(round_match.group(1), "Round", 1, ROUNDS_MAX)
    if round_match.group(2):
        parse_whole(round_match.group(2), "Round", 1, BOARDS_MAX)
    for side in ("White", "Black"):
        for part in split_name(headers[side]):
            check_length(part, side, LENGTHS["member_name"], literal=True)
        elo = headers.get(f"{side}Elo", "").strip()
        if elo not in _UNKNOWN:
            parse_whole(elo, f"{side}Elo", 0, RATING_MAX, literal=True)
            parse_rating(elo, f"{side}Elo", literal=True)
        fide = headers.get(f"{side}FideId", "").strip()
        if fide not in _UNKNOWN:
            parse_whole(fide, f"{side}FideId", 0, FIDE_ID_MAX, literal=True)
    check_length(headers.get("Event", "").strip(), "Event", LENGTHS["tournament_name"], literal=True)
    for key in ("Site", "TimeControl"):
        check_length(headers.get(key, ""), key, LENGTHS["place"], literal=True)
    for key in ("Date", "UTCDate", "EventDate"):
        match = _DATE.match(headers.get(key, ""))
        if match:  # a complete date must be a real one ("2024.??.??" is a date not known)
            try:
                day = date(*(int(g) for g in match.groups()))
            except ValueError:
                raise FieldError("date", field=key, literal=True, value=headers[key]) from None
            check_date(day, key, literal=True)


def _category(games: list[_PgnGame], name: str) -> str:
    """FIDE's definitions: blitz up to 10 minutes, rapid under 60 (60 moves' increments counted)."""
    control = games[0].headers.get("TimeControl", "")
    seconds = re.match(r"^(?:\d+/)?(\d+)(?:\+(\d+))?(?::.*)?$", control.strip())
    words = re.match(r"^\s*(\d+)\s*min\D*?(?:(\d+)\s*s)?", control, re.IGNORECASE)
    minutes = None
    if seconds:
        minutes = int(seconds.group(1)) / 60 + int(seconds.group(2) or 0)
    elif words:
        minutes = int(words.group(1)) + int(words.group(2) or 0)
    if minutes is None:
        lowered = name.lower()
        return (GameCategory.BLITZ if "blitz" in lowered
                else GameCategory.RAPID if "rapid" in lowered or "schnell" in lowered
                else GameCategory.STANDARD)
    if minutes <= 10:
        return GameCategory.BLITZ
    return GameCategory.RAPID if minutes < 60 else GameCategory.STANDARD


def _kind(games: list[_PgnGame], keys: dict[int, str]) -> tuple[str, bool]:
    """(kind, double round robin): EventType header, else every pair meeting once (or twice)."""
    event_type = games[0].headers.get("EventType", "").lower()
    if event_type.startswith("swiss"):
        return TournamentKind.SWISS, False
    meetings: dict[frozenset, int] = defaultdict(int)
    for game in games:
        meetings[frozenset((keys[id(game)][0], keys[id(game)][1]))] += 1
    players = {p for pair in meetings for p in pair}
    pairs = len(players) * (len(players) - 1) // 2
    if event_type in ("tourn", "rr", "round robin") or (len(meetings) == pairs and len(players) > 2):
        counts = set(meetings.values())
        return TournamentKind.ROUND_ROBIN, counts == {2}
    return TournamentKind.SWISS, False


@dataclass(frozen=True)
class _Player:
    label: str  # the first game naming the player, for messages
    name: str
    identity: Identity


def _player_candidates(games: list[_PgnGame]) -> tuple[dict[str, _Player], dict[int, tuple[str, str]]]:
    """One entry per player (key: FIDE ID or normalised name) and each game's (white, black) keys."""
    candidates: dict[str, _Player] = {}
    keys: dict[int, tuple[str, str]] = {}
    for game in games:
        pair = []
        for side in ("White", "Black"):
            name = ", ".join(part for part in split_name(game.headers[side]) if part)
            fide = game.headers.get(f"{side}FideId", "").strip()
            fide_id = int(fide) if fide.isascii() and fide.isdigit() and int(fide) else None
            key = f"fide:{fide_id}" if fide_id else f"name:{name.casefold()}"
            candidates.setdefault(key, _Player(game.label, name, Identity.named(name, fide_id=fide_id)))
            pair.append(key)
        if pair[0] == pair[1]:
            raise ImportRefused(_("%(game)s: a player cannot play against herself or himself.")
                                % {"game": game.label})
        keys[id(game)] = (pair[0], pair[1])
    return candidates, keys


def _elo(game: _PgnGame, side: str) -> int | None:
    text = game.headers.get(f"{side}Elo", "").strip()
    return int(text) or None if text.isascii() and text.isdigit() else None


def _tournament_for(event: str, games: list[_PgnGame], keys, given: Tournament | str | None):
    """(tournament, created?): the given one, an existing one of that name, or a new one."""
    if isinstance(given, Tournament):
        return given, False
    name = (given or event or "").strip()
    if not name:
        raise ImportRefused(_("The games have no Event header; give the tournament."))
    found = list(Tournament.objects.filter(name=name)[:2])
    if len(found) > 1:
        raise ImportRefused(_("There are several tournaments named %(name)s.") % {"name": name})
    if found:
        return found[0], False
    dates = [g.date for g in games if g.date]
    starts = [g.event_date for g in games if g.event_date]
    if not dates and not starts:
        raise ImportRefused(_("The games of %(name)s have no dates; create the tournament first.")
                            % {"name": name})
    kind, double = _kind(games, keys)
    start = min(starts or dates)
    return Tournament.objects.create(
        name=name[:200], kind=kind, double_round_robin=double, category=_category(games, name),
        start_date=start, end_date=max([*dates, start]), rounds_count=max(g.round for g in games),
        place=games[0].headers.get("Site", "").strip("?")[:120],
        time_control=games[0].headers.get("TimeControl", "")[:120],
    ), True


def _boards(games: list[_PgnGame]) -> dict[int, int]:
    """Board per game: the ".n" of the Round header, or the order in the file when those clash."""
    boards = [g.board for g in games]
    if None in boards or len(set(boards)) != len(boards):
        return {id(g): n for n, g in enumerate(games, start=1)}
    return {id(g): g.board for g in games}


@transaction.atomic
def games_import_pgn(*, text: str, tournament: Tournament | str | None = None, user=None) -> PgnImportReport:
    """Import every game of ``text``; ``tournament`` (an object or a name) overrides Event headers."""
    if isinstance(tournament, str) and len(tournament.strip()) > LENGTHS["tournament_name"]:
        raise ImportRefused(_("The tournament name is longer than %(max)d characters.")
                            % {"max": LENGTHS["tournament_name"]})
    games = _read(text_checked(text))
    candidates, keys = _player_candidates(games)
    # PGN headers carry no birth data: the name alone identifies a member without an ID.
    matcher = MemberMatcher((c.identity for c in candidates.values()), name_alone=True)
    report = PgnImportReport()
    members: dict[str, Member] = {}
    for key, candidate in candidates.items():
        found = matcher.match(candidate.identity)
        if found.ambiguous:
            raise ambiguous_member(candidate.label, candidate.name, found.ambiguous)
        member = found.member
        if member is None:
            last, first = candidate.identity.last_name, candidate.identity.first_name
            sample = next(g for g in games if key in keys[id(g)])
            side = "White" if keys[id(sample)][0] == key else "Black"
            member = Member.objects.create(
                last_name=last[:80], first_name=first[:80], fide_id=candidate.identity.fide_id,
                fide_rating=_elo(sample, side), fide_title=title_code(sample.headers.get(f"{side}Title", "")),
            )
            report.created.append(member)
        else:
            report.matched.append(member)
        members[key] = member
    by_event: dict[str, list[_PgnGame]] = defaultdict(list)
    for game in games:
        by_event["" if tournament is not None else game.event].append(game)
    for event, event_games in by_event.items():
        target, created = _tournament_for(event, event_games, keys, tournament)
        report.tournaments.append(target)
        if created:
            report.created_tournaments.append(target)
        _import_into(target, event_games, keys, members, report, user)
    return report


def _import_into(tournament, games, keys, members, report, user) -> None:
    rounds_wanted = sorted({g.round for g in games})
    existing_rounds = {r.number: r for r in tournament.rounds.filter(number__in=rounds_wanted)}
    busy: dict[int, set[int]] = defaultdict(set)  # round number -> member ids already playing
    for number, white, black in Game.objects.filter(round__in=existing_rounds.values()).values_list(
        "round__number", "white_id", "black_id"
    ):
        busy[number] |= {white, black}
    for number, member in Bye.objects.filter(round__in=existing_rounds.values()).values_list(
        "round__number", "member_id"
    ):
        busy[number].add(member)
    for game in games:
        for key in keys[id(game)]:
            if members[key].pk in busy[game.round]:
                raise ImportRefused(_("%(game)s: %(player)s plays twice in round %(round)d.")
                                    % {"game": game.label, "player": members[key], "round": game.round})
            busy[game.round].add(members[key].pk)
    rounds = {}
    for number in rounds_wanted:
        # A round is dated by its games' Date tags (the earliest); an undated round keeps no date
        # of its own, its games then count on the tournament's start (Game.played_on).
        dates = [g.date for g in games if g.round == number and g.date]
        rounds[number] = existing_rounds.get(number) or Round.objects.create(
            tournament=tournament, number=number, date=min(dates) if dates else None
        )
        if rounds[number].date is None and dates and not rounds[number].games.exists():
            rounds[number].date = min(dates)
            rounds[number].save(update_fields=["date"])
    if max(rounds_wanted) > tournament.rounds_count:
        tournament.rounds_count = max(rounds_wanted)
        tournament.save(update_fields=["rounds_count"])
    _register(tournament, games, keys, members)
    new_games = []
    for number in rounds_wanted:
        round_games = [g for g in games if g.round == number]
        boards = _boards(round_games)
        taken = rounds[number].games.aggregate(top=Max("board"))["top"] or 0
        offset = taken if taken and any(b <= taken for b in boards.values()) else 0
        for game in round_games:
            white, black = (members[k] for k in keys[id(game)])
            new_games.append(Game(
                round=rounds[number], board=boards[id(game)] + offset, white=white, black=black,
                result=game.result, rated_result=game.result, date=game.date, moves=game.moves,
            ))
    Game.objects.bulk_create(new_games)
    ResultChange.objects.bulk_create(
        ResultChange(game=g, changed_by=user, old_result="", new_result=g.result,
                     old_rated_result="", new_rated_result=g.rated_result)
        for g in new_games
    )
    report.games += len(new_games)
    report.with_moves += sum(1 for g in new_games if g.moves)


def _register(tournament, games, keys, members) -> None:
    """Register players new to the tournament; start ranks continue by rating, then name."""
    registered = set(
        TournamentPlayer.objects.filter(tournament=tournament).values_list("member_id", flat=True)
    )
    ratings: dict[int, int | None] = {}
    for game in games:
        for key, side in zip(keys[id(game)], ("White", "Black")):
            ratings.setdefault(members[key].pk, _elo(game, side))
    newcomers = sorted(
        (m for m in {members[k].pk: members[k] for pair in keys.values() for k in pair}.values()
         if m.pk in ratings and m.pk not in registered),
        key=lambda m: (-(ratings[m.pk] or 0), m.last_name, m.first_name, m.pk),
    )
    top = TournamentPlayer.objects.filter(tournament=tournament).aggregate(top=Max("start_rank"))["top"] or 0
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, member=m, start_rank=top + n, fide_rating=ratings[m.pk])
        for n, m in enumerate(newcomers, start=1)
    )


__all__ = ["PgnImportReport", "games_import_pgn"]
