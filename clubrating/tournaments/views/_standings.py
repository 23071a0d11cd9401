"""The standings as the pages show them: rank, player, points and the tournament's tie-breaks.

The tie-break arithmetic is ``selectors.tournament_standings``; this adapter only turns an
unusable tie-break list (a typo in the tournament's settings) into a message instead of a 500.
"""

from django.utils.translation import gettext as _

from ..selectors import tournament_standings
from ..tiebreaks import UnknownTiebreak, parse_tiebreaks


def standings(tournament) -> tuple[list[str], list, str]:
    """(tie-break codes, rows, error message or "")."""
    try:
        codes = [spec.label for spec in parse_tiebreaks(tournament.tiebreaks or "")]
        return codes, tournament_standings(tournament=tournament, codes=codes), ""
    except UnknownTiebreak as error:
        message = _("The tie-breaks “%(codes)s” cannot be computed (%(error)s); points only.") % {
            "codes": tournament.tiebreaks, "error": error}
        return [], tournament_standings(tournament=tournament, codes=[]), message
