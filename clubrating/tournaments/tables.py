import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Tournament


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name=_("Tournament"), linkify=True)
    start_date = tables.DateColumn(verbose_name=_("Start"), short=True)
    end_date = tables.DateColumn(verbose_name=_("End"), short=True)
    player_count = tables.Column(verbose_name=_("Players"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Tournament
        fields = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
        sequence = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count",
                    "player_count", "rated")
        attrs = {"class": "table table-sm table-striped table-hover"}
