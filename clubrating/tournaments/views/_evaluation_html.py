"""A rating evaluation's row drawn in Python, as ``_evaluation_body.html`` prints it.

A big tournament's evaluation page brings a player's calculation only when it is opened, so each
of its 300 rows is the same dozen cells: drawn here from the line's texts (``evaluation_lines``)
in one step instead of twenty template lookups and a tag a row, which cost the page most of its
time right after a save. The translated words are looked up once per table, not once per row. A
row that carries its calculation (a small tournament, ``?all=1``) is drawn by the template as before.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from clubrating.core.formatting import rating_text


def performance_html(value, games: int, title: str | None = None) -> str:
    """The ``{% performance %}`` tag's HTML (an Rp with the rated games it rests on), escaped
    here without the tag's checks for lazy texts per row; ``title``: its tooltip, escaped (looked
    up when not given)."""
    if value is None or value == "":
        return ""
    if title is None:
        title = escape(gettext("rated games it rests on"))
    return (f'<span class="rp">{escape(rating_text(value))}</span> <span class="small text-muted rp-games" '
            f'title="{title}">({escape(str(games))})</span>')


class RowDrawer:
    """Draws the lines of one request's evaluation (``row_html``), its words translated once."""

    def __init__(self) -> None:
        self.title = escape(gettext("rated games it rests on"))
        self.new = f'<span class="text-muted">{escape(gettext("new"))}</span>'
        self._pending: dict[int, str] = {}

    def pending(self, count: int) -> str:
        html = self._pending.get(count)
        if html is None:
            text = ngettext("%(n)s pending", "%(n)s pending", count) % {"n": count}
            html = self._pending[count] = f' <small class="text-muted">({escape(text)})</small>'
        return html

    def __call__(self, line: dict) -> SafeString:
        """The line's two rows (the player's figures and the place for his calculation); only
        for a line without its calculation (``row.records`` empty). Every text is escaped here
        and in ``performance_html`` (the name is typed by users)."""
        row = line["row"]
        games = escape(line["games"])
        points = escape(line["points"])
        if row.pending:
            games += self.pending(row.pending)
            points += f' <small class="text-muted">(+{escape(line["pending_points"])})</small>'
        rating = self.new if line["new"] else escape(line["rating"])
        opened = line["open"]
        target = escape(line["target"])
        member = escape(line["member_id"])
        return mark_safe(
            f'\n    <tr>'
            f'\n      <td class="num d-none d-md-table-cell">{escape(line["start"])}</td>'
            f'\n      <td><a class="btn btn-link p-0 text-start text-reset evaluation-toggle'
            f'{"" if opened else " collapsed"}" href="?player={member}#{target}" data-bs-toggle="collapse" '
            f'data-bs-target="#{target}" aria-expanded="{"true" if opened else "false"}" '
            f'aria-controls="{target}" '
            f'hx-get="?player={member}&amp;pool={escape(line["pool_id"])}" hx-target="#{target}-games" '
            f'hx-trigger="click once">{escape(str(row.member))}</a></td>'
            f'\n      <td class="num">{rating}</td>'
            f'\n      <td class="num d-none d-md-table-cell">{games}</td>'
            f'\n      <td class="num d-none d-sm-table-cell">{points}</td>'
            f'\n      <td class="num d-none d-lg-table-cell">{escape(line["average"])}</td>'
            f'\n      <td class="num d-none d-lg-table-cell">{escape(line["expected"])}</td>'
            f'\n      <td class="num d-none d-sm-table-cell">{escape(line["surplus"])}</td>'
            f'\n      <td class="num d-none d-md-table-cell text-nowrap">'
            f'{performance_html(row.performance, len(row.opponent_ratings), self.title)}</td>'
            f'\n      <td class="num d-none d-lg-table-cell">{escape(line["factor"])}</td>'
            f'\n      <td class="num d-none d-sm-table-cell">{escape(line["change"])}</td>'
            f'\n      <td class="num fw-bold">{escape(line["rounded"])}</td>'
            f'\n    </tr>'
            f'\n    <tr class="collapse{" show" if opened else ""} evaluation-games" id="{target}">'
            f'<td colspan="12" id="{target}-games"></td></tr>'
            f'\n  '
        )

