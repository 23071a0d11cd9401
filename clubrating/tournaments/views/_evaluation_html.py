"""A rating evaluation's row drawn in Python, as ``_evaluation_body.html`` prints it.

A big tournament's evaluation page brings a player's calculation only when it is opened, so each
of its 300 rows is the same dozen cells: drawn here from the line's texts (``evaluation_lines``)
in one step instead of twenty template lookups and a tag a row, which cost the page most of its
time right after a save. A row that carries its calculation (a small tournament, ``?all=1``) is
drawn by the template as before.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from clubrating.core.formatting import rating_text

_ROW = (
    '\n    <tr>'
    '\n      <td class="num d-none d-md-table-cell">{start}</td>'
    '\n      <td><a class="btn btn-link p-0 text-start text-reset evaluation-toggle{collapsed}" '
    'href="?player={member}#{target}" data-bs-toggle="collapse" data-bs-target="#{target}" '
    'aria-expanded="{expanded}" aria-controls="{target}" hx-get="?player={member}&amp;pool={pool}" '
    'hx-target="#{target}-games" hx-trigger="click once">{name}</a></td>'
    '\n      <td class="num">{rating}</td>'
    '\n      <td class="num d-none d-md-table-cell">{games}</td>'
    '\n      <td class="num d-none d-sm-table-cell">{points}</td>'
    '\n      <td class="num d-none d-lg-table-cell">{average}</td>'
    '\n      <td class="num d-none d-lg-table-cell">{expected}</td>'
    '\n      <td class="num d-none d-sm-table-cell">{surplus}</td>'
    '\n      <td class="num d-none d-md-table-cell text-nowrap">{performance}</td>'
    '\n      <td class="num d-none d-lg-table-cell">{factor}</td>'
    '\n      <td class="num d-none d-sm-table-cell">{change}</td>'
    '\n      <td class="num fw-bold">{rounded}</td>'
    '\n    </tr>'
    '\n    <tr class="collapse{show} evaluation-games" id="{target}">'
    '<td colspan="12" id="{target}-games"></td></tr>'
    '\n  '
)


def performance_html(value, games: int) -> str:
    """The ``{% performance %}`` tag's HTML (an Rp with the rated games it rests on), escaped
    here without the tag's checks for lazy texts per row."""
    if value is None or value == "":
        return ""
    return (f'<span class="rp">{escape(rating_text(value))}</span> <span class="small text-muted rp-games" '
            f'title="{escape(gettext("rated games it rests on"))}">({escape(str(games))})</span>')


def row_html(line: dict) -> SafeString:
    """The line's two rows (the player's figures and the place for his calculation); only for a
    line without its calculation (``row.records`` empty)."""
    row = line["row"]
    games = escape(line["games"])
    points = escape(line["points"])
    if row.pending:
        pending = ngettext("%(n)s pending", "%(n)s pending", row.pending) % {"n": row.pending}
        games += f' <small class="text-muted">({escape(pending)})</small>'
        points += f' <small class="text-muted">(+{escape(line["pending_points"])})</small>'
    rating = (f'<span class="text-muted">{escape(gettext("new"))}</span>' if line["new"]
              else escape(line["rating"]))
    return mark_safe(_ROW.format(  # every text escaped here and in performance_html
        start=escape(line["start"]), collapsed="" if line["open"] else " collapsed",
        member=escape(line["member_id"]), target=escape(line["target"]),
        expanded="true" if line["open"] else "false", pool=escape(line["pool_id"]),
        name=escape(str(row.member)), rating=rating, games=games, points=points,
        average=escape(line["average"]), expected=escape(line["expected"]), surplus=escape(line["surplus"]),
        performance=performance_html(row.performance, len(row.opponent_ratings)),
        factor=escape(line["factor"]),
        change=escape(line["change"]), rounded=escape(line["rounded"]), show=" show" if line["open"] else ""))
