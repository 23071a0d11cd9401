"""Tournament operations: registration, pairing, hand changes to a pairing, team rounds and lineups.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused`` with
a translated message when the request does not fit the tournament's state; nothing is changed then.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.core.db import plain_execute, server_bound
from clubrating.tournaments.acceleration import tournament_acceleration
from clubrating.tournaments.checkin import absentees_leave_round_1
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    PLAYED_RESULTS,
    Bye,
    ByeKind,
    Game,
    LineupEntry,
    PairingRules,
    Result,
    ResultChange,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.notifications import notification_queue
from clubrating.tournaments.pairing.berger import berger_schedule
from clubrating.tournaments.pairing.swiss import SwissPairingError, pair_swiss
from clubrating.tournaments.selectors import (
    last_paired_round_number,
    paired_round_q,
    player_histories,
    round_pair_check,
    rounds_planned,
)

__all__ = [
    "bye_request",
    "game_pairing_change",
    "game_results_write",
    "guest_register",
    "lineup_set",
    "player_register",
    "player_withdraw",
    "players_register",
    "round_date_set",
    "round_pair",
    "round_unpair",
    "schedule_pair",
    "start_ranks_assign",
    "start_ranks_set",
    "team_create",
    "team_players_assign",
]


# --- results ----------------------------------------------------------------------------------------


def game_results_write(
    *, games: list[Game], results: list[tuple[str, str]], by: int | None = None, reason: str = ""
) -> list[Game]:
    """Give each game its new ``(result, rated result)`` and keep every change in the result's
    history (who, when, old, new, why): the one place a result is written, by the owner of recording
    (``recording.game_result_record`` and, for many at once, ``game_results_record``: they check
    and rate it) and a round robin withdrawal's forfeits of unplayed games (never rated).

    The games hold the results they have now (the old ones of the history); they are changed in
    place and returned. A game whose result stays the same is not written and gets no history
    row. Checks are the caller's (``validation.result_validate``, the closed periods); callers
    run it inside their transaction (the result entry under the game's row lock).

    One game, the result entry's save, is one round trip on PostgreSQL (its update and history
    row in one execute); many games are one update per distinct result and one insert."""
    changes = []
    for game, (result, rated_result) in zip(games, results, strict=True):
        if (game.result, game.rated_result) != (result, rated_result):
            changes.append(ResultChange(
                game=game, changed_by_id=by, changed_at=timezone.now(), old_result=game.result,
                new_result=result, old_rated_result=game.rated_result, new_rated_result=rated_result,
                reason=reason,
            ))
            game.result, game.rated_result = result, rated_result
    if len(changes) == 1:
        _result_write_one(changes[0])
    elif changes:
        by_result: dict[tuple[str, str], list[int]] = {}
        for change in changes:
            by_result.setdefault((change.new_result, change.new_rated_result), []).append(change.game_id)
        for (result, rated_result), ids in by_result.items():
            Game.objects.filter(pk__in=ids).update(result=result, rated_result=rated_result)
        ResultChange.objects.bulk_create(changes, batch_size=500)
    return games


def _result_write_one(change: ResultChange) -> None:
    """One game's new result and its history row: what ``save`` and ``ResultChange.objects.create``
    would write, in one round trip on PostgreSQL (the result entry's save is tuned to its round
    trips: docs/operating.md, "Many officials at once")."""
    statements = [
        (
            f"UPDATE {Game._meta.db_table} SET result = %s, rated_result = %s WHERE id = %s",
            [change.new_result, change.new_rated_result, change.game_id],
        ),
        (
            f"INSERT INTO {ResultChange._meta.db_table} (game_id, changed_by_id, changed_at, old_result, "
            "new_result, old_rated_result, new_rated_result, reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [change.game_id, change.changed_by_id,
             connection.ops.adapt_datetimefield_value(change.changed_at), change.old_result,
             change.new_result, change.old_rated_result, change.new_rated_result, change.reason],
        ),
    ]
    if server_bound():  # one prepared statement: the history row's insert carries the update
        (update, update_params), (insert, insert_params) = statements
        plain_execute(f"WITH changed AS ({update}) {insert}", [*update_params, *insert_params])
        return
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


# --- registration ---------------------------------------------------------------------------------


def _pairing_started(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).filter(paired_round_q()).exists()


def _rating_key(player: TournamentPlayer) -> tuple:
    # Strongest first: FIDE rating, then national rating, then alphabetical (FIDE C.04.2 B).
    member = player.member
    return (-(player.fide_rating or 0), -(player.rating or 0), member.last_name.lower(),
            member.first_name.lower(), player.pk)


# FIDE titles, strongest first (C.04.2 of 2026 orders equal strength by title).
_TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")


def _strength_key(player: TournamentPlayer) -> tuple:
    """C.04.2 of 2026: one strength measure for everybody (the FIDE rating, the national rating as
    the estimate for a player without one), then the FIDE title, then the name."""
    member = player.member
    title = member.fide_title.upper() if member.fide_title else ""
    title_rank = _TITLE_ORDER.index(title) if title in _TITLE_ORDER else len(_TITLE_ORDER)
    return (-(player.fide_rating or player.rating or 0), title_rank, member.last_name.lower(),
            member.first_name.lower(), player.pk)


def _seeding_key(tournament: Tournament):
    return _strength_key if tournament.dutch_rules == PairingRules.DUTCH_2026 else _rating_key


@transaction.atomic
def start_ranks_assign(*, tournament: Tournament) -> list[TournamentPlayer]:
    """Number all players 1..n by rating. Only before the first round is paired."""
    if _pairing_started(tournament):
        raise TournamentRefused(_("Starting ranks cannot be changed after the first round was paired."))
    players = sorted(tournament.players.select_related("member").select_for_update(of=("self",)),
                     key=_seeding_key(tournament))
    # Two passes: the unique (tournament, start_rank) constraint forbids swapping numbers in place.
    TournamentPlayer.objects.filter(tournament=tournament).update(start_rank=None)
    for rank, player in enumerate(players, start=1):
        player.start_rank = rank
    TournamentPlayer.objects.bulk_update(players, ["start_rank"])
    return players


@transaction.atomic
def player_register(
    *, tournament: Tournament, member: Member, rating: int | None = None, fide_rating: int | None = None
) -> TournamentPlayer:
    """Register a member. Before round 1 everybody is renumbered by rating; a late entry (after
    pairing started) gets the next free starting rank and counts as absent in the rounds missed."""
    if tournament.kind == TournamentKind.ROUND_ROBIN and _pairing_started(tournament):
        raise TournamentRefused(_("A round robin cannot take late entries."))
    if TournamentPlayer.objects.filter(tournament=tournament, member=member).exists():
        raise TournamentRefused(_("%(member)s is already registered.") % {"member": member})
    last = tournament.players.aggregate(last=Max("start_rank"))["last"] or 0
    player = TournamentPlayer.objects.create(
        tournament=tournament, member=member, start_rank=last + 1, rating=rating,
        fide_rating=fide_rating if fide_rating is not None else member.fide_rating,
    )
    if not _pairing_started(tournament):
        start_ranks_assign(tournament=tournament)
        player.refresh_from_db()
    elif tournament.kind == TournamentKind.SWISS and tournament.dutch_rules == PairingRules.DUTCH_2026:
        _late_entry_place(tournament, player)
        player.refresh_from_db()
    _rounds_count_sync(tournament)
    return player


def _late_entry_place(tournament: Tournament, entry: TournamentPlayer) -> None:
    """C.04.2 of 2026: a late entry gets the pairing number its strength, title and name give it;
    the players after it move down by one (their order is kept, also a director's own order).
    Games and byes belong to members, so the history does not depend on the numbers."""
    players = list(tournament.players.select_related("member").select_for_update(of=("self",))
                   .exclude(pk=entry.pk).order_by("start_rank", "pk"))
    key = _strength_key(entry)
    position = next((i for i, p in enumerate(players) if _strength_key(p) > key), len(players))
    ordered = [*players[:position], entry, *players[position:]]
    TournamentPlayer.objects.filter(tournament=tournament).update(start_rank=None)
    for rank, player in enumerate(ordered, start=1):
        player.start_rank = rank
    TournamentPlayer.objects.bulk_update(ordered, ["start_rank"])


@transaction.atomic
def players_register(
    *, tournament: Tournament, members: Iterable[Member], ratings: dict[int, int | None] | None = None
) -> list[TournamentPlayer]:
    """Register members with their national ``ratings`` (member id -> the current published
    rating of the pool that rates the tournament, passed in by the caller)."""
    ratings = ratings or {}
    return [player_register(tournament=tournament, member=m, rating=ratings.get(m.pk)) for m in members]



@transaction.atomic
def start_ranks_set(*, tournament: Tournament, ranks: dict[int, int]) -> list[TournamentPlayer]:
    """The director's own starting order ({player id: starting rank}), overriding the order by
    rating; the numbers must be 1..n, each once. Only before the first round is paired."""
    if _pairing_started(tournament):
        raise TournamentRefused(_("Starting ranks cannot be changed after the first round was paired."))
    players = list(tournament.players.select_for_update())
    if set(ranks) != {p.pk for p in players} or sorted(ranks.values()) != list(range(1, len(players) + 1)):
        raise TournamentRefused(
            _("Give every player a different starting number from 1 to %(count)d.") % {"count": len(players)}
        )
    # Two passes: the unique (tournament, start_rank) constraint forbids swapping numbers in place.
    TournamentPlayer.objects.filter(tournament=tournament).update(start_rank=None)
    for player in players:
        player.start_rank = ranks[player.pk]
    TournamentPlayer.objects.bulk_update(players, ["start_rank"])
    return sorted(players, key=lambda p: p.start_rank)


@transaction.atomic
def guest_register(
    *,
    tournament: Tournament,
    last_name: str,
    first_name: str = "",
    club_name: str = "",
    fide_id: int | None = None,
    fide_rating: int | None = None,
    rating: int | None = None,
    birth_year: int | None = None,
    sex: str = "",
) -> TournamentPlayer:
    """A guest becomes a member of their own club (created if new), then registers as usual."""
    if not last_name.strip():
        raise TournamentRefused(_("A guest needs a last name."))
    if fide_id and Member.objects.filter(fide_id=fide_id).exists():
        member = Member.objects.get(fide_id=fide_id)
    else:
        club = None
        if club_name.strip():
            club, _created = Club.objects.get_or_create(name=club_name.strip())
        member = Member.objects.create(
            last_name=last_name.strip(), first_name=first_name.strip(), club=club, fide_id=fide_id,
            fide_rating=fide_rating, birth_year=birth_year, sex=sex,
        )
    return player_register(tournament=tournament, member=member, rating=rating, fide_rating=fide_rating)


@transaction.atomic
def player_withdraw(*, player: TournamentPlayer, from_round: int, user=None) -> TournamentPlayer:
    """The player is not paired any more from ``from_round`` on (rounds already paired stay).

    A round robin is paired whole (``schedule_pair``): there the player's games from that round
    on, none of which may have been played yet, become forfeits as the Berger table keeps them
    (``_withdrawal_result``), each kept in its result's history as changed by ``user``."""
    later = {"round__tournament": player.tournament, "round__number__gte": from_round}
    if from_round < 1:
        raise TournamentRefused(_("Rounds are numbered from 1."))
    if player.tournament.kind == TournamentKind.ROUND_ROBIN:
        return _round_robin_withdraw(player, from_round, later, user)
    paired = (
        Game.objects.filter(Q(white=player.member_id) | Q(black=player.member_id), **later).exists()
        or Bye.objects.filter(member=player.member_id, kind=ByeKind.PAIRING, **later).exists()
    )
    if paired:
        raise TournamentRefused(_("Round %(number)d is already paired with this player; change that "
                                "pairing first.") % {"number": from_round})
    player.withdrawn_from_round = from_round
    player.save(update_fields=["withdrawn_from_round"])
    # A withdrawn player scores nothing more: byes asked for rounds not paired yet go (those of
    # paired rounds are already part of the results and stay).
    Bye.objects.filter(
        member=player.member_id, round__tournament=player.tournament,
        round__number__gte=max(from_round, last_paired_round_number(tournament=player.tournament) + 1),
    ).exclude(kind=ByeKind.PAIRING).delete()
    return player


def _round_robin_withdraw(player: TournamentPlayer, from_round: int, later: dict, user) -> TournamentPlayer:
    games = list(Game.objects.select_for_update().select_related("round").filter(
        Q(white=player.member_id) | Q(black=player.member_id), **later).order_by("round__number"))
    # Forfeits (of an opponent who withdrew earlier) are the table's and follow this withdrawal
    # too; a game played over the board stays as played.
    played = next((g for g in games if g.result in PLAYED_RESULTS), None)
    if played is not None:
        raise TournamentRefused(_("Round %(number)d already has a result of this player; withdraw him "
                                  "from a later round.") % {"number": played.round.number})
    player.withdrawn_from_round = from_round
    player.save(update_fields=["withdrawn_from_round"])
    entrants = {p.member_id: p for p in player.tournament.players.all()}
    entrants[player.member_id] = player
    results = [(_withdrawal_result(entrants[g.white_id], entrants[g.black_id], g.round.number),) * 2
               for g in games]
    by = user.pk if user is not None and user.is_authenticated else None
    game_results_write(games=games, results=results, by=by)
    return player


@transaction.atomic
def bye_request(*, player: TournamentPlayer, round_number: int, kind: str = ByeKind.HALF) -> Bye:
    """A requested bye for a round not yet paired (Swiss only); the pairing leaves the player out."""
    tournament = player.tournament
    if tournament.kind != TournamentKind.SWISS:
        raise TournamentRefused(_("Byes can only be requested in a Swiss tournament."))
    if kind not in (ByeKind.FULL, ByeKind.HALF, ByeKind.ZERO):
        raise TournamentRefused(_("This kind of bye cannot be requested."))
    if not 1 <= round_number <= tournament.rounds_count:
        raise TournamentRefused(_("The tournament has no round %(number)d.") % {"number": round_number})
    if player.withdrawn_from_round is not None and player.withdrawn_from_round <= round_number:
        raise TournamentRefused(_("%(member)s has withdrawn from round %(number)d on.") % {
            "member": player.member, "number": player.withdrawn_from_round})
    rnd, _created = Round.objects.get_or_create(tournament=tournament, number=round_number)
    if _round_is_paired(rnd):
        raise TournamentRefused(_("Round %(number)d is already paired.") % {"number": round_number})
    if Bye.objects.filter(round=rnd, member=player.member).exists():
        raise TournamentRefused(_("%(member)s already has a bye in this round.") % {"member": player.member})
    return Bye.objects.create(round=rnd, member=player.member, kind=kind)


# --- pairing --------------------------------------------------------------------------------------


def _round_is_paired(rnd: Round) -> bool:
    return (rnd.games.exists() or rnd.byes.filter(kind=ByeKind.PAIRING).exists()
            or rnd.team_matches.exists())


def _rounds_count_sync(tournament: Tournament) -> None:
    """Keep the stored number of rounds of a round robin or team competition equal to what its
    entrants give, so every page (overview, lists, TRF export) shows the same number."""
    planned = rounds_planned(tournament)
    if planned != tournament.rounds_count:
        Tournament.objects.filter(pk=tournament.pk).update(rounds_count=planned)
        tournament.rounds_count = planned


def _next_round(tournament: Tournament) -> Round:
    _rounds_count_sync(tournament)
    check = round_pair_check(tournament=tournament)
    if check.refusal:
        raise TournamentRefused(check.refusal)
    number = check.number
    rnd, _created = Round.objects.get_or_create(tournament=tournament, number=number)
    return rnd


@transaction.atomic
def round_pair(*, tournament: Tournament, date: datetime.date | None = None) -> Round:
    """Pair the next round: Berger tables (round robin, team competition) or the Dutch system.

    The round is dated ``date``, else the date it already has, else its place in the
    tournament's schedule (``Tournament.scheduled_date``): its games count on that day."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one pairing at a time
    rnd = _next_round(tournament)
    if date is not None or rnd.date is None:
        rnd.date = date or tournament.scheduled_date(rnd.number)
        rnd.save(update_fields=["date"])
    if tournament.kind == TournamentKind.TEAM:
        _pair_team_round(tournament, rnd)
    elif tournament.kind == TournamentKind.ROUND_ROBIN:
        _pair_berger_round(tournament, rnd)
    elif tournament.kind == TournamentKind.SWISS:
        absentees_leave_round_1(tournament=tournament, rnd=rnd)
        _pair_swiss_round(tournament, rnd)
    else:
        raise TournamentRefused(_("Casual tournaments are not paired."))
    notification_queue(kind="round_paired", tournament=tournament, rnd=rnd,
                       members=list(tournament.players.values_list("member_id", flat=True)))
    return rnd


@transaction.atomic
def schedule_pair(*, tournament: Tournament, dates: dict[int, datetime.date] | None = None) -> list[Round]:
    """Pair a round robin's whole Berger schedule at once (as chess-results and Swiss-Manager
    do): every round not paired yet, each dated ``dates[number]``, else the date it has, else
    its place in the tournament's schedule. Refused, changing nothing, when a date lies outside
    the tournament or the players cannot be paired. Returns the rounds paired."""
    if tournament.kind != TournamentKind.ROUND_ROBIN:
        raise TournamentRefused(_("Only a round robin is paired as a whole schedule."))
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one pairing at a time
    dates = dates or {}
    for day in dates.values():
        _date_check(tournament, day)
    paired = []
    # The first round is always tried: a schedule paired already is refused with its reason.
    while not paired or not round_pair_check(tournament=tournament).all_paired:
        rnd = _next_round(tournament)
        day = dates.get(rnd.number) or rnd.date or tournament.scheduled_date(rnd.number)
        if rnd.date != day:
            rnd.date = day
            rnd.save(update_fields=["date"])
        _pair_berger_round(tournament, rnd)
        paired.append(rnd)
    return paired


def _ranked_players(tournament: Tournament) -> list[TournamentPlayer]:
    players = list(tournament.players.select_related("member").order_by("start_rank", "pk"))
    if any(p.start_rank is None for p in players):
        raise TournamentRefused(_("Every player needs a starting rank before pairing."))
    return players


def _pair_berger_round(tournament: Tournament, rnd: Round) -> None:
    players = _ranked_players(tournament)
    if len(players) < 2:
        raise TournamentRefused(_("A round robin needs at least two players."))
    schedule = berger_schedule(len(players), double=tournament.double_round_robin)
    games = []
    for board in schedule[rnd.number - 1]:
        if board.black is None:
            continue  # the player drawn against the dummy is free this round (no points in a round robin)
        white, black = players[board.white - 1], players[board.black - 1]
        result = _withdrawal_result(white, black, rnd.number)
        # A forfeit is scored and never rated (docs/rules.md §1.5): the rated result is the same.
        games.append(Game(round=rnd, board=len(games) + 1, white=white.member, black=black.member,
                          result=result, rated_result=result))
    Game.objects.bulk_create(games)


def _withdrawal_result(white: TournamentPlayer, black: TournamentPlayer, number: int) -> str:
    """The games of a player who has withdrawn stay in the Berger table as forfeits: FIDE
    Tournament Rules (Handbook C.06, V.4): "The unplayed games of the player [...] are indicated by
    '-' in the tournament table and those of his opponents by '+'. If neither players are present,
    this will be indicated by two '-'." Whether the withdrawn player's points count in the final
    standings (less than 50 % of the games completed: no) is a matter of the standings, not of
    the pairing; for ratings FIDE B.02 6.43 treats such a round robin like a Swiss (only played
    games are rated)."""
    gone_white = white.withdrawn_from_round is not None and white.withdrawn_from_round <= number
    gone_black = black.withdrawn_from_round is not None and black.withdrawn_from_round <= number
    if gone_white and gone_black:
        return Result.DOUBLE_FORFEIT
    if gone_white:
        return Result.BLACK_FORFEIT_WIN
    if gone_black:
        return Result.WHITE_FORFEIT_WIN
    return Result.NOT_PLAYED


def _pair_swiss_round(tournament: Tournament, rnd: Round) -> None:
    if not tournament.pairing_rules:
        # The tournament keeps the edition it is first paired under.
        tournament.pairing_rules = tournament.dutch_rules
        tournament.save(update_fields=["pairing_rules"])
    players = _ranked_players(tournament)
    by_member = {p.member_id: p for p in players}
    history = player_histories(tournament, players, before_round=rnd.number)
    absent: dict[int, float] = {}
    for bye in Bye.objects.filter(round=rnd).exclude(kind=ByeKind.PAIRING):
        if bye.member_id in by_member:
            absent[by_member[bye.member_id].start_rank] = bye.points
    for p in players:
        if p.withdrawn_from_round and p.withdrawn_from_round <= rnd.number:
            absent.setdefault(p.start_rank, 0.0)
    if len(players) - len(absent) < 2:
        raise TournamentRefused(_("Fewer than two players can be paired in this round."))
    ratings = {p.start_rank: p.fide_rating or p.rating or 0 for p in players}
    try:
        pairs = pair_swiss(history, ratings, round_number=rnd.number,
                           total_rounds=tournament.rounds_count, absent=absent,
                           initial_colour=tournament.initial_colour, rules=tournament.dutch_rules,
                           acceleration=tournament_acceleration(tournament=tournament, players=players))
    except SwissPairingError as exc:
        raise TournamentRefused(_("The round cannot be paired: %(reason)s") % {"reason": exc}) from exc
    member_of = {p.start_rank: p.member for p in players}
    Game.objects.bulk_create([
        Game(round=rnd, board=pair.board, white=member_of[pair.white], black=member_of[pair.black])
        for pair in pairs if pair.black is not None
    ])
    for pair in pairs:
        if pair.black is None:
            Bye.objects.create(round=rnd, member=member_of[pair.white], kind=ByeKind.PAIRING)


def _date_check(tournament: Tournament, date: datetime.date | None) -> None:
    """A round's date: given, and within the tournament's dates."""
    if date is None:
        raise TournamentRefused(_("A round needs a date."), field="date")
    if date < tournament.start_date or (tournament.end_date is not None and date > tournament.end_date):
        raise TournamentRefused(
            _("The date must lie within the tournament (%(start)s – %(end)s).") % {
                "start": tournament.start_date.strftime("%d.%m.%Y"),
                "end": tournament.end_date.strftime("%d.%m.%Y") if tournament.end_date else "…"},
            field="date")


@transaction.atomic
def round_date_set(*, round: Round, date: datetime.date) -> list[int]:  # noqa: A002 - the model's name
    """Date a round. Its games without a date of their own count on the new day; returns their
    ids so that the rating records can follow (the caller re-dates them in the same transaction,
    ``ratings.services.games_redate``)."""
    _date_check(round.tournament, date)
    Round.objects.filter(pk=round.pk).update(date=date)
    round.date = date
    return list(round.games.filter(date__isnull=True).values_list("pk", flat=True))


@transaction.atomic
def round_unpair(*, round: Round) -> None:  # noqa: A002 - the model's name
    """Throw away a round's pairing so it can be paired again; only while it has no results."""
    if round.games.exclude(result=Result.NOT_PLAYED).exists():
        raise TournamentRefused(_("This round already has results; its pairing cannot be redone."))
    later = Round.objects.filter(tournament=round.tournament_id, number__gt=round.number).filter(
        paired_round_q()
    )
    if later.exists():
        raise TournamentRefused(_("A later round is paired already."))
    round.games.all().delete()
    round.byes.filter(kind=ByeKind.PAIRING).delete()
    round.team_matches.all().delete()


@transaction.atomic
def game_pairing_change(*, game: Game, white: Member, black: Member) -> Game:
    """Change a board by hand before the round has results. A player taken from another place of
    the round (another board or the pairing-allocated bye) swaps with the player displaced here."""
    game = Game.objects.select_for_update().select_related("round").get(pk=game.pk)
    rnd = game.round
    if rnd.games.exclude(result=Result.NOT_PLAYED).exists():
        raise TournamentRefused(_("This round already has results; its pairing cannot be changed."))
    if white.pk == black.pk:
        raise TournamentRefused(_("A player cannot play against themselves."))
    registered = set(TournamentPlayer.objects.filter(
        tournament_id=rnd.tournament_id, member__in=[white, black]
    ).values_list("member_id", flat=True))
    if registered != {white.pk, black.pk}:
        raise TournamentRefused(_("Both players must be registered in this tournament."))
    old = [game.white_id, game.black_id]
    incoming = [m for m in (white.pk, black.pk) if m not in old]
    displaced = [m for m in old if m not in (white.pk, black.pk)]
    # Move each incoming player's old place (board or bye) to a displaced player.
    moves = []
    others = {g.pk: g for g in rnd.games.exclude(pk=game.pk)}  # one instance per board
    for member_id, replacement in zip(incoming, displaced):
        other = next((g for g in others.values() if member_id in (g.white_id, g.black_id)), None)
        bye = rnd.byes.filter(member_id=member_id).first()
        if other is None and bye is not None and bye.kind != ByeKind.PAIRING:
            # Only the pairing-allocated bye is the pairing's to move; a requested bye is the
            # player's own wish and must not pass to whoever is displaced here.
            raise TournamentRefused(_(
                "%(member)s asked for a bye in this round; remove the bye first."
            ) % {"member": white if member_id == white.pk else black})
        if other is None and bye is None:
            raise TournamentRefused(_("%(member)s is not paired in this round.") % {
                "member": white if member_id == white.pk else black})
        moves.append((other, bye, member_id, replacement))
    # Clear this board first so the unique (round, white/black) constraints hold at every step.
    Game.objects.filter(pk=game.pk).delete()
    for other, bye, member_id, replacement in moves:
        if other is not None:
            if other.white_id == member_id:
                other.white_id = replacement
            else:
                other.black_id = replacement
            other.save(update_fields=["white", "black"])
        else:
            bye.member_id = replacement
            bye.save(update_fields=["member"])
    game.pk = None
    game.white, game.black = white, black
    game.save(force_insert=True)
    return game


# --- team competitions ----------------------------------------------------------------------------


def _pair_team_round(tournament: Tournament, rnd: Round) -> None:
    teams = list(Team.objects.filter(tournament=tournament).order_by("start_rank", "name", "pk"))
    if len(teams) < 2:
        raise TournamentRefused(_("A team competition needs at least two teams."))
    schedule = berger_schedule(len(teams), double=tournament.double_round_robin)
    number = 0
    for board in schedule[rnd.number - 1]:
        if board.black is None:
            continue
        number += 1
        TeamMatch.objects.create(round=rnd, home_team=teams[board.white - 1],
                                 away_team=teams[board.black - 1], number=number)


@transaction.atomic
def lineup_set(*, match: TeamMatch, team: Team, members: list[Member | None]) -> list[LineupEntry]:
    """Set a team's board order for a match (board 1 first; None leaves a board empty, lost by
    forfeit). A game is created for every board where both teams have a player: the home team
    has white on odd boards (FIDE team practice).

    ``Game.board`` must be unique per round, so a match's games are numbered
    ``(match.number - 1) * match.boards + board``."""
    if team.pk not in (match.home_team_id, match.away_team_id):
        raise TournamentRefused(_("%(team)s does not play in this match.") % {"team": team})
    if len(members) > match.boards:
        raise TournamentRefused(_("This match has only %(boards)d boards.") % {"boards": match.boards})
    seated = [m for m in members if m is not None]
    if len({m.pk for m in seated}) != len(seated):
        raise TournamentRefused(_("A player can only sit at one board."))
    if match.games.exclude(result=Result.NOT_PLAYED).exists():
        raise TournamentRefused(_("This match already has results; its lineups cannot be changed."))
    LineupEntry.objects.filter(match=match, team=team).delete()
    entries = LineupEntry.objects.bulk_create([
        LineupEntry(match=match, team=team, board=board, member=member)
        for board, member in enumerate(members, start=1) if member is not None
    ])
    match.games.all().delete()
    home = {e.board: e.member_id for e in match.lineup.filter(team_id=match.home_team_id)}
    away = {e.board: e.member_id for e in match.lineup.filter(team_id=match.away_team_id)}
    games = []
    for board in sorted(set(home) & set(away)):
        white, black = (home[board], away[board]) if board % 2 else (away[board], home[board])
        games.append(Game(round_id=match.round_id, team_match=match,
                          board=(match.number - 1) * match.boards + board,
                          white_id=white, black_id=black))
    Game.objects.bulk_create(games)
    return entries


@transaction.atomic
def team_create(*, tournament: Tournament, name: str, club: Club | None = None) -> Team:
    """A new team of a team competition; teams are drawn in the order they were entered (Berger
    numbers 1, 2, ...), so none can be added once the first round is paired."""
    if tournament.kind != TournamentKind.TEAM:
        raise TournamentRefused(_("Teams can only be added to a team competition."))
    # One team competition at a time, so two officials entering teams get distinct start ranks.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    name = name.strip()
    if not name:
        raise TournamentRefused(_("A team needs a name."), field="name")
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise TournamentRefused(_("This tournament already has a team of this name."), field="name")
    # The Berger schedule is drawn for the number of teams: a later team would change it.
    if TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise TournamentRefused(_("Teams cannot be added after the first round was paired."))
    last = Team.objects.filter(tournament=tournament).aggregate(last=Max("start_rank"))["last"]
    team = Team.objects.create(tournament=tournament, name=name, club=club, start_rank=(last or 0) + 1)
    _rounds_count_sync(tournament)
    return team


@transaction.atomic
def team_players_assign(*, tournament: Tournament, assignments: dict[int, int | None]) -> int:
    """Put registered players (``TournamentPlayer`` ids) into teams (``Team`` ids; None: no team).
    Players not named keep their team. Returns how many players changed team."""
    players = {p.pk: p for p in TournamentPlayer.objects.filter(tournament=tournament, pk__in=assignments)}
    unknown_players = set(assignments) - set(players)
    if unknown_players:
        raise TournamentRefused(_("Only players registered in this tournament can be put into its teams."))
    teams = set(Team.objects.filter(tournament=tournament).values_list("pk", flat=True))
    if {t for t in assignments.values() if t is not None} - teams:
        raise TournamentRefused(_("Players can only be put into teams of this tournament."))
    changed = []
    for player_id, team_id in assignments.items():
        player = players[player_id]
        if player.team_id != team_id:
            player.team_id = team_id
            changed.append(player)
    TournamentPlayer.objects.bulk_update(changed, ["team"])
    return len(changed)
