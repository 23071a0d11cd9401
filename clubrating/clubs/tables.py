import datetime

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from clubrating.core.columns import primary, secondary
from clubrating.core.formatting import rating_text
from clubrating.core.tables import NO, YES, PlainRowsTable

from . import privacy
from .models import Member


class MemberTable(PlainRowsTable):
    """The member list. Which columns and cells a reader sees is decided by ``privacy``: sex
    only for officials, the birth year where the club publishes it, a restricted profile's row
    shows the name only (unlinked: it has no member page for this reader)."""

    name = tables.Column(
        verbose_name=_("Name"), accessor="full_name", order_by=("last_name", "first_name"),
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
        empty_text = _("No members found.")

    def __init__(self, *args, audience: privacy.Audience = privacy.Audience.OFFICIAL,
                 birth_years_public: bool = True, user_id: int | None = None, **kwargs):
        exclude = [
            column for column, field in (("sex", "sex"), ("year_of_birth", privacy.BIRTH_YEAR))
            if not privacy.column_visible(field, audience=audience, birth_years_public=birth_years_public)
        ]
        super().__init__(*args, exclude=exclude, **kwargs)
        self.audience = audience
        self.birth_years_public = birth_years_public
        self.user_id = user_id
        self.today = datetime.date.today()

    def _shown(self, record) -> frozenset[str]:
        audience = privacy.row_audience(record, audience=self.audience, user_id=self.user_id)
        return privacy.visible_fields(record, audience=audience, birth_years_public=self.birth_years_public,
                                      today=self.today)

    # The cells (``PlainRowsTable``): what the default template wrote for each column, "—" for
    # a missing value as the columns' default, and for what ``privacy`` hides from this reader.
    def cell_name(self, record):
        audience = privacy.row_audience(record, audience=self.audience, user_id=self.user_id)
        name = record.full_name
        if not name:
            return "—"
        if not privacy.member_page_visible(record, audience=audience, today=self.today):
            return name
        return format_html('<a href="{}">{}</a>', record.get_absolute_url(), name)

    def cell_club(self, record):
        if record.club_id is None:
            return "—"
        return str(record.club) if "club" in self._shown(record) else "—"

    def cell_fide_title(self, record):
        if not record.fide_title:
            return "—"
        return record.get_fide_title_display() if "title" in self._shown(record) else "—"

    def cell_sex(self, record):
        return record.get_sex_display() if record.sex else "—"

    def cell_fide_rating(self, record):
        # A rating is never digit-grouped: "1762", not "1.762".
        if record.fide_rating is None:
            return "—"
        return rating_text(record.fide_rating) if "ratings" in self._shown(record) else "—"

    def cell_year_of_birth(self, record):
        # A year is a label, not a quantity: never "1.997".
        year = record.year_of_birth
        if year is None:
            return "—"
        return str(year) if privacy.BIRTH_YEAR in self._shown(record) else "—"

    def cell_active(self, record):
        return YES if record.active else NO

