"""Pairing: the next round (round robin, Swiss), its date, unpairing and changing a pairing.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused`` with
a translated message when the request does not fit the tournament's state; nothing is changed then.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.tournaments.acceleration import tournament_acceleration
from clubrating.tournaments.checkin import absentees_leave_round_1
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Game,
    Result,
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
    paired_round_q,
    player_histories,
    round_pair_check,
    rounds_planned,
)


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
