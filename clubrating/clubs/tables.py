import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubrating.core.formatting import rating_text

from .models import Member


class MemberTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Name"), linkify=True, accessor="full_name", order_by=("last_name", "first_name")
    )
    club = tables.Column(verbose_name=_("Club"))
    year_of_birth = tables.Column(
        verbose_name=_("Born"), accessor="year_of_birth", order_by=("birth_date", "birth_year")
    )
    fide_title = tables.Column(verbose_name=_("Title"))
    fide_rating = tables.Column(verbose_name=_("FIDE rating"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Member
        fields = ("name", "fide_title", "sex", "year_of_birth", "club", "fide_rating", "active")
        attrs = {"class": "table table-sm table-striped table-hover"}
        order_by = ("name",)
        empty_text = _("No members found.")

    def render_year_of_birth(self, value):
        # A year is a label, not a quantity: never "1.997".
        return str(value)

    def render_fide_rating(self, value):
        return rating_text(value)
