from django.contrib import admin

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    """Lets an administrator clear a job whose worker died while it ran (it blocks its subject)."""

    list_display = ("title", "state", "progress", "started_by", "created_at", "finished_at")
    list_filter = ("state",)
    list_select_related = ("started_by",)
    search_fields = ("title", "key")
    exclude = ("output", "upload")
    readonly_fields = ("key", "handler", "params", "language", "report", "report_template", "created_at",
                       "restart_of")
