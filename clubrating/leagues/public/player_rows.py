"""The players' table of a division's players page, drawn from rows worked out once."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from clubrating.accounts.templatetags.privacy import team_player
from clubrating.core.formatting import decimal_text
from clubrating.core.templatetags.numbers import performance


def player_rows(request, lines: list, boards: list[int]) -> SafeString:
    """The players' lines as the table's rows, each text escaped here (the name as
    ``team_player`` shows it to this reader, numbers by the ``numbers`` filters' rules): a
    division's hundred-odd lines with a cell per board cost the template a tag per cell. The
    markup is the template's own; "" when there is no line."""
    context = {"request": request}
    texts: dict[tuple[float, int], str] = {}  # a handful of scores, each formatted and escaped once
    teams: dict[object, str] = {}

    def text(value: float, places: int = 1) -> str:
        key = (value, places)
        if key not in texts:
            texts[key] = escape(decimal_text(value, places))
        return texts[key]

    parts = []
    for line in lines:
        if line.team not in teams:
            teams[line.team] = escape(line.team.name)
        team = teams[line.team]
        rp = performance(line.performance, len(line.opponents))
        cells = "".join(
            f'<td class="num text-nowrap">{text(cell[0])}/{int(cell[1])}</td>' if cell
            else '<td class="num text-nowrap"></td>' for cell in map(line.boards.get, boards))
        parts.append(
            f'<tr>\n    <td class="text-nowrap">{team_player(context, line.member)}'
            f'<div class="small text-muted d-md-none league-player-team">{team}</div></td>'
            f'<td class="text-nowrap d-none d-md-table-cell">{team}</td>\n    {cells}\n    '
            f'<td class="num fw-bold col-primary col-pin-end">{text(line.points)}</td>'
            f'<td class="num">{int(line.games)}</td><td class="num">{text(line.percent, 0)}</td>'
            f'<td class="num text-nowrap league-rp">{rp}</td>\n  </tr>')
    # Every part above is escaped: the names by ``team_player``, the teams' names and the numbers'
    # texts by ``escape``, the performance by ``performance`` (format_html).
    return mark_safe("".join(parts))
