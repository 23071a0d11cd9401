"""Long tables without django-tables2's work per cell.

django-tables2 resolves each cell through its accessor and calls the column's ``render`` with
arguments chosen by inspecting its signature: for a rating list's 100 rows × 12 columns that was
most of a page's time. A ``PlainRowsTable`` keeps django-tables2 for what it does once per table
(the header with its sort links, the ordering in SQL, the pagination) and writes the rows from
one ``cell_<column>(record)`` method per column, called directly. The rows are the markup the
default template writes (``<tr class="even|odd">``, each ``<td>`` with its column's attributes,
values localized and escaped as ``{{ cell }}`` would).
"""

from __future__ import annotations

import html as html_lib

import django_tables2 as tables
from django.utils import formats
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.rows import BoundRows

PLAIN_ROWS_TEMPLATE = "django_tables2/plain_rows.html"
# What a ``BooleanColumn`` writes in a cell.
YES = format_html('<span class="true">{}</span>', "✔")
NO = format_html('<span class="false">{}</span>', "✘")


def cell_text(value, *, localize: bool | None = None) -> str:
    """``value`` as the table template writes a cell: localized (digit groups for quantities)
    unless ``localize`` is False, then escaped (a ``format_html`` result stays as it is).
    The common cells (HTML, plain text, numbers below a thousand, which no language groups)
    are written directly: a page has a thousand of them."""
    kind = type(value)
    if kind is SafeString:
        return value
    if kind is str:
        return SafeString(html_lib.escape(value))  # as ``django.utils.html.escape``
    if kind is int and -1000 < value < 1000:
        return SafeString(value)
    return conditional_escape(formats.localize(value, use_l10n=localize is not False))


class PlainRowsTable(tables.Table):
    """A table whose rows are written by ``cell_<name>(record)`` methods (a value, localized and
    escaped as in the template, or HTML made with ``format_html``); every column needs one."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("template_name", PLAIN_ROWS_TEMPLATE)
        super().__init__(*args, **kwargs)

    def rows_html(self) -> SafeString:
        """The ``<tr>`` elements of the rows shown (the page's, when paginated)."""
        columns = [
            (format_html("<td {}>", column.attrs["td"].as_html()), getattr(self, f"cell_{column.name}"),
             column.localize)
            for column in self.columns
        ]
        rows = self.paginated_rows
        # A page of a ``LazyPaginator`` (no count) is a list of the rows.
        records = rows.data if isinstance(rows, BoundRows) else [row.record for row in rows]
        html = []
        for number, record in enumerate(records):
            html.append('<tr class="odd">' if number % 2 else '<tr class="even">')
            for start, cell, localize in columns:
                html.append(f"{start}{cell_text(cell(record), localize=localize)}</td>")
            html.append("</tr>\n")
        if not html and self.empty_text:
            html.append(format_html('<tr><td colspan="{}">{}</td></tr>', len(self.columns), self.empty_text))
        return mark_safe("".join(html))  # every cell escaped above
