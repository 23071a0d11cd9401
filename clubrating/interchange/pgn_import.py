"""Import games from a PGN file into a tournament (created from the headers when missing).

The file is read and checked by the pure reader (``formats.pgn``); here its players are matched
to members and its games written. Everything is checked first and written in one transaction;
a bad file changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubrating.clubs.matching import Identity, MemberMatcher
from clubrating.clubs.models import Member
from clubrating.tournaments.models import (
    Game,
    GameCategory,
    Result,
    Round,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.tiebreaks import RECOMMENDED, edition_for
from clubrating.tournaments.validation import games_pairing_conflict

from .errors import ImportRefused, ambiguous_member
from .formats.limits import LENGTHS
from .formats.pgn import PgnError, PgnGame, PgnPlayer, playing_minutes, read_pgn
from .refusals import pgn_refused
from .results import results_record
from .titles import title_code

_RESULTS = {"1-0": Result.WHITE_WINS, "0-1": Result.BLACK_WINS, "1/2-1/2": Result.DRAW}


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


def _category(games: list[PgnGame], name: str) -> str:
    """FIDE's definitions: blitz up to 10 minutes, rapid under 60 (60 moves' increments counted)."""
    minutes = playing_minutes(games[0].headers.get("TimeControl", ""))
    if minutes is None:
        lowered = name.lower()
        return (GameCategory.BLITZ if "blitz" in lowered
                else GameCategory.RAPID if "rapid" in lowered or "schnell" in lowered
                else GameCategory.STANDARD)
    if minutes <= 10:
        return GameCategory.BLITZ
    return GameCategory.RAPID if minutes < 60 else GameCategory.STANDARD


def _kind(games: list[PgnGame]) -> tuple[str, bool]:
    """(kind, double round robin): EventType header, else every pair meeting once (or twice)."""
    event_type = games[0].headers.get("EventType", "").lower()
    if event_type.startswith("swiss"):
        return TournamentKind.SWISS, False
    meetings: dict[frozenset, int] = defaultdict(int)
    for game in games:
        meetings[frozenset(player.key for player in game.players)] += 1
    players = {p for pair in meetings for p in pair}
    pairs = len(players) * (len(players) - 1) // 2
    if event_type in ("tourn", "rr", "round robin") or (len(meetings) == pairs and len(players) > 2):
        counts = set(meetings.values())
        return TournamentKind.ROUND_ROBIN, counts == {2}
    return TournamentKind.SWISS, False


@dataclass(frozen=True)
class _Candidate:
    label: str  # the first game naming the player, for messages
    player: PgnPlayer  # as that game gives the player
    identity: Identity


def _candidates(games: list[PgnGame]) -> dict[str, _Candidate]:
    """One entry per player of the file, by the player's key (FIDE ID or normalised name)."""
    candidates: dict[str, _Candidate] = {}
    for game in games:
        for player in game.players:
            if player.key not in candidates:
                identity = Identity.named(player.name, fide_id=player.fide_id)
                candidates[player.key] = _Candidate(game.label(_), player, identity)
    return candidates


def _tournament_for(event: str, games: list[PgnGame], given: Tournament | str | None):
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
    kind, double = _kind(games)
    start = min(starts or dates)
    return Tournament.objects.create(
        name=name[:200], kind=kind, double_round_robin=double, category=_category(games, name),
        start_date=start, end_date=max([*dates, start]), rounds_count=max(g.round for g in games),
        place=games[0].headers.get("Site", "").strip("?")[:120],
        time_control=games[0].headers.get("TimeControl", "")[:120], tiebreak_rules=edition_for(start),
        tiebreaks=RECOMMENDED[kind],  # a round robin's by 2026 has no Buchholz (C.07 art. 8)
    ), True


def _boards(games: list[PgnGame]) -> dict[int, int]:
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
    try:
        games = read_pgn(text)
    except PgnError as error:
        raise pgn_refused(error) from None
    candidates = _candidates(games)
    # PGN headers carry no birth data: the name alone identifies a member without an ID.
    matcher = MemberMatcher((c.identity for c in candidates.values()), name_alone=True)
    report = PgnImportReport()
    members: dict[str, Member] = {}  # player key -> member
    for key, candidate in candidates.items():
        found = matcher.match(candidate.identity)
        if found.ambiguous:
            raise ambiguous_member(candidate.label, candidate.player.name, found.ambiguous)
        member = found.member
        if member is None:
            identity, player = candidate.identity, candidate.player
            member = Member.objects.create(
                last_name=identity.last_name[:80], first_name=identity.first_name[:80],
                fide_id=identity.fide_id, fide_rating=player.rating, fide_title=title_code(player.title),
            )
            report.created.append(member)
        else:
            report.matched.append(member)
        members[key] = member
    by_event: dict[str, list[PgnGame]] = defaultdict(list)
    for game in games:
        by_event["" if tournament is not None else game.event].append(game)
    for event, event_games in by_event.items():
        target, created = _tournament_for(event, event_games, tournament)
        report.tournaments.append(target)
        if created:
            report.created_tournaments.append(target)
        _import_into(target, event_games, members, report, user)
    return report


def _import_into(tournament, games: list[PgnGame], members, report, user) -> None:
    rounds_wanted = sorted({g.round for g in games})
    existing_rounds = {r.number: r for r in tournament.rounds.filter(number__in=rounds_wanted)}
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
    _register(tournament, games, members)
    new_games, results, sources = [], [], []
    for number in rounds_wanted:
        round_games = [g for g in games if g.round == number]
        boards = _boards(round_games)
        taken = rounds[number].games.aggregate(top=Max("board"))["top"] or 0
        offset = taken if taken and any(b <= taken for b in boards.values()) else 0
        for game in round_games:
            white, black = (members[player.key] for player in game.players)
            new_games.append(Game(
                round=rounds[number], board=boards[id(game)] + offset, white=white, black=black,
                date=game.date, moves=game.moves,
            ))
            results.append((_RESULTS[game.result],) * 2)
            sources.append(game)
    # The pairing check of recording a result (a player once per round, not beside his bye),
    # before the games are stored: refused in the file's words, and the whole import undone.
    conflict = games_pairing_conflict(games=new_games)
    if conflict is not None:
        game, member_id, _code = conflict
        source = sources[new_games.index(game)]
        member = next(members[p.key] for p in source.players if members[p.key].pk == member_id)
        raise ImportRefused(_("%(game)s: %(player)s plays twice in round %(round)d.")
                            % {"game": source.label(_), "player": member, "round": source.round})
    Game.objects.bulk_create(new_games)
    results_record(new_games, results, user)
    report.games += len(new_games)
    report.with_moves += sum(1 for g in new_games if g.moves)


def _register(tournament, games: list[PgnGame], members) -> None:
    """Register players new to the tournament; start ranks continue by rating, then name."""
    registered = set(
        TournamentPlayer.objects.filter(tournament=tournament).values_list("member_id", flat=True)
    )
    ratings: dict[int, int | None] = {}  # member id -> the rating of the first game naming them
    playing: dict[int, Member] = {}
    for game in games:
        for player in game.players:
            member = members[player.key]
            ratings.setdefault(member.pk, player.rating)
            playing[member.pk] = member
    newcomers = sorted(
        (m for m in playing.values() if m.pk not in registered),
        key=lambda m: (-(ratings[m.pk] or 0), m.last_name, m.first_name, m.pk),
    )
    top = TournamentPlayer.objects.filter(tournament=tournament).aggregate(top=Max("start_rank"))["top"] or 0
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=tournament, member=m, start_rank=top + n, fide_rating=ratings[m.pk])
        for n, m in enumerate(newcomers, start=1)
    )


__all__ = ["PgnImportReport", "games_import_pgn"]
