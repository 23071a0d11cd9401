"""Registration and check-in: a tournament open for registration, members entering with one
tap, guests with their data, the official confirming, refusing or putting on the waiting list,
players checking in before round 1 and withdrawing from coming rounds themselves.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused``
with a translated message; a refusal changes nothing."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member

from . import services
from .errors import TournamentRefused
from .models import (
    ByeKind,
    Entry,
    EntryState,
    EntryWindow,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from .notifications import notification_queue
from .selectors import last_paired_round_number

OPEN_STATES = (EntryState.PENDING, EntryState.WAITING, EntryState.CONFIRMED)


@transaction.atomic
def entry_window_set(
    *, tournament: Tournament, opens_at: datetime.datetime, closes_at: datetime.datetime,
    max_players: int | None = None, members_may_enter: bool = True, guests_may_enter: bool = False,
    check_in: bool = False,
) -> EntryWindow:
    """Open (or change) the tournament's registration."""
    if closes_at <= opens_at:
        raise TournamentRefused(_("Registration must close after it opens."))
    if max_players is not None and max_players < 2:
        raise TournamentRefused(_("A tournament needs room for at least two players."))
    if not (members_may_enter or guests_may_enter):
        raise TournamentRefused(_("Let members, guests or both register."))
    if check_in and tournament.kind != TournamentKind.SWISS:
        raise TournamentRefused(_("Check-in decides who is paired in round 1 of a Swiss tournament; a "
                                  "round robin's schedule is fixed by its players."))
    window, _created = EntryWindow.objects.update_or_create(tournament=tournament, defaults={
        "opens_at": opens_at, "closes_at": closes_at, "max_players": max_players,
        "members_may_enter": members_may_enter, "guests_may_enter": guests_may_enter, "check_in": check_in,
    })
    return window


def _window_open(tournament: Tournament, now: datetime.datetime) -> EntryWindow:
    window = EntryWindow.objects.filter(tournament=tournament).first()
    if window is None:
        raise TournamentRefused(_("This tournament is not open for registration."))
    if now < window.opens_at:
        raise TournamentRefused(_("Registration opens on %(date)s.") % {
            "date": timezone.localtime(window.opens_at).strftime("%d.%m.%Y %H:%M")})
    if now >= window.closes_at:
        raise TournamentRefused(_("Registration closed on %(date)s.") % {
            "date": timezone.localtime(window.closes_at).strftime("%d.%m.%Y %H:%M")})
    if last_paired_round_number(tournament=tournament) > 0:
        raise TournamentRefused(_("The tournament has started; ask the official to register you."))
    return window


@transaction.atomic
def entry_submit_member(*, tournament: Tournament, member: Member, now: datetime.datetime | None = None
                        ) -> Entry:
    """A member registers himself (one tap)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    window = _window_open(tournament, now or timezone.now())
    if not window.members_may_enter:
        raise TournamentRefused(_("Only guests register for this tournament here."))
    if TournamentPlayer.objects.filter(tournament=tournament, member=member).exists():
        raise TournamentRefused(_("You are already in the starting list."))
    if Entry.objects.filter(tournament=tournament, member=member, state__in=OPEN_STATES).exists():
        raise TournamentRefused(_("You have already registered."))
    return Entry.objects.create(
        tournament=tournament, member=member, last_name=member.last_name, first_name=member.first_name,
        club_name=member.club.name if member.club_id else "", birth_year=member.year_of_birth,
        # No address copied: a member's confirmation e-mail follows his own opt-in
        # (``Member.notify_by_email``); the entry's address is the one a guest gives for it.
        fide_id=member.fide_id,
    )


@transaction.atomic
def entry_submit_guest(
    *, tournament: Tournament, last_name: str, first_name: str = "", club_name: str = "",
    birth_year: int | None = None, fide_id: int | None = None, email: str = "",
    now: datetime.datetime | None = None,
) -> Entry:
    """A guest registers with his name, club, year of birth and FIDE ID; what the site knows of
    the FIDE ID (a member or earlier guest with it) fills in the rest."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    window = _window_open(tournament, now or timezone.now())
    if not window.guests_may_enter:
        raise TournamentRefused(_("Only members of the club register for this tournament."))
    known = Member.objects.filter(fide_id=fide_id).select_related("club").first() if fide_id else None
    if known is not None:
        last_name = last_name.strip() or known.last_name
        first_name = first_name.strip() or known.first_name
        club_name = club_name.strip() or (known.club.name if known.club_id else "")
        birth_year = birth_year or known.year_of_birth
    if not last_name.strip():
        raise TournamentRefused(_("Give your last name."))
    duplicate = Entry.objects.filter(tournament=tournament, state__in=OPEN_STATES)
    duplicate = duplicate.filter(Q(fide_id=fide_id) if fide_id else Q(
        last_name__iexact=last_name.strip(), first_name__iexact=first_name.strip(), birth_year=birth_year))
    if duplicate.exists() or (known is not None and TournamentPlayer.objects.filter(
            tournament=tournament, member=known).exists()):
        raise TournamentRefused(_("This player has already registered."))
    return Entry.objects.create(
        tournament=tournament, member=known, last_name=last_name.strip(), first_name=first_name.strip(),
        club_name=club_name.strip(), birth_year=birth_year, fide_id=fide_id, email=email.strip(),
    )


def _confirmed_count(tournament: Tournament) -> int:
    return TournamentPlayer.objects.filter(tournament=tournament).count()


@transaction.atomic
def entry_decide(*, entry: Entry, state: str, by, rating: int | None = None,
                 now: datetime.datetime | None = None) -> Entry:
    """The official confirms (the player enters the starting list), refuses, or puts the entry
    on the waiting list. ``rating``: the player's current national rating, passed in by the
    caller as for every registration. Confirming beyond the maximum is refused."""
    # The tournament first, as registering does, then the entry (only its own row: the member
    # may be missing, and PostgreSQL locks no row of an outer join).
    Tournament.objects.select_for_update().get(pk=Entry.objects.values_list("tournament_id", flat=True)
                                               .get(pk=entry.pk))
    entry = (Entry.objects.select_for_update(of=("self",)).select_related("tournament", "member")
             .get(pk=entry.pk))
    tournament = entry.tournament
    if state not in (EntryState.CONFIRMED, EntryState.REFUSED, EntryState.WAITING):
        raise TournamentRefused(_("Choose to confirm, refuse or put on the waiting list."))
    if entry.state == state and state in (EntryState.CONFIRMED, EntryState.REFUSED):
        return entry  # asked twice: done already
    if entry.state == EntryState.CONFIRMED:
        raise TournamentRefused(_("%(name)s is in the starting list already; withdraw the player there.")
                                % {"name": entry.full_name})
    if entry.state == EntryState.CANCELLED:
        raise TournamentRefused(_("%(name)s has cancelled the registration.") % {"name": entry.full_name})
    if state == EntryState.CONFIRMED:
        window = EntryWindow.objects.filter(tournament=tournament).first()
        full = window is not None and window.max_players is not None
        if full and _confirmed_count(tournament) >= window.max_players:
            raise TournamentRefused(_("The tournament is full (%(count)d players); put the entry on the "
                                      "waiting list.") % {"count": window.max_players})
        if entry.member is not None:
            player = services.player_register(tournament=tournament, member=entry.member, rating=rating)
        else:
            player = services.guest_register(
                tournament=tournament, last_name=entry.last_name, first_name=entry.first_name,
                club_name=entry.club_name, fide_id=entry.fide_id, birth_year=entry.birth_year, rating=rating)
            entry.member = player.member
            if entry.email and not player.member.email:
                Member.objects.filter(pk=player.member_id).update(email=entry.email)
    entry.state = state
    entry.decided_at = now or timezone.now()
    entry.decided_by = by if getattr(by, "pk", None) else None
    entry.save(update_fields=["state", "member", "decided_at", "decided_by"])
    if state == EntryState.CONFIRMED:
        notification_queue(kind="entry_confirmed", tournament=tournament, members=[entry.member_id],
                           email_override={entry.member_id: entry.email} if entry.email else None)
    return entry


@transaction.atomic
def entry_cancel(*, entry: Entry) -> Entry:
    """The player takes back a registration that is not confirmed yet."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.state == EntryState.CONFIRMED:
        raise TournamentRefused(_("You are in the starting list; withdraw from the coming rounds instead."))
    if entry.state not in (EntryState.PENDING, EntryState.WAITING):
        return entry
    entry.state = EntryState.CANCELLED
    entry.save(update_fields=["state"])
    return entry


@transaction.atomic
def player_skip_rounds(*, player: TournamentPlayer, rounds: list[int]) -> list:
    """The player himself sits out coming rounds that are not paired yet (a zero-point bye)."""
    next_round = last_paired_round_number(tournament=player.tournament) + 1
    if not rounds or min(rounds) < next_round:
        raise TournamentRefused(_("Choose rounds that are not paired yet (from round %(number)d on).")
                                % {"number": next_round})
    return [services.bye_request(player=player, round_number=number, kind=ByeKind.ZERO)
            for number in sorted(set(rounds))]


@transaction.atomic
def player_leave(*, player: TournamentPlayer) -> TournamentPlayer:
    """The player himself withdraws from the tournament from the next round that is not paired."""
    next_round = last_paired_round_number(tournament=player.tournament) + 1
    if next_round > player.tournament.rounds_count:
        raise TournamentRefused(_("Every round is paired already."))
    return services.player_withdraw(player=player, from_round=next_round)
