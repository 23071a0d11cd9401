"""The tournaments' part of merging a duplicate member (``clubrating.clubs.merge``): his
registrations, entries, games, byes, line-ups and e-mails move to the member kept. Two records
that sat at one board, in one round or in one tournament's player list are two people (or one
tournament would count one player twice): that is refused, naming where."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member

from .models import Bye, Entry, EntryState, Game, LineupEntry, Notification, Round, TournamentPlayer

CLOSED_ENTRIES = (EntryState.REFUSED, EntryState.CANCELLED)


def _rounds(member: Member) -> set[int]:
    """The rounds the member has a game, a bye or a line-up place in."""
    games = Game.objects.filter(Q(white=member) | Q(black=member)).values_list("round_id", flat=True)
    byes = Bye.objects.filter(member=member).values_list("round_id", flat=True)
    lineups = LineupEntry.objects.filter(member=member).values_list("match__round_id", flat=True)
    return set(games) | set(byes) | set(lineups)


def member_tournaments_merge_refusals(keep: Member, duplicate: Member, user) -> list[str]:
    reasons = []
    if Game.objects.filter(Q(white=keep, black=duplicate) | Q(white=duplicate, black=keep)).exists():
        reasons.append(_("They played each other: one person cannot have played himself."))
    both = _rounds(keep) & _rounds(duplicate)
    rounds = Round.objects.filter(pk__in=both).select_related("tournament")
    for rnd in rounds.order_by("tournament__name", "number"):
        reasons.append(
            _("Both play in round %(round)d of “%(tournament)s”.")
            % {"round": rnd.number, "tournament": rnd.tournament.name}
        )
    players = TournamentPlayer.objects.filter(member=duplicate, tournament__players__member=keep)
    for player in players.select_related("tournament").order_by("tournament__name"):
        reasons.append(_("Both are players of “%(tournament)s”.") % {"tournament": player.tournament.name})
    def active(member):
        return set(Entry.objects.filter(member=member).exclude(state__in=CLOSED_ENTRIES)
                   .values_list("tournament__name", flat=True))

    for name in sorted(active(keep) & active(duplicate)):
        reasons.append(_("Both have registered for “%(tournament)s”.") % {"tournament": name})
    return reasons


def member_tournaments_merge(keep: Member, duplicate: Member, user) -> None:
    TournamentPlayer.objects.filter(member=duplicate).update(member=keep)
    Entry.objects.filter(member=duplicate).update(member=keep)
    Game.objects.filter(white=duplicate).update(white=keep)
    Game.objects.filter(black=duplicate).update(black=keep)
    Bye.objects.filter(member=duplicate).update(member=keep)
    LineupEntry.objects.filter(member=duplicate).update(member=keep)
    Notification.objects.filter(member=duplicate).update(member=keep)
