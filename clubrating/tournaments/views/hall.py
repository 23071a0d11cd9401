"""The hall screen: a projector in the playing hall shows the current round's pairings and the
standings in large type, paging through them on its own (static/js/hall.js) and asking for the
content again when results come in (the spectators' pages' live check: 204 while unchanged)."""

from django.shortcuts import get_object_or_404

from clubrating.accounts.permissions import public_tournaments_required

from .. import selectors
from ..models import Tournament
from . import _standings
from ._league import league_pages
from .public import live_check, live_render, national_label, rounds_with_pairings


@public_tournaments_required
@league_pages("leagues:division_rounds")
def hall_screen(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    extra, unchanged = live_check(request, tournament=tournament)
    if unchanged:
        return unchanged
    number = selectors.last_paired_round_number(tournament=tournament)
    rnd = rounds_with_pairings(tournament, number=number)[0] if number else None
    codes, rows, _error = _standings.standings(tournament)
    context = {
        "tournament": tournament, "round": rnd, "pairing_rows": rnd.rows if rnd else [],
        "codes": codes[:2], "standings": rows, "national_label": national_label(tournament),
        "live_url": request.build_absolute_uri(tournament.get_absolute_url()), **extra,
    }
    return live_render(request, "tournaments/hall.html", "tournaments/_hall_content.html", context)
