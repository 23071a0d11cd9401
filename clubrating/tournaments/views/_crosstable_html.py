"""A Swiss' crosstable page (chess-results' "Endstand-Kreuztabelle" and the progress table below
it) drawn from the standings and crosstable rows in one pass.

A 300-player Swiss of nine rounds has 2,700 cells in each of the two tables. The page prints its
rows as text (``_crosstable.html``, ``_progress.html``): here each row is written straight from
the rows, without a line object, a cell object or a dictionary of texts per player (the exports
and the round robin's matrix are ``_tables.ranked_crosstable``'s, which this prints alike). Every
distinct text is formatted and escaped once: the points and ranks repeat, and so do the cells.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from django.utils.safestring import mark_safe
from django.utils.translation import pgettext

from ._tables import RankedTable, _tables
from ._texts import Texts

_TD = '<td class="text-center text-nowrap">'
_TIEBREAK = '<td class="num d-none d-md-table-cell">'


def swiss_crosstable(tournament, *, club_of: Callable[[object], str],
                     link: Callable[[object], str]) -> RankedTable:
    """The crosstable page's table of a Swiss as ``_tables.ranked_crosstable`` gives it with a
    ``link`` (its ``rows_html`` and ``progress_rows_html``; no ``lines``: the page prints the
    rows, and a table without players has none). ``club_of``: a member's club as the reader may
    see it (``clubrating.clubs.privacy``); ``link``: a member's name as HTML (``member_link``)."""
    codes, rows, progress_rows, error = _tables(tournament, True)
    by_player = {line.player.pk: line.cells for line in progress_rows}
    rounds = [cell.round for cell in next(iter(by_player.values()))] if by_player else []
    rank_of_start = {row.player.start_rank: row.rank for row in rows}
    texts = Texts()
    points_text = texts.points
    colours = {"w": escape(pgettext("colour white", "w")), "b": escape(pgettext("colour black", "b"))}
    # Each distinct piece of HTML once: a number by its value, a cell's code and colour by theirs.
    progress_html: dict[float | None, str] = {}
    codes_html: dict[str, str] = {}
    tiebreak_html: dict[tuple, str] = {}
    numbers: dict[object, str] = {}
    points_html: dict[float, str] = {}
    clubs: dict[str, str] = {}
    crosstable, progress = [], []
    for row in rows:
        player = row.player
        cells = []
        after = []
        total = 0.0
        for cell in by_player.get(player.pk, ()):
            points = cell.points
            if points is not None:
                total += points
                piece = progress_html.get(total)
                if piece is None:
                    piece = progress_html[total] = f'<td class="num">{escape(points_text(total))}</td>'
            else:
                piece = progress_html.get(None)
                if piece is None:
                    piece = progress_html[None] = f'<td class="num">{escape(points_text(None))}</td>'
            after.append(piece)
            code = codes_html.get(cell.code)
            if code is None:
                code = codes_html[cell.code] = escape(cell.code)
            # The opponent by his rank (a number), with the colour (escaped above) and the code.
            opponent = cell.opponent
            if opponent is not None and (opponent := rank_of_start.get(opponent)):
                cells.append(f"{_TD}{opponent}{colours.get(cell.colour, '')}{code}</td>")
            else:
                cells.append(f"{_TD}{code}</td>")
        rank = _number(numbers, texts, row.rank)
        rating = _number(numbers, texts, player.rating)
        fide = _number(numbers, texts, player.fide_rating)
        points = points_html.get(row.points)
        if points is None:
            points = points_html[row.points] = escape(points_text(row.points))
        start = escape(texts.rating(player.start_rank, ""))
        member = player.member
        club = club_of(member)
        club_html = clubs.get(club)
        if club_html is None:
            club_html = clubs[club] = escape(str(club))
        values = tuple(row.tiebreaks)
        tiebreaks = tiebreak_html.get(values)
        if tiebreaks is None:
            tiebreaks = tiebreak_html[values] = "".join(
                f"{_TIEBREAK}{escape(text)}</td>" for text in texts.tiebreaks(row.tiebreaks, codes))
        crosstable.append(
            f'<tr>\n    <td class="num">{rank}</td>\n    <td class="num d-none d-md-table-cell">{start}</td>'
            f'\n    <td class="player">{link(member)}</td>'
            f'\n    <td class="num d-none d-sm-table-cell">{rating}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{fide}</td>'
            f'\n    <td class="d-none d-lg-table-cell">{club_html}</td>'
            f'\n    {"".join(cells)}'
            f'\n    <td class="num fw-bold col-pin-end">{points}</td>'
            f'\n    {tiebreaks}\n  </tr>')
        progress.append(
            f'<tr>\n    <td class="num">{rank}</td><td class="player">{escape(str(member))}</td>'
            f'\n    <td class="num d-none d-sm-table-cell">{rating}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{fide}</td>'
            f'\n    {"".join(after)}'
            f'\n    <td class="num fw-bold col-pin-end">{points}</td>\n  </tr>')
    # Each part escaped above (the club's and the member's names are typed by users); the names'
    # links are member_link's own HTML.
    return RankedTable(codes=codes, error=error, rounds=rounds, lines=[],
                       rows_html=mark_safe("".join(crosstable)),
                       progress_rows_html=mark_safe("".join(progress)))


def _number(memo: dict, texts: Texts, value) -> str:
    """A rank's or rating's text, escaped, once per value."""
    html = memo.get(value)
    if html is None:
        html = memo[value] = escape(texts.rating(value))
    return html
