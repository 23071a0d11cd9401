"""A tournament's state: its rounds, counts, the round to pair and the versions its cached pages
follow."""

from __future__ import annotations

import hashlib
import io
import pickle
from dataclasses import dataclass

from django.db.models import Count, Exists, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.core.db import fetch_rows
from clubrating.tournaments.models import (
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

# A registration's fields the tournament's version follows and its pages read (``selectors.plain``).
PLAYER_FIELDS = ("pk", "member_id", "start_rank", "rating", "fide_rating", "team_id", "final_rank",
                 "withdrawn_from_round")


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
    running says whether any game still waits for its result. Two small queries, none when the
    tournament's rows were read for its version already (``version_rows``); for all rounds the
    tournament's version (``tournament_version``), which its cached pages read anyway."""
    if round_number is None:
        return _tournament_state(tournament)
    read = getattr(tournament, "_version_rows", None)
    if read is not None:  # the tournament's rows, read already for its page's version: the round's
        round_ids = {pk for pk, number, _date in read["rounds"] if number == round_number}
        rows = [(g[0], g[2], g[3], g[4], g[5]) for g in read["games"] if g[1] in round_ids]
        rows += [(b[0], b[2], b[3]) for b in read["byes"] if b[1] in round_ids]
    else:
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
    # Plain tuples through the binary cursor, prepared: every page of the tournament reads them.
    rounds = fetch_rows(Round.objects.filter(tournament_id=tid).order_by("pk").values_list(
        "pk", "number", "date"))
    # The rows by their rounds' keys, sorted here: joined to the rounds and ordered by key in SQL,
    # PostgreSQL walks the primary key of all the federation's games instead of the round index.
    round_ids = [row[0] for row in rounds]
    # Plain tuples through the binary cursor: a 300-player Swiss has 1,350 boards.
    games = sorted(fetch_rows(Game.objects.filter(round_id__in=round_ids).order_by().values_list(
        "pk", "round_id", "board", "white_id", "black_id", "result", "rated_result", "rated",
        "has_colours", "date", "team_match_id")))
    parts = [
        [getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields],  # as read by the page
        rounds,
        games,
        sorted(fetch_rows(Bye.objects.filter(round_id__in=round_ids).order_by().values_list(
            "pk", "round_id", "member_id", "kind"))),
        fetch_rows(TournamentPlayer.objects.filter(tournament_id=tid).order_by("pk").values_list(*PLAYER_FIELDS)),
    ]
    if tournament.kind == TournamentKind.TEAM:
        matches = sorted(TeamMatch.objects.filter(round_id__in=round_ids).order_by().values_list())
        match_ids = [row[0] for row in matches]
        parts += [
            list(Team.objects.filter(tournament_id=tid).order_by("pk").values_list()),
            matches,
            sorted(LineupEntry.objects.filter(match_id__in=match_ids).order_by().values_list()),
        ]
    running = any(row[5] == Result.NOT_PLAYED for row in games)
    tournament._version_state = (_digest(parts), running)
    # The rows the version was made of, for the page drawn under it (``version_rows``).
    tournament._version_rows = {"rounds": rounds, "games": games, "byes": parts[3], "players": parts[4]}
    if tournament.kind == TournamentKind.TEAM:  # lineups (pk, match, team, board, member)
        tournament._version_rows["lineups"] = parts[-1]
    return tournament._version_state


def _digest(parts: list) -> str:
    """A short hash of ``parts`` (rows of numbers, texts, dates, booleans), the same in every
    process for the same values: pickled without its memo (which would follow the objects'
    identities, not their values), several times quicker than their ``repr`` for 1,350 boards."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: the bytes follow the values only
    pickler.dump(parts)
    return hashlib.sha1(buffer.getvalue()).hexdigest()[:20]


def version_rows(tournament: Tournament) -> dict:
    """The rows of ``tournament`` its version was made of (``tournament_version``): rounds (pk,
    number, date), games (pk, round, board, white, black, result, rated result, rated, colours,
    date, team match), byes (pk, round, member, kind), players (``selectors.plain.PLAYER_FIELDS``),
    a team competition's lineups (pk, match, team, board, member). A page cached under the
    version is drawn from the very rows the version names, read once."""
    _tournament_state(tournament)
    return tournament._version_rows
