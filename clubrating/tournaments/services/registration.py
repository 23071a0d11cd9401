"""Registration: players and guests, start ranks and seeding, withdrawals and byes.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused`` with
a translated message when the request does not fit the tournament's state; nothing is changed then.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    PLAYED_RESULTS,
    Bye,
    ByeKind,
    Game,
    PairingRules,
    Round,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.recording import game_results_record
from clubrating.tournaments.selectors import last_paired_round_number, paired_round_q
from clubrating.tournaments.services.rounds import _round_is_paired, _rounds_count_sync, _withdrawal_result


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
    # Recorded by the owner of recording, as any result: checked, written with its history, and
    # rated (a forfeit is not rated; a game it replaces loses its rating records).
    results = [(_withdrawal_result(entrants[g.white_id], entrants[g.black_id], g.round.number), None)
               for g in games]
    game_results_record(games=games, results=results, user=user)
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
