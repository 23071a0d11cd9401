import django_tables2 as tables
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_tables2.data import TableQuerysetData
from django_tables2.rows import BoundRows

from clubrating.core.columns import primary, secondary

from .models import Tournament, TournamentKind
from .selectors.listing import tournament_entrants, tournament_states
from .selectors.rounds import entrant_counts


class TournamentTable(tables.Table):
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

    def paginate(self, *args, **kwargs):
        """The page's tournaments only get their state and players or teams (``selectors.listing``:
        two queries along their own rounds, players and teams, whatever the size of the others)."""
        super().paginate(*args, **kwargs)
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

    # Dates drawn here, not by DateColumn's template: that one is compiled again for every cell.
    def render_start_date(self, value) -> str:
        return date_format(value, "SHORT_DATE_FORMAT") if value else self.default

    def render_end_date(self, value) -> str:
        return date_format(value, "SHORT_DATE_FORMAT") if value else self.default

    def render_player_count(self, value, record) -> str:
        if record.kind == TournamentKind.TEAM:  # a team competition counts its teams
            return ngettext("%(n)s team", "%(n)s teams", record.team_count) % {"n": record.team_count}
        return str(value)

    def render_state(self, value, record) -> str:
        if value:
            return _("finished")
        if record.start_date > timezone.localdate():
            return _("upcoming")
        return _("running")
