import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubrating.core.columns import primary, secondary

from .models import Tournament


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name=_("Tournament"), linkify=True, attrs=primary("text-break"))
    # On a phone the name and dates stay; the other columns give way.
    start_date = tables.DateColumn(verbose_name=_("Start"), short=True, attrs=primary("text-nowrap"))
    end_date = tables.DateColumn(verbose_name=_("End"), short=True, attrs=primary("text-nowrap"))
    kind = tables.Column(attrs=secondary("md"))
    category = tables.Column(attrs=secondary("lg"))
    place = tables.Column(attrs=secondary("md"))
    rounds_count = tables.Column(attrs=secondary("lg", "num"))
    player_count = tables.Column(verbose_name=_("Players"), attrs=secondary("sm", "num"))
    rated = tables.BooleanColumn(attrs=secondary("lg"))

    class Meta:
        model = Tournament
        fields = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
        sequence = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count",
                    "player_count", "rated")
        attrs = {"class": "table table-sm table-striped table-hover"}
