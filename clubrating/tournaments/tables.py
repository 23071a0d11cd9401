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


class StandingsTable(tables.Table):
    """The standings for CSV/XLSX export; tie-break columns are added per tournament."""

    rank = tables.Column(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Name"), accessor="player__member__full_name")
    club = tables.Column(verbose_name=_("Club"), accessor="player__member__club__name", default="")
    rating = tables.Column(verbose_name=_("Rating"), accessor="player__rating", default="")
    fide_rating = tables.Column(verbose_name=_("FIDE"), accessor="player__fide_rating", default="")
    fide_id = tables.Column(verbose_name=_("FIDE ID"), accessor="player__member__fide_id", default="")
    points = tables.Column(verbose_name=_("Points"))

    class Meta:
        attrs = {"class": "table table-sm table-striped"}
        orderable = False

    @classmethod
    def for_rows(cls, codes: list[str], rows, national: str = "") -> "StandingsTable":
        """``national`` heads the national rating column (the pool that rates the tournament)."""
        data = [
            {"rank": r.rank, "player": r.player, "points": r.points,
             **{f"tb{i}": value for i, value in enumerate(r.tiebreaks)}}
            for r in rows
        ]
        extra = [(f"tb{i}", tables.Column(verbose_name=code, default="")) for i, code in enumerate(codes)]
        if national:
            column = tables.Column(verbose_name=national, accessor="player__rating", default="")
            extra.insert(0, ("rating", column))
        return cls(data, extra_columns=extra)
