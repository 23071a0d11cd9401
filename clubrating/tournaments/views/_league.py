"""A team competition that backs a league division (``clubrating.leagues``) is run on the league's
pages: its schedule, lineups and results change there, under the season's rules (lineup deadline,
eligibility, the captains' entry and confirmation, the league director's decisions). The
tournament's own pages for officials refuse to change them."""

from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from clubrating.leagues.models import Division
from clubrating.leagues.selectors import division_of, division_pk_of


def league_division(tournament_id: int) -> Division | None:
    """The league division backed by the tournament, if any (``leagues.selectors.division_of``)."""
    return division_of(tournament_id=tournament_id)


def league_refusal(request, division: Division):
    """Send the official to the division's rounds, saying why."""
    messages.error(
        request,
        _(
            "This tournament is the division %(division)s of a league season: its rounds, lineups "
            "and results are changed on the league's pages."
        )
        % {"division": division.name},
    )
    return redirect("leagues:division_rounds", pk=division.pk)


def not_a_league_division(view):
    """Refuse a view (with the tournament as ``pk``) for a tournament that backs a league division."""

    @wraps(view)
    def wrapped(request, pk, *args, **kwargs):
        division = league_division(pk)
        if division is not None:
            return league_refusal(request, division)
        return view(request, pk, *args, **kwargs)

    return wrapped


def league_pages(target: str):
    """Show a league division's own view instead of a tournament page (with the tournament as
    ``pk``): its table, rounds (the round ``number`` chosen) or players. A division's tournament
    has teams and matches, not a Swiss field: its player list, standings and pairings read empty
    or wrong there."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, pk, *args, **kwargs):
            division = division_pk_of(tournament_id=pk)
            if division is None:
                return view(request, pk, *args, **kwargs)
            url = reverse(target, args=[division])
            if target == "leagues:division_rounds" and kwargs.get("number"):
                url += f"?round={int(kwargs['number'])}"
            return redirect(url)

        return wrapped

    return decorate
