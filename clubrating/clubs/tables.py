import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubrating.core.columns import primary, secondary

from .models import Member


class MemberTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Name"), linkify=True, accessor="full_name", order_by=("last_name", "first_name"),
        attrs=primary(),
    )
    # On a phone the name, club and rating stay; the other columns give way.
    club = tables.Column(verbose_name=_("Club"), attrs=primary())
    year_of_birth = tables.Column(
        verbose_name=_("Born"), accessor="year_of_birth", order_by=("birth_date", "birth_year"),
        attrs=secondary("sm"),
    )
    fide_title = tables.Column(verbose_name=_("Title"), attrs=secondary("md"))
    sex = tables.Column(attrs=secondary("md"))
    fide_rating = tables.Column(verbose_name=_("FIDE rating"), attrs=primary("num"))
    active = tables.BooleanColumn(attrs=secondary("md"))

    class Meta:
        model = Member
        fields = ("name", "fide_title", "sex", "year_of_birth", "club", "fide_rating", "active")
        attrs = {"class": "table table-sm table-striped table-hover"}
        order_by = ("name",)

    def render_year_of_birth(self, value):
        # A year is a label, not a quantity: never "1.997".
        return str(value)
