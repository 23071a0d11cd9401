import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_tables2.data import TableQuerysetData
from django_tables2.rows import BoundRows

from clubrating.core.columns import primary, secondary
from clubrating.core.tables import NO, YES, PlainRowsTable

from .models import Tournament, TournamentKind
from .selectors.listing import tournament_entrants, tournament_states
from .selectors.rounds import entrant_counts


class TournamentTable(PlainRowsTable):
    name = tables.Column(verbose_name=_("Tournament"), linkify=True, attrs=primary("wrap-words"))
    # On a phone the name and dates stay; the other columns give way.
    start_date = tables.DateColumn(verbose_name=_("Start"), short=True, attrs=primary("text-nowrap"))
    end_date = tables.DateColumn(verbose_name=_("End"), short=True, attrs=primary("text-nowrap"))
    # Finished once its last round is complete (``selectors.tournament_states``, for the page's rows).
    state = tables.Column(verbose_name=_("State"), accessor="finished", orderable=False,
                          attrs=secondary("sm"))
    kind = tables.Column(attrs=secondary("md"))
    # Short headings, so that the table fits a 1366 px screen without squeezing the names.
    category = tables.Column(verbose_name=_("Time control"), attrs=secondary("lg"))
    place = tables.Column(attrs=secondary("md"))
    rounds_count = tables.Column(verbose_name=_("Rounds"), attrs=secondary("lg", "num"))
    player_count = tables.Column(verbose_name=_("Players"), attrs=secondary("sm", "num"))
    rated = tables.BooleanColumn(attrs=secondary("lg"))

    class Meta:
        model = Tournament
        fields = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
        sequence = ("name", "state", "kind", "category", "start_date", "end_date", "place", "rounds_count",
                    "player_count", "rated")
        attrs = {"class": "table table-sm table-striped table-hover"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = timezone.localdate()

    def paginate(self, *args, **kwargs):
        """The page's tournaments only get their state and players or teams (``selectors.listing``:
        two queries along their own rounds, players and teams, whatever the size of the others).
        A page number past the end shows the last page, one that is no number the first (as
        ``RequestConfig`` does), with their states and players too."""
        try:
            super().paginate(*args, **kwargs)
        except PageNotAnInteger:
            super().paginate(*args, **{**kwargs, "page": 1})
        except EmptyPage:
            super().paginate(*args, **{**kwargs, "page": self.paginator.num_pages})
        if not isinstance(self.data, TableQuerysetData):
            return self
        records = list(self.page.object_list.data)
        states = tournament_states(tournaments=records)
        entrants = tournament_entrants(ids=[t.pk for t in records])
        for t in records:
            t.finished = states[t.pk].finished
            t.player_count, t.team_count = entrants[t.pk]
        self.page.object_list = BoundRows(data=records, table=self)
        return self

    def order_player_count(self, queryset, is_descending):
        # Sorted by size: then every tournament's players are counted in SQL (per tournament).
        ordered = queryset.annotate(**entrant_counts()).order_by(
            F("player_count").desc() if is_descending else F("player_count").asc(), "-start_date", "name")
        return ordered, True

    # The cells (``PlainRowsTable``): what the default template wrote for each column, "—" for a
    # missing value as the columns' default.
    def cell_name(self, record):
        if not record.name:
            return "—"
        return format_html('<a href="{}">{}</a>', record.get_absolute_url(), record.name)

    def cell_state(self, record):
        if record.finished:
            return _("finished")
        if record.start_date > self.today:
            return _("upcoming")
        return _("running")

    def cell_kind(self, record):
        return record.get_kind_display() if record.kind else "—"

    def cell_category(self, record):
        return record.get_category_display() if record.category else "—"

    def cell_start_date(self, record):
        return date_format(record.start_date, "SHORT_DATE_FORMAT") if record.start_date else "—"

    def cell_end_date(self, record):
        return date_format(record.end_date, "SHORT_DATE_FORMAT") if record.end_date else "—"

    def cell_place(self, record):
        return record.place or "—"

    def cell_rounds_count(self, record):
        return "—" if record.rounds_count is None else record.rounds_count

    def cell_player_count(self, record):
        if record.kind == TournamentKind.TEAM:  # a team competition counts its teams
            return ngettext("%(n)s team", "%(n)s teams", record.team_count) % {"n": record.team_count}
        return str(record.player_count)

    def cell_rated(self, record):
        return YES if record.rated else NO
