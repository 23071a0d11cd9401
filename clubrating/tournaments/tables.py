import django_tables2 as tables
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubrating.core.columns import primary, secondary

from .models import Tournament, TournamentKind


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name=_("Tournament"), linkify=True, attrs=primary("wrap-words"))
    # On a phone the name and dates stay; the other columns give way.
    start_date = tables.DateColumn(verbose_name=_("Start"), short=True, attrs=primary("text-nowrap"))
    end_date = tables.DateColumn(verbose_name=_("End"), short=True, attrs=primary("text-nowrap"))
    # Finished once its last round is complete (``selectors.finished_q``, annotated by the view).
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
