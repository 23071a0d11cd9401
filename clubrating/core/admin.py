from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.http import HttpResponseRedirect
from django.urls import reverse
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


class DeleteRulesMixin:
    """The admin deletes only what the site would: ``delete_refusal`` names why an object must
    stay (translated), and both the delete page and the "delete selected" action then delete
    nothing and say so, instead of offering the deletion and answering "permission denied"."""

    def delete_refusal(self, request, obj) -> str | None:
        return None

    def delete_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        reason = self.delete_refusal(request, obj) if obj is not None else None
        if reason:
            self.message_user(request, reason, level=messages.ERROR)
            opts = self.model._meta
            return HttpResponseRedirect(reverse(f"admin:{opts.app_label}_{opts.model_name}_change",
                                                args=[obj.pk]))
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            func, name, description = actions["delete_selected"]
            actions["delete_selected"] = (_ruled_delete(func), name, description)
        return actions


def _ruled_delete(delete):
    def ruled(modeladmin, request, queryset):
        refusals = [(obj, reason) for obj in queryset
                    if (reason := modeladmin.delete_refusal(request, obj))]
        if not refusals:
            return delete(modeladmin, request, queryset)
        # All or nothing, as the site's multi-row changes: each object that must stay says why.
        for obj, reason in refusals:
            modeladmin.message_user(request, f"{obj}: {reason}", level=messages.ERROR)
        return None

    ruled.__name__ = getattr(delete, "__name__", "delete_selected")
    return ruled
