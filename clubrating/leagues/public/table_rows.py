"""The division table's, cross table's and progress table's rows as HTML, drawn here once per
version of the division: a table of 12 teams with its 12 × 12 cross table and a rank per team and
round is some 500 cells, each a handful of template nodes (a tag, a filter, an escape) that cost
the page more than reading and ranking the division. Each cell's text is worked out as the
templates did (``numbers`` filters' rules, ``points_text``) and escaped by ``format_html``; the
markup is the templates' own, byte for byte."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from clubrating.core.formatting import decimal_text, points_text
from clubrating.leagues.models import Criterion, Division
from clubrating.leagues.selectors_public import DivisionData

_KEY = 987654321  # a key no team has: the team page's address reversed once, each team's put in


def _team_urls(division, teams) -> dict[int, str]:
    shape = reverse("leagues:division_team", args=[division.pk, _KEY])
    return {team.pk: escape(shape.replace(str(_KEY), str(team.pk))) for team in teams}


def _joined(parts) -> SafeString:
    return mark_safe("".join(parts))  # each part escaped by format_html


def table_body(division, table_rows) -> SafeString:
    """The division table's rows: (row, its criteria's texts) in the order of the table."""
    urls = _team_urls(division, [row.team for row, _cells in table_rows])
    parts = []
    for row, cells in table_rows:
        name = escape(row.team.name)
        parts.append(format_html(
            '<tr data-team="{}">\n    <td class="num">{}</td>'
            '<td class="text-nowrap"><a href="{}">{}</a></td>\n'
            '    <td class="num d-none d-md-table-cell">{}</td><td class="num d-none d-md-table-cell">{}</td>'
            '<td class="num d-none d-md-table-cell">{}</td>'
            '<td class="num d-none d-md-table-cell">{}</td>\n    ',
            name, row.rank, urls[row.team.pk], name, row.played, row.won, row.drawn, row.lost))
        parts.extend(format_html('<td class="num{}">{}</td>', " fw-bold" if index == 0 else "", text)
                     for index, text in enumerate(cells))
        parts.append("\n  </tr>")
    return _joined(parts)


def cross_head(cross_rows) -> SafeString:
    """The cross table's column heads: each team's number, its name as the title."""
    return _joined(format_html('<th class="num" title="{}">{}</th>', row.team.name, number)
                   for number, (row, _cells) in enumerate(cross_rows, start=1))


def cross_body(cross_rows) -> SafeString:
    """The cross table's rows: (row, each cell's text or None for the team itself)."""
    parts = []
    for number, (row, cells) in enumerate(cross_rows, start=1):
        parts.append(format_html(
            '<tr>\n    <td class="num d-none d-md-table-cell">{}</td>'
            '<td class="text-nowrap league-cross-team">'
            '<span class="d-md-none">{}. </span>{}</td>\n    ', number, number, row.team.name))
        parts.extend('<td class="league-cross-self table-secondary"></td>' if cell is None
                     else format_html('<td class="num text-nowrap">{}</td>', cell) for cell in cells)
        parts.append(format_html('\n    <td class="num fw-bold col-primary col-pin-end">{}</td>\n  </tr>',
                                 points_text(row.board_points)))
    return _joined(parts)


def progress_body(division, progress_rows) -> SafeString:
    """The rank after each round: (team, its ranks) in the order of the table."""
    urls = _team_urls(division, [team for team, _ranks in progress_rows])
    return _joined(
        format_html('<tr><td class="text-nowrap"><a href="{}">{}</a></td>{}</tr>', urls[team.pk], team.name,
                    _joined(format_html('<td class="num">{}</td>', rank) for rank in ranks))
        for team, ranks in progress_rows)


def criterion_text(row, code: str) -> str:
    """A criterion's value as the table shows it: board and Berlin points with one decimal,
    counts whole; the direct encounter empty where it was not applied."""
    value = row.criteria.get(code)
    if value is None:
        return ""
    if code in (Criterion.BOARD_POINTS, Criterion.BERLIN):
        return points_text(value)
    return decimal_text(value, 0 if float(value).is_integer() else 1)


def tables(division: Division, data: DivisionData) -> dict:
    """The table's and the cross table's rows as HTML, each criterion's and cell's text worked
    out as the table shows it."""
    codes = division.season.criteria
    table = [(row, [criterion_text(row, code) for code in codes]) for row in data.table]
    cross = [
        (row, [None if cell is None else " · ".join(points_text(v) for v in cell) for cell in cells])
        for row, cells in data.cross_rows()
    ]
    return {"table_body": table_body(division, table), "cross_head": cross_head(cross),
            "cross_body": cross_body(cross)}
