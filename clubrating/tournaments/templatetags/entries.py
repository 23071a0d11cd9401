"""The registration box of the tournament page (what the visitor, the member or the player may do
now) and the pairing page's list of players who have not checked in."""

from django import template
from django.utils import timezone

from clubrating.clubs.models import Member
from clubrating.tournaments import checkin, selectors
from clubrating.tournaments.entries import OPEN_STATES
from clubrating.tournaments.forms_entries import SkipRoundsForm
from clubrating.tournaments.models import (
    Entry,
    EntryState,
    EntryWindow,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)

register = template.Library()

UNDECIDED = (EntryState.PENDING, EntryState.WAITING)


@register.inclusion_tag("tournaments/entries/_member_box.html", takes_context=True)
def entry_box(context, tournament: Tournament) -> dict:
    """Registration open or not; the member's entry and its state; the player's check-in,
    rounds to sit out and withdrawal. Empty for a tournament without registration and a
    visitor or member who does not play in it."""
    request = context["request"]
    user = request.user
    now = timezone.now()
    window = EntryWindow.objects.filter(tournament=tournament).first()
    member = Member.objects.filter(user_id=user.pk).first() if user.is_authenticated else None
    player = entry = None
    if member is not None:
        player = TournamentPlayer.objects.filter(tournament=tournament, member=member).first()
        entry = (Entry.objects.filter(tournament=tournament, member=member)
                 .order_by("-created_at", "-pk").first())
    last_paired = selectors.last_paired_round_number(tournament=tournament)
    window_open = window is not None and window.opens_at <= now < window.closes_at and last_paired == 0
    box = {
        "request": request, "tournament": tournament, "window": window, "window_open": window_open,
        "user": user, "member": member, "entry": entry, "player": player,
        "entry_open": entry is not None and entry.state in OPEN_STATES and player is None,
        "can_enter": (window_open and window.members_may_enter and member is not None and player is None
                      and (entry is None or entry.state not in OPEN_STATES)),
        "guests_welcome": window_open and window.guests_may_enter,
        "window_pending": window is not None and now < window.opens_at,
    }
    if player is not None and player.withdrawn_from_round is None:
        next_round = last_paired + 1
        planned = selectors.rounds_planned(tournament)
        box["check_in_open"] = checkin.check_in_required(tournament) and last_paired == 0
        box["can_leave"] = next_round <= planned
        if tournament.kind == TournamentKind.SWISS and next_round <= planned:
            box["skip_form"] = SkipRoundsForm(first_round=next_round, last_round=planned)
    if context.get("official") and window is not None:
        box["official"] = True
        box["undecided"] = Entry.objects.filter(tournament=tournament, state__in=UNDECIDED).count()
    box["shown"] = window is not None or player is not None
    return box


@register.inclusion_tag("tournaments/entries/_missing_check_in.html")
def missing_check_in(tournament: Tournament) -> dict:
    """Before round 1 of a tournament with check-in: who has not checked in (and so sits round 1
    out if it is paired now)."""
    return {"tournament": tournament, "required": checkin.check_in_required(tournament),
            "missing": checkin.players_missing_check_in(tournament=tournament)}
