"""The standings as the pages show them: rank, player, points and the tournament's tie-breaks.

The tie-break arithmetic is ``selectors.tournament_standings``; this adapter only turns an
unusable tie-break list (a typo in the tournament's settings) into a message instead of a 500.
"""

from collections.abc import Callable

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..selectors import tiebreak_specs, tournament_standings
from ..tiebreaks import UnknownTiebreak
from ._texts import Texts


def standings(tournament, *, plain: bool = False) -> tuple[list[str], list, str]:
    """(tie-break codes, rows, error message or ""); ``plain``: the rows' players as plain rows
    (``selectors.plain``), for the pages."""
    try:
        codes = [spec.label for spec in tiebreak_specs(tournament=tournament)]
        return codes, tournament_standings(tournament=tournament, codes=codes, plain=plain), ""
    except UnknownTiebreak as error:
        return ([], tournament_standings(tournament=tournament, codes=[], plain=plain),
                unknown_message(tournament, error))


def unknown_message(tournament, error: UnknownTiebreak) -> str:
    return _("The tie-breaks “%(codes)s” cannot be computed (%(error)s); points only.") % {
        "codes": tournament.tiebreaks, "error": error}


def standing_lines(rows, codes: list[str], *, club_of: Callable[[object], str]) -> list[dict]:
    """The page's lines: each row with its texts formatted once (``Texts``), not per cell in the
    template; ``row`` is the standings row itself (the player's name and link). ``club_of``: a
    member's club as the reader may see it (``Viewer.club``, ``clubrating.clubs.privacy``)."""
    texts = Texts()
    lines = []
    for row in rows:
        tiebreaks = texts.tiebreaks(row.tiebreaks, codes)
        lines.append({
            "row": row, "rank": texts.rating(row.rank), "start": texts.rating(row.player.start_rank),
            "club": club_of(row.player.member), "rating": texts.rating(row.player.rating),
            "fide": texts.rating(row.player.fide_rating), "points": texts.points(row.points),
            "tiebreaks": tiebreaks,
        })
        lines[-1].update(_row_html(lines[-1], texts))
    return lines


def rows_html(lines: list[dict], link: Callable[[object], str]) -> str:
    """The lines as the table's rows, one string (``link``: a member's name as HTML, the privacy
    rule's ``member_link``): the page prints it once, not through a template loop per line."""
    return mark_safe("".join(  # every part escaped: _row_html and member_link
        f'<tr>{line["head_html"]}{link(line["row"].player.member)}{line["tail_html"]}</tr>'
        for line in lines))


def _row_html(line: dict, texts: Texts) -> dict:
    """The row's cells before and after the player's name as _standings_table.html prints them: a
    300-player page renders three template variables a row, not one per cell. Every text is
    escaped (the club's name is typed by users)."""
    e = texts.escaped
    club = e(line["club"])
    tiebreaks = line["tiebreaks"]
    # The first two tie-breaks on every screen, the others from medium width on.
    tiebreak_cells = (texts.cells(tiebreaks[:2], "num")
                      + texts.cells(tiebreaks[2:], "num d-none d-md-table-cell"))
    return {
        "head_html": SafeString(  # escaped: see the docstring
            f'\n    <td class="num">{e(line["rank"])}</td><td class="num d-none d-sm-table-cell">'
            f'{e(line["start"])}</td>\n    <td>'),
        "tail_html": SafeString(
            f'<small class="d-block d-md-none text-muted">{club}</small></td>'
            f'\n    <td class="d-none d-md-table-cell">{club}</td><td class="num d-none d-sm-table-cell">'
            f'{e(line["rating"])}</td><td class="num d-none d-md-table-cell">{e(line["fide"])}</td>'
            f'\n    <td class="num fw-bold">{e(line["points"])}</td>'
            f'\n    {tiebreak_cells}\n  '),
    }
