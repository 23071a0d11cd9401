from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from clubrating.core.formatting import change_text, decimal_text, game_change_text, id_text, rating_text

admin.site.site_header = _("ClubRating administration")
admin.site.site_title = _("ClubRating")


def figure(model, field: str, kind: str):
    """An admin column (or read-only field) showing ``field`` in the site's number format, headed
    and sorted as the field: ratings whole and never grouped ("rating"), identifiers such as FIDE
    IDs as their digits ("id"), a game's change signed with one decimal ("change"), a list's
    change as it was rounded ("list_change"), other figures such as expected scores and factors
    with one decimal ("decimal"). Django's own display groups every
    number ("1.600.238"). The stored value stays exact."""

    def show(obj):
        value = getattr(obj, field)
        if value is None or value == "":
            return "—"
        if kind == "rating":
            return rating_text(round(value))
        if kind == "id":
            return id_text(value)
        if kind == "change":
            return game_change_text(value)
        if kind == "list_change":
            return change_text(value)
        return decimal_text(value, 1)

    show.short_description = model._meta.get_field(field).verbose_name
    show.admin_order_field = field
    show.__name__ = f"{field}_{kind}"
    return show
