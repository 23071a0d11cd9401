"""The rating-list table (django-tables2 over a QuerySet: sorted and paginated in SQL) and its
columns for the print layout and the CSV/XLSX exports.

Rows come from ``ratings.selectors.published_rows``/``live_rows``: both carry the same
``list_*`` attributes. What SQL does not hold (the live ranks, the live classes) is added to the
rows of the page shown only (``RatingListTable.paginate``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cached_property

import django_tables2 as tables
from django.db.models import Case, F, Value, When
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop, pgettext
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableQuerysetData
from django_tables2.rows import BoundRows

from clubrating.clubs import privacy as club_privacy
from clubrating.clubs.models import Member
from clubrating.core.columns import change_heading, primary, secondary
from clubrating.core.exports import ExportColumn
from clubrating.core.formatting import change_text, rating_text
from clubrating.core.table_pdf import Italic
from clubrating.core.tables import PlainRowsTable
from ratings.rules.classes import CHESS_CLASSES


@dataclass(frozen=True)
class ListPrivacy:
    """What a reader may see of a list, as ``clubrating.clubs.privacy`` decides it: officials
    (``full``) every column and row; everybody else the columns ``privacy.column_visible`` allows
    (no sex; the birth year where the club publishes it: ``birth_years``), and of each row the
    fields ``privacy.fields_for`` allows (a restricted profile: the name and the ratings)."""

    full: bool = True
    birth_years: bool = True

    @property
    def audience(self) -> club_privacy.Audience:
        return club_privacy.Audience.OFFICIAL if self.full else club_privacy.Audience.VISITOR

    @property
    def hidden(self) -> list[str]:
        """The columns (and filters) this reader does not get."""
        return [name for name in ("sex", "birth_year") if not club_privacy.column_visible(
            name, audience=self.audience, birth_years_public=self.birth_years)]

    def fields(self, *, restricted: bool) -> frozenset[str]:
        """The fields of a row (a restricted profile's or not) this reader sees."""
        return club_privacy.fields_for(restricted=restricted, audience=self.audience,
                                       birth_years_public=self.birth_years)

    def shows(self, record, name: str) -> bool:
        """Whether a row of the table (``list_restricted`` from ``privacy.restricted_q``) shows ``name``."""
        return name in self.fields(restricted=self.restricted(record))

    def restricted(self, record) -> bool:
        # An official's rows (and the officer's previews) need not say whether they are restricted.
        return not self.full and record.list_restricted

    def limit(self, row: FlatRow) -> FlatRow:
        """Blank what this reader may not see of a flat row (exports, print-outs, the API)."""
        shown = self.fields(restricted=row.restricted)
        if "title" not in shown:
            row.title = ""
        if "sex" not in shown:
            row.sex = ""
        if "club" not in shown:
            row.club = None
        if club_privacy.BIRTH_YEAR not in shown:
            row.birth_year = None
        return row

    @property
    def key(self) -> str:
        """A part of cache keys and ETags: pages for different readers never mix."""
        return f"privacy-{int(self.full)}{int(self.birth_years)}"


FULL = ListPrivacy()

CLASS_LABELS = {code: label for _lower, code, label in CHESS_CLASSES}
# The engine's labels (ratings/rules/classes.py, no Django there), repeated so that the
# catalogue of the pages collects them.
_CLASS_MSGIDS = [
    gettext_noop("World championship level"), gettext_noop("Grandmasters and international masters"),
    gettext_noop("National masters"), gettext_noop("Candidate masters / experts"), gettext_noop("Class A"),
    gettext_noop("Class B"), gettext_noop("Class C"), gettext_noop("Class D"),
    gettext_noop("Below-average hobby players"), gettext_noop("Beginners"),
]


# Orders in (field, descending) pairs; a list's stored rank already is rating, name
# (``ratings.lists.order``): the published list's entries', the live list's kept with its ratings.
PUBLISHED_RANK_ORDER = (("rank", False),)
LIVE_RANK_ORDER = (("live_rating", True), ("live_place", False))  # (on the live rating's index)


def _ordering(fields, descending: bool, *, nulls_last: bool = True) -> list:
    """``fields`` (names or expressions) as ORDER BY expressions, all reversed when
    ``descending``; NULLs last if asked (rank orders have no NULLs and keep the plain order their
    indexes have)."""
    nulls = {"nulls_last": True} if nulls_last else {}
    orders = []
    for name, desc in fields:
        field = F(name) if isinstance(name, str) else name
        orders.append(field.desc(**nulls) if desc != descending else field.asc(**nulls))
    return orders


class NumberColumn(tables.Column):
    attrs = {"th": {"class": "text-end"}, "td": {"class": "text-end num"}}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", self.attrs)
        super().__init__(*args, **kwargs)


class RatingListTable(PlainRowsTable):
    rank = NumberColumn(verbose_name=_("Rank"), attrs=primary("text-end num"))
    name = tables.Column(verbose_name=_("Name"), accessor="member__full_name", attrs=primary("name"))
    # On a phone the rank, name, rating and change stay; the other columns give way (from "sm",
    # 576 px, or "md", 768 px, on), so the list never scrolls sideways.
    title = tables.Column(verbose_name=_("Title"), accessor="member__fide_title", empty_values=(),
                          attrs=secondary("md"))
    club = tables.Column(verbose_name=_("Club"), accessor="list_club", default="", empty_values=(),
                         attrs=secondary("sm"))
    birth_year = NumberColumn(verbose_name=_("Born"), accessor="list_birth_year", localize=False,
                              attrs=secondary("md", "text-end num"))
    sex = tables.Column(verbose_name=_("Sex"), accessor="member__sex", empty_values=(), attrs=secondary("md"))
    rating = NumberColumn(verbose_name=_("Rating"), accessor="list_rating", attrs=primary("text-end num"))
    change = NumberColumn(verbose_name=change_heading(), accessor="list_change",
                          empty_values=(), attrs=primary("text-end num"))
    games = NumberColumn(verbose_name=_("Games"), accessor="list_games",
                         attrs=secondary("sm", "text-end num"))
    period_games = NumberColumn(verbose_name=_("In period"), accessor="list_period_games",
                                attrs=secondary("md", "text-end num"))
    markers = tables.Column(verbose_name=_("Markers"), accessor="list_markers", empty_values=(),
                            attrs=secondary("md"))
    class_code = tables.Column(verbose_name=_("Class"), accessor="list_class", empty_values=(),
                               attrs=secondary("sm"))

    class Meta:
        attrs = {"class": "table table-sm table-striped table-hover rating-list"}
        order_by = ("rank",)
        empty_text = _("No entries.")

    def __init__(self, data, *, live_pool=None, privacy: ListPrivacy = FULL, count=None,
                 **kwargs):
        """``live_pool``: the pool of a live list (ranks and classes computed per page);
        ``privacy``: what the reader may see of each row (``ListPrivacy``): a restricted
        profile's row shows the name and the ratings only, unlinked, to visitors. ``count``:
        the rows' number, read cheaper than by counting the rows' query with its joins
        (``ListSource.count``: the unfiltered list on its own table's index)."""
        self.privacy = privacy
        self.count_rows = count
        self.full = privacy.full
        self.live_pool = live_pool
        self.rank_order = LIVE_RANK_ORDER if live_pool is not None else PUBLISHED_RANK_ORDER
        super().__init__(data, **kwargs)

    # Sorting in SQL, ties by rank; "sort=rating" starts with the best (rank order).
    def _by(self, queryset, fields, descending):
        return queryset.order_by(
            *_ordering(fields, descending), *_ordering(self.rank_order, False, nulls_last=False)), True

    def order_rank(self, queryset, is_descending):
        return queryset.order_by(*_ordering(self.rank_order, is_descending, nulls_last=False)), True

    def order_rating(self, queryset, is_descending):
        return self.order_rank(queryset, is_descending)

    def order_class_code(self, queryset, is_descending):
        return self.order_rank(queryset, is_descending)

    def order_name(self, queryset, is_descending):
        fields = (("member__last_name", False), ("member__first_name", False), ("member_id", False))
        return queryset.order_by(*_ordering(fields, is_descending)), True

    def _shown(self, name: str):
        """The column ``name`` as this reader sees it: a restricted profile's title, club and
        birth year are blank (``ListPrivacy``), and sorted as blanks, so that no row's place tells them."""
        fields = {"member__fide_title": "title", "list_club": "club", "list_birth_year": "birth_year"}
        field = fields.get(name, name)
        if field in self.privacy.fields(restricted=True):
            return name
        return Case(When(list_restricted=True, then=Value(None)), default=F(name))

    def order_title(self, queryset, is_descending):
        return self._by(queryset, ((self._shown("member__fide_title"), False),), is_descending)

    def order_club(self, queryset, is_descending):
        return self._by(queryset, ((self._shown("list_club"), False),), is_descending)

    def order_birth_year(self, queryset, is_descending):
        return self._by(queryset, ((self._shown("list_birth_year"), False),), is_descending)

    def order_sex(self, queryset, is_descending):
        return self._by(queryset, (("member__sex", False),), is_descending)

    def order_change(self, queryset, is_descending):
        return self._by(queryset, (("list_change", False),), is_descending)

    def order_games(self, queryset, is_descending):
        return self._by(queryset, (("list_games", False),), is_descending)

    def order_period_games(self, queryset, is_descending):
        return self._by(queryset, (("list_period_games", False),), is_descending)

    def order_markers(self, queryset, is_descending):
        return self._by(queryset, (("list_markers", False),), is_descending)

    def paginate(self, *args, **kwargs):
        """Read the page's rows once: first their keys (``ratings.selectors.page_keys``: a later
        page skips thousands of rows, which need none of the members' and clubs' columns), then
        the rows by key as plain values (``page_rows``); add the live classes to those rows only."""
        from ratings.selectors import page_keys

        if self.count_rows is not None and isinstance(self.data, TableQuerysetData):
            self.data._length = self.count_rows()  # the paginator's count (django-tables2 keeps it here)
        super().paginate(*args, **kwargs)
        if not isinstance(self.data, TableQuerysetData):
            return self  # rows already in memory (the close page's preview)
        records = page_rows(self.data.data, page_keys(self.page.object_list.data))
        if self.live_pool is not None:
            live_decorate(self.live_pool, records)
        self.page.object_list = BoundRows(data=records, table=self)
        return self

    # The cells (``PlainRowsTable``): the values of a row as the page shows them, each as far as
    # ``ListPrivacy`` lets this reader see it; "—" where a value is missing. What this reader
    # sees of a restricted row and of any other is worked out once per table, not per cell.
    @cached_property
    def _seen(self) -> dict[bool, frozenset[str]]:
        return {restricted: self.privacy.fields(restricted=restricted) for restricted in (False, True)}

    @cached_property
    def _linked_rows(self) -> dict[bool, bool]:
        return {restricted: club_privacy.member_page_visible_for(
            restricted=restricted, audience=self.privacy.audience) for restricted in (False, True)}

    @cached_property
    def _member_url(self) -> tuple[str, str]:
        """A member page's address around its key, escaped (``Member.get_absolute_url``, reversed once)."""
        marker = "2147483647"
        head, _marker, tail = Member(pk=int(marker)).get_absolute_url().rpartition(marker)
        return escape(head), escape(tail)

    def _hidden(self, record, field: str) -> bool:
        return field not in self._seen[self.privacy.restricted(record)]

    def _linked(self, record) -> bool:
        return self._linked_rows[self.privacy.restricted(record)]

    def cell_rank(self, record):
        return "—" if record.rank is None else record.rank

    def cell_name(self, record):
        name = record.member.full_name
        if not name or not self._linked(record):
            return name or "—"
        head, tail = self._member_url
        return SafeString(f'<a href="{head}{record.member.pk}{tail}">{html.escape(name)}</a>')

    def cell_title(self, record):
        return "" if self._hidden(record, "title") else record.member.fide_title

    def cell_club(self, record):
        return "" if self._hidden(record, "club") else record.list_club or ""

    def cell_birth_year(self, record):
        if record.list_birth_year is None:
            return "—"
        return "" if self._hidden(record, club_privacy.BIRTH_YEAR) else record.list_birth_year

    def cell_sex(self, record):
        return "" if self._hidden(record, "sex") else _sex_text(record.member.sex)

    def cell_rating(self, record):
        if record.list_rating is None:
            return "—"
        text = rating_text(record.list_rating)
        if record.provisional:
            title = self._provisional
            return SafeString(f'<span class="provisional" title="{title}">{html.escape(text)}</span>')
        return text

    @cached_property
    def _provisional(self) -> str:
        return escape(_("provisional"))

    def cell_change(self, record):
        return change_text(record.list_change)

    def cell_games(self, record):
        return record.list_games

    def cell_period_games(self, record):
        return record.list_period_games

    def cell_markers(self, record):
        return record.list_markers

    def cell_class_code(self, record):
        value = record.list_class
        return self._class_html.get(value, value)

    @cached_property
    def _class_html(self) -> dict[str, str]:
        """Each class as its cell shows it, with its label in the page's language."""
        return {value: format_html('<abbr title="{}">{}</abbr>', gettext(label), value)
                for value, label in CLASS_LABELS.items()}


def live_decorate(pool, records: list) -> list:
    """Give live rows their class (their rank in the whole list is stored with them)."""
    from ratings.services.lists import class_code

    for record in records:
        record.list_class = class_code(pool, record.list_rating)
    return records


# What an export or print-out reads of a row (published and live rows alike).
FLAT_FIELDS = ("member_id", "rank", "member__last_name", "member__first_name", "member__fide_title",
               "list_club", "list_birth_year", "member__sex", "list_rating", "list_change",
               "list_games", "list_period_games", "list_markers", "list_class", "provisional",
               "list_restricted")


@dataclass(slots=True)
class FlatRow:
    member_id: int
    rank: int | None
    last_name: str
    first_name: str
    title: str
    club: str | None
    birth_year: int | None
    sex: str
    list_rating: float
    list_change: float | None
    list_games: int
    list_period_games: int
    list_markers: str
    list_class: str
    provisional: bool
    restricted: bool = False

    @property
    def name(self) -> str:
        return Member.full_name.fget(self)  # the member's own spelling of the name


@dataclass(slots=True)
class PageMember:
    """What a list's page shows of a row's member."""

    pk: int
    last_name: str
    first_name: str
    fide_title: str
    sex: str

    @property
    def full_name(self) -> str:
        return Member.full_name.fget(self)  # the member's own spelling of the name


@dataclass(slots=True)
class PageRow:
    """A row of a list's page, with the attributes of ``published_rows``/``live_rows`` that its
    cells read: built from the values of the page's rows only, not as model instances (a
    member's and club's every column for each row)."""

    member: PageMember
    rank: int | None
    list_club: str | None
    list_birth_year: int | None
    list_rating: float
    list_change: float | None
    list_games: int
    list_period_games: int
    list_markers: str
    list_class: str
    provisional: bool
    list_restricted: bool

    @property
    def member_id(self) -> int:
        return self.member.pk


def page_rows(rows, keys: list[int]) -> list[PageRow]:
    """The rows ``keys`` of ``rows`` (a rating-list QuerySet), in that order, as ``PageRow``."""
    found = {}
    for (key, member_id, rank, last, first, title, club, born, sex, *rest) in (
            rows.order_by().filter(pk__in=keys).values_list("pk", *FLAT_FIELDS)):
        found[key] = PageRow(PageMember(member_id, last, first, title, sex), rank, club, born, *rest)
    return [found[key] for key in keys]


def _sex_text(value: str) -> str:
    return {"m": gettext("m"), "f": gettext("f")}.get(value, "")


def export_columns(hidden: list[str] = ()) -> list[ExportColumn]:
    """The list's columns for CSV and XLSX (headers in the active language), without the
    ``hidden`` ones ("birth_year", "sex": what the reader may not see)."""
    sexes = {"m": gettext("m"), "f": gettext("f")}
    born = gettext("Born")
    sex = gettext("Sex")
    gone = {born if "birth_year" in hidden else None, sex if "sex" in hidden else None}
    return [column for column in _export_columns(sexes, born, sex) if column.header not in gone]


def _export_columns(sexes: dict, born: str, sex: str) -> list[ExportColumn]:
    return [
        ExportColumn(gettext("Rank"), lambda r: r.rank, numeric=True),
        ExportColumn(gettext("Name"), lambda r: r.name),
        ExportColumn(gettext("Title"), lambda r: r.title),
        ExportColumn(gettext("Club"), lambda r: r.club or ""),
        ExportColumn(born, lambda r: r.birth_year, numeric=True),
        ExportColumn(sex, lambda r: sexes.get(r.sex, "")),
        ExportColumn(gettext("Rating"), lambda r: r.list_rating, numeric=True),
        ExportColumn(pgettext("rating", "Change"), lambda r: r.list_change, numeric=True),
        ExportColumn(gettext("Games"), lambda r: r.list_games, numeric=True),
        ExportColumn(gettext("In period"), lambda r: r.list_period_games, numeric=True),
        ExportColumn(gettext("Markers"), lambda r: r.list_markers),
        ExportColumn(gettext("Class"), lambda r: r.list_class),
    ]


PRINT_COLUMNS = ("rank", "name", "title", "club", "birth_year", "sex", "rating", "change", "games",
                 "period_games", "markers", "class_code")
_NUMERIC = {"rank", "birth_year", "rating", "change", "games", "period_games"}


def print_header(exclude: list[str]) -> list[tuple[str, str, bool]]:
    """(name, header, numeric) of the printed columns."""
    headers = {name: column.verbose_name for name, column in RatingListTable.base_columns.items()}
    headers["change"] = pgettext("rating", "Change")  # the page's heading is HTML (``change_heading``)
    return [(name, str(headers[name]), name in _NUMERIC) for name in PRINT_COLUMNS if name not in exclude]


def print_cells(record: FlatRow, columns: list[tuple[str, str, bool]]) -> list[str]:
    """The texts of one printed row (PDF and print page alike); a provisional rating is an
    ``Italic`` text."""
    cells = []
    for name, _header, _numeric in columns:
        if name == "rank":
            text = "" if record.rank is None else str(record.rank)
        elif name == "name":
            text = record.name
        elif name == "title":
            text = record.title
        elif name == "club":
            text = record.club or ""
        elif name == "birth_year":
            text = "" if record.birth_year is None else str(record.birth_year)
        elif name == "sex":
            text = _sex_text(record.sex)
        elif name == "rating":
            text = rating_text(record.list_rating)
            if record.provisional:
                text = Italic(text)
        elif name == "change":
            text = change_text(record.list_change)
        elif name == "games":
            text = str(record.list_games)
        elif name == "period_games":
            text = str(record.list_period_games)
        elif name == "markers":
            text = record.list_markers
        else:
            text = record.list_class or ""
        cells.append(text)
    return cells


def print_row_html(record: FlatRow, columns: list[tuple[str, str, bool]]) -> str:
    """One ``<tr>`` of the print layout; written directly (not through a template) because a
    federation list has tens of thousands of rows."""
    html = []
    for (name, _header, numeric), text in zip(columns, print_cells(record, columns), strict=True):
        value = escape(text)
        if isinstance(text, Italic):
            value = f'<span class="provisional">{value}</span>'
        css = ' class="num"' if numeric else (' class="name"' if name == "name" else "")
        html.append(f"<td{css}>{value}</td>")
    return "<tr>" + "".join(html) + "</tr>\n"
