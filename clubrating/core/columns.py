"""The roles of a table's columns on a phone, one mechanism for django-tables2 tables and for
hand-written ones (which write the same classes).

- A primary column (rank, name, points or rating, change) shows at every width; it carries the
  class ``col-primary``, by which tests/browser/test_site_crawl.py finds it and checks that it
  lies on a 390 px screen without scrolling.
- A secondary column shows from a Bootstrap breakpoint on (``d-none d-md-table-cell``) and gives
  way on a phone.
- ``col-pin-end`` keeps a primary column at the end of a table whose middle scrolls (the rounds
  of a crosstable) at the right edge of its frame on a phone (static/css/clubrating.css).
"""

PRIMARY = "col-primary"
PIN_END = "col-pin-end"


def _attrs(css: str) -> dict:
    return {"th": {"class": css}, "td": {"class": css}}


def primary(css: str = "") -> dict:
    """django-tables2 ``attrs`` of a primary column."""
    return _attrs(f"{css} {PRIMARY}".strip())


def secondary(breakpoint: str = "md", css: str = "") -> dict:
    """django-tables2 ``attrs`` of a column shown from Bootstrap's ``breakpoint`` (sm 576 px,
    md 768 px, lg 992 px) on."""
    return _attrs(f"{css} d-none d-{breakpoint}-table-cell".strip())


def _change_heading() -> str:
    from django.utils.html import format_html
    from django.utils.translation import pgettext

    full = pgettext("rating", "Change")
    # A long word in German ("Veränderung") would push a four-column list past a phone's width:
    # there the heading is the sign pair, and screen readers still hear the word.
    return format_html('<span class="d-none d-sm-inline">{}</span><span class="d-sm-none">'
                       '<span aria-hidden="true" title="{}">+/−</span><span class="visually-hidden">{}</span>'
                       '</span>', full, full, full)


def change_heading():
    """The heading of a rating-change column (HTML, in the active language when rendered)."""
    from django.utils.functional import lazy
    from django.utils.safestring import SafeString

    return lazy(_change_heading, SafeString)()
