"""Tables of the ratings pages (django-tables2; sortable, exported to CSV and XLSX).

Rows are plain ``ListRow`` objects built by ``ratings.views.lists`` from one query, so sorting,
filtering and export never touch the database again.
"""

from __future__ import annotations

from dataclasses import dataclass

import django_tables2 as tables
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member
from clubrating.core.formatting import signed
from ratings.rules.classes import CHESS_CLASSES

CLASS_LABELS = {code: label for _lower, code, label in CHESS_CLASSES}
# The engine's labels (ratings/rules/classes.py, no Django there), repeated so that the
# catalogue of the pages collects them.
_CLASS_MSGIDS = [
    gettext_noop("World championship level"), gettext_noop("Grandmasters and international masters"),
    gettext_noop("National masters"), gettext_noop("Candidate masters / experts"), gettext_noop("Class A"),
    gettext_noop("Class B"), gettext_noop("Class C"), gettext_noop("Class D"),
    gettext_noop("Below-average hobby players"), gettext_noop("Beginners"),
]


@dataclass
class ListRow:
    rank: int
    member: Member
    name: str
    title: str
    club: str
    birth_year: int | None
    sex: str
    rating: float | None
    change: float | None
    games: int
    period_games: int
    markers: str
    class_code: str
    provisional: bool = False
    active: bool = True


def format_rating(value: float | None) -> str:
    """Whole ratings as integers (chess), EGF ratings with their three decimals; localized."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return formats.localize(int(value))
    return formats.number_format(value, 3)


def export_number(value: float | None) -> int | float | None:
    return int(value) if value is not None and float(value).is_integer() else value


def format_change(value: float | None) -> str:
    if value is None:
        return ""
    return signed(value, -3)


class NumberColumn(tables.Column):
    attrs = {"th": {"class": "text-end"}, "td": {"class": "text-end num"}}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", self.attrs)
        super().__init__(*args, **kwargs)


class RatingColumn(NumberColumn):
    def render(self, value, record):
        text = format_rating(value)
        if record.provisional:
            return format_html('<span class="provisional" title="{}">{}</span>', _("provisional"), text)
        return text

    def value(self, value, record=None, **kwargs):
        return export_number(value)  # exports keep the number itself, unformatted


class ChangeColumn(NumberColumn):
    def render(self, value):
        return format_change(value)

    def value(self, value, **kwargs):
        return export_number(value)


class RatingListTable(tables.Table):
    rank = NumberColumn(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Name"), linkify=lambda record: record.member.get_absolute_url(),
                         attrs={"td": {"class": "name"}})
    title = tables.Column(verbose_name=_("Title"), empty_values=())
    club = tables.Column(verbose_name=_("Club"), empty_values=())
    birth_year = NumberColumn(verbose_name=_("Born"), localize=False)
    sex = tables.Column(verbose_name=_("Sex"), empty_values=())
    rating = RatingColumn(verbose_name=_("Rating"))
    change = ChangeColumn(verbose_name=pgettext_lazy("rating", "Change"))
    games = NumberColumn(verbose_name=_("Games"))
    period_games = NumberColumn(verbose_name=_("In period"))
    markers = tables.Column(verbose_name=_("Markers"), empty_values=())
    class_code = tables.Column(verbose_name=_("Class"), empty_values=())

    class Meta:
        attrs = {"class": "table table-sm table-striped table-hover rating-list"}
        order_by = ("rank",)
        empty_text = _("No entries.")

    def render_class_code(self, value):
        label = CLASS_LABELS.get(value)
        return format_html('<abbr title="{}">{}</abbr>', gettext(label), value) if label else value

    def value_class_code(self, value):
        return value

    def render_sex(self, value):
        return {"m": _("m"), "f": _("f")}.get(value, "")


class PrintRatingListTable(RatingListTable):
    """The print/PDF variant: no links, print styles."""

    name = tables.Column(verbose_name=_("Name"), attrs={"td": {"class": "name"}})

    class Meta(RatingListTable.Meta):
        attrs = {"class": "print-table"}
        orderable = False
