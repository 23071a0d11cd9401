from django.contrib import admin
from django.utils.translation import gettext

from clubrating.core.admin import DeleteRulesMixin

from .models import ACTIVE, Job


@admin.register(Job)
class JobAdmin(DeleteRulesMixin, admin.ModelAdmin):
    """Jobs are only looked at here: their state, parameters and the function that runs are the
    runner's (``clubrating.jobs.services``; a job whose worker died is failed there, and started
    again from its page). A finished job's row may be deleted."""

    list_display = ("title", "state", "progress", "started_by", "created_at", "finished_at")
    list_filter = ("state",)
    list_select_related = ("started_by",)
    search_fields = ("title", "key")
    exclude = ("output", "upload")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def delete_refusal(self, request, obj):
        if obj.state in ACTIVE:
            return gettext("The job is still waiting or running; it can be deleted once it has ended.")
        return None
