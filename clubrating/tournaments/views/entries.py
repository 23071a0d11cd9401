"""Registration and check-in pages: the official's registration window, list of entries and
check-in list; the member's one-tap registration, check-in, rounds to sit out and withdrawal; the
guest's form.

The rules are ``entries`` and ``checkin`` (one transaction each, a translated ``Refused`` when
refused, nothing changed); these views check who asks, collect the input and report the outcome.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.accounts.permissions import official_required
from clubrating.clubs.models import Member
from clubrating.core.errors import Refused
from ratings.selectors import pool_ratings, tournament_rating_pool

from .. import checkin, entries, selectors
from ..errors import TournamentRefused
from ..forms_entries import EntryWindowForm, GuestEntryForm, SkipRoundsForm
from ..models import Entry, EntryState, EntryWindow, Tournament, TournamentKind, TournamentPlayer
from .public import tournament_context

DECISIONS = {
    "confirm": EntryState.CONFIRMED,
    "refuse": EntryState.REFUSED,
    "wait": EntryState.WAITING,
}


# --- the official's pages -------------------------------------------------------------------

def _entries_page(request, tournament: Tournament, form: EntryWindowForm | None = None, status: int = 200):
    window = EntryWindow.objects.filter(tournament=tournament).first()
    listed = list(tournament.entries.select_related("member", "member__club").order_by("created_at", "pk"))
    return render(request, "tournaments/entries/manage.html", tournament_context(
        request, tournament, "entries", window=window, form=form or EntryWindowForm.for_window(window),
        open_entries=[e for e in listed if e.state in (EntryState.PENDING, EntryState.WAITING)],
        decided_entries=[e for e in listed if e.state not in (EntryState.PENDING, EntryState.WAITING)],
        player_count=tournament.players.count(), is_swiss=tournament.kind == TournamentKind.SWISS,
    ), status=status)


@official_required
def entries_manage(request, pk):
    """Open or change the registration (POST) and the list of entries to decide (GET)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.method != "POST":
        return _entries_page(request, tournament)
    form = EntryWindowForm(request.POST)
    if form.is_valid():
        try:
            entries.entry_window_set(tournament=tournament, **form.cleaned_data)
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("The registration has been saved."))
            return redirect("tournaments:entries", pk=pk)
    return _entries_page(request, tournament, form, status=400)


def _current_rating(tournament: Tournament, member_id: int | None) -> int | None:
    """The member's current published national rating, as the registration page takes it."""
    if member_id is None:
        return None
    rating = pool_ratings(tournament_rating_pool(tournament), [member_id]).get(member_id)
    return rating.published if rating else None


@official_required
@require_POST
def entry_decide(request, pk, entry_pk):
    """Confirm (into the starting list), refuse or put on the waiting list."""
    entry = get_object_or_404(Entry.objects.select_related("tournament"), pk=entry_pk, tournament_id=pk)
    state = DECISIONS.get(request.POST.get("decision", ""))
    if state is None:
        messages.error(request, _("Choose to confirm, refuse or put on the waiting list."))
        return redirect("tournaments:entries", pk=pk)
    try:
        entries.entry_decide(entry=entry, state=state, by=request.user,
                             rating=_current_rating(entry.tournament, entry.member_id))
    except Refused as error:
        messages.error(request, error.message)
    else:
        messages.success(request, {
            EntryState.CONFIRMED: _("%(name)s is in the starting list."),
            EntryState.REFUSED: _("The registration of %(name)s has been refused."),
            EntryState.WAITING: _("%(name)s is on the waiting list."),
        }[state] % {"name": entry.full_name})
    return redirect("tournaments:entries", pk=pk)


@official_required
def check_in_list(request, pk):
    """The official ticks the players who are here before round 1 (POST: one player, present or not)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        player = TournamentPlayer.objects.filter(tournament=tournament, pk=request.POST.get("player") or 0
                                                 ).select_related("member").first()
        if player is None:
            messages.error(request, _("Choose a player of this tournament."))
        else:
            present = request.POST.get("present") == "1"
            try:
                checkin.player_check_in(player=player, present=present)
            except Refused as error:
                messages.error(request, error.message)
            else:
                text = (_("%(member)s is checked in.") if present
                        else _("%(member)s is not checked in any more."))
                messages.success(request, text % {"member": player.member})
        # Back to the same line of a long list, ready for the next tick.
        anchor = f"#player-{player.pk}" if player is not None else ""
        return redirect(reverse("tournaments:check_in", args=[pk]) + anchor)
    players = list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))
    return render(request, "tournaments/entries/check_in.html", tournament_context(
        request, tournament, "check_in", players=players,
        checked_count=sum(1 for p in players if p.checked_in_at),
        required=checkin.check_in_required(tournament),
        round_1_paired=tournament.rounds.filter(number=1, games__isnull=False).exists(),
    ))


# --- the member's own entry -----------------------------------------------------------------

def _own_member(request) -> Member | None:
    return Member.objects.filter(user_id=request.user.pk).first() if request.user.is_authenticated else None


def _as_member(view):
    """The member himself (his login's member): a visitor is sent to log in; a login without a
    member is told so. The view gets the tournament and the member."""
    def wrapped(request, pk):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, pk=pk)
        member = _own_member(request)
        if member is None:
            messages.error(request, _("Your login is not linked to a member of the club; ask an official."))
            return redirect(tournament)
        try:
            text = view(request, tournament, member)
        except Refused as error:
            messages.error(request, error.message)
        else:
            messages.success(request, text)
        return redirect(tournament)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return require_POST(wrapped)


def _own_player(tournament: Tournament, member: Member) -> TournamentPlayer:
    player = TournamentPlayer.objects.filter(tournament=tournament, member=member).select_related(
        "tournament", "member").first()
    if player is None:
        raise TournamentRefused(_("You are not in the starting list of this tournament."))
    return player


@_as_member
def entry_enter(request, tournament, member):
    """One tap: the member registers himself."""
    entries.entry_submit_member(tournament=tournament, member=member)
    return _("You have registered; the official confirms your registration.")


@_as_member
def entry_cancel(request, tournament, member):
    """The member takes back his registration that is not confirmed yet."""
    entry = Entry.objects.filter(tournament=tournament, member=member, state__in=entries.OPEN_STATES).first()
    if entry is None:
        raise TournamentRefused(_("You have no registration to cancel."))
    entries.entry_cancel(entry=entry)
    return _("Your registration has been cancelled.")


@_as_member
def own_check_in(request, tournament, member):
    """The player checks in on his phone before round 1 (or takes it back)."""
    present = request.POST.get("present", "1") == "1"
    checkin.player_check_in(player=_own_player(tournament, member), present=present)
    return _("You are checked in for round 1.") if present else _("Your check-in has been taken back.")


@_as_member
def own_skip(request, tournament, member):
    """The player sits out coming rounds (a zero-point bye each)."""
    player = _own_player(tournament, member)
    first = selectors.last_paired_round_number(tournament=tournament) + 1
    form = SkipRoundsForm(request.POST, first_round=first, last_round=selectors.rounds_planned(tournament))
    if not form.is_valid():
        raise TournamentRefused(_("Choose the rounds you will not play."))
    rounds = form.cleaned_data["rounds"]
    entries.player_skip_rounds(player=player, rounds=rounds)
    return _("You sit out round(s) %(rounds)s.") % {"rounds": ", ".join(str(n) for n in sorted(rounds))}


@_as_member
def own_leave(request, tournament, member):
    """The player withdraws from the tournament from the next round that is not paired."""
    if request.POST.get("confirm") != "1":
        raise TournamentRefused(_("Tick the box to confirm that you withdraw."))
    player = entries.player_leave(player=_own_player(tournament, member))
    return _("You have withdrawn from round %(number)d on.") % {"number": player.withdrawn_from_round}


# --- the guest's form -----------------------------------------------------------------------

def entry_guest(request, pk):
    """A guest registers (name, club, year of birth, FIDE ID, e-mail) while guests may."""
    tournament = get_object_or_404(Tournament, pk=pk)
    window = EntryWindow.objects.filter(tournament=tournament, guests_may_enter=True).first()
    if window is None:
        raise Http404
    form = GuestEntryForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = entries.entry_submit_guest(tournament=tournament, **form.cleaned_data)
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("Thank you, %(name)s: your registration has arrived; the official "
                                        "confirms it.") % {"name": entry.full_name})
            return redirect("tournaments:entry_guest", pk=pk)
    now = timezone.now()
    return render(request, "tournaments/entries/guest.html", {
        "tournament": tournament, "window": window, "form": form,
        "is_open": window.opens_at <= now < window.closes_at,
    }, status=400 if form.errors else 200)
