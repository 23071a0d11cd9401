"""Check-in before round 1: with it on (``EntryWindow.check_in``), only the players who said
they are here (on their phone, or ticked by the official) are paired in round 1; the others sit
it out with a zero-point bye and are paired from round 2 if they come."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .errors import TournamentRefused
from .models import Bye, ByeKind, EntryWindow, Game, Round, Tournament, TournamentPlayer


def _round_1_paired(tournament: Tournament) -> bool:
    return Game.objects.filter(round__tournament=tournament, round__number=1).exists()


@transaction.atomic
def player_check_in(*, player: TournamentPlayer, present: bool = True,
                    now: datetime.datetime | None = None) -> TournamentPlayer:
    """The player (on his phone) or the official (ticking the list) says he is here for round 1."""
    player = (TournamentPlayer.objects.select_for_update(of=("self",)).select_related("tournament")
              .get(pk=player.pk))
    if _round_1_paired(player.tournament):
        raise TournamentRefused(_("Round 1 is paired already; check-in is over."))
    player.checked_in_at = (now or timezone.now()) if present else None
    player.save(update_fields=["checked_in_at"])
    return player


def check_in_required(tournament: Tournament) -> bool:
    return EntryWindow.objects.filter(tournament=tournament, check_in=True).exists()


def players_missing_check_in(*, tournament: Tournament) -> list[TournamentPlayer]:
    """With check-in on and round 1 not paired: the players who have not checked in."""
    if not check_in_required(tournament) or _round_1_paired(tournament):
        return []
    return list(tournament.players.filter(checked_in_at__isnull=True, withdrawn_from_round__isnull=True)
                .select_related("member").order_by("start_rank"))


def absentees_leave_round_1(*, tournament: Tournament, rnd: Round) -> list[int]:
    """Round 1 with check-in on: everybody who has not checked in sits the round out (a
    zero-point bye, FIDE TRF code ``Z``) and is paired from round 2 if he comes. Returns their
    member ids. Called by the pairing before it pairs round 1."""
    if rnd.number != 1 or not check_in_required(tournament):
        return []
    has_bye = set(rnd.byes.values_list("member_id", flat=True))
    missing = [p for p in players_missing_check_in(tournament=tournament) if p.member_id not in has_bye]
    Bye.objects.bulk_create([Bye(round=rnd, member_id=p.member_id, kind=ByeKind.ZERO) for p in missing])
    return [p.member_id for p in missing]
