"""Read-mostly admin: ratings change only through ratings.services, so rating data is read-only here.

Deleting a game or changing its date moves ratings too, so the ratings app replaces the
tournaments' game admin with one that goes through ``game_result_record`` / ``game_date_change``.
"""

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.db import transaction
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy, ngettext

from clubrating.core.admin import figure
from clubrating.core.errors import Refused
from clubrating.tournaments.admin import GameAdmin
from clubrating.tournaments.models import Game, Result
from clubrating.tournaments.recording import game_result_record
from ratings.models import (
    FideTakeover,
    ListEntry,
    PeriodReopening,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
    TournamentRating,
)
from ratings.services import game_date_change


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingPool)
class RatingPoolAdmin(ReadOnlyAdmin):
    list_display = ["name", "rules", "expectation", "category", "start_date"]


@admin.register(RatingPeriod)
class RatingPeriodAdmin(ReadOnlyAdmin):
    list_display = ["pool", "start", "end", "state", "closed_at", "closed_by"]
    list_filter = ["pool", "state"]
    list_select_related = ["pool", "closed_by"]


class ListEntryInline(admin.TabularInline):
    model = ListEntry
    fields = ["rank", "member", figure(ListEntry, "rating", "rating"),
              figure(ListEntry, "change", "list_change"), "games_count", "markers", "class_code",
              "start_value"]
    readonly_fields = fields
    raw_id_fields = ["member"]
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(PublishedList)
class PublishedListAdmin(ReadOnlyAdmin):
    list_display = ["pool", "kind", "valid_from", "published_at", "published_by", "superseded"]
    list_filter = ["pool", "kind", "superseded"]
    list_select_related = ["pool", "published_by"]
    inlines = [ListEntryInline]


@admin.register(PoolMember)
class PoolMemberAdmin(ReadOnlyAdmin):
    list_display = ["member", "pool", figure(PoolMember, "rating", "rating"), "games_count",
                    figure(PoolMember, "live_rating", "rating"),
                    figure(PoolMember, "live_change", "list_change"), "pending_games"]
    # The published values before the live ones (the model lists its inherited live columns first).
    fields = ["pool", "member", figure(PoolMember, "rating", "rating"), "games_count", "reached_2400",
              figure(PoolMember, "live_rating", "rating"), figure(PoolMember, "live_change", "list_change"),
              "live_games", "live_points", "live_expected", "start_value", "pending_games"]
    readonly_fields = fields
    list_filter = ["pool"]
    search_fields = ["member__last_name", "member__first_name"]
    list_select_related = ["member", "pool"]


@admin.register(RatingRecord)
class RatingRecordAdmin(ReadOnlyAdmin):
    list_display = [
        "played_on",
        "member",
        "opponent",
        "score",
        figure(RatingRecord, "own_rating", "rating"),
        figure(RatingRecord, "opponent_rating", "rating"),
        figure(RatingRecord, "expected", "decimal"),
        figure(RatingRecord, "factor", "decimal"),
        figure(RatingRecord, "change", "change"),
        "pending",
        "pool",
    ]
    list_filter = ["pool", "pending"]
    list_select_related = ["member", "opponent", "pool"]
    # The latest records first, read along the primary key: the model's order (pool name, date,
    # game) would sort every record of a federation (~10^6) for one page.
    ordering = ["-pk"]
    raw_id_fields = ["game", "member", "opponent"]


@admin.register(PeriodReopening)
class PeriodReopeningAdmin(ReadOnlyAdmin):
    list_display = ["period", "reopened_at", "reopened_by", "reason"]
    list_select_related = ["period__pool", "reopened_by"]


@admin.register(FideTakeover)
class FideTakeoverAdmin(ReadOnlyAdmin):
    list_display = ["member", figure(FideTakeover, "fide_rating", "rating"),
                    figure(FideTakeover, "rating", "rating"), "converted", "list"]
    list_filter = ["converted"]
    list_select_related = ["member", "list__pool"]
    search_fields = ["member__last_name", "member__first_name"]


@admin.register(TournamentRating)
class TournamentRatingAdmin(admin.ModelAdmin):
    """Which pools rate a tournament is configuration, so it may be edited (recalculate afterwards)."""

    list_display = ["tournament", "pool"]
    list_filter = ["pool"]
    list_select_related = ["tournament", "pool"]
    raw_id_fields = ["tournament"]


admin.site.unregister(Game)


def _delete_games(modeladmin, request, queryset):
    """Django's confirmation page, then each game deleted through the service: the message
    counts the games really deleted, and each refused one is reported with the reason."""
    if not request.POST.get("post"):
        return delete_selected(modeladmin, request, queryset)
    deleted = 0
    for game in queryset.select_related("round__tournament", "white", "black"):
        with transaction.atomic():
            if modeladmin._withdraw_result(request, game, prefix=f"{game}: "):
                game.delete()
                deleted += 1
    if deleted:
        modeladmin.message_user(
            request,
            ngettext("%(count)d game deleted.", "%(count)d games deleted.", deleted) % {"count": deleted},
            messages.SUCCESS,
        )
    return None


@admin.register(Game)
class RatedGameAdmin(GameAdmin):
    # Deleting a game withdraws its result through the ratings service first, so the ratings it
    # moved are re-evaluated; a game in a closed rating period is refused (docs/rules.md). Its date
    # moves its rating records to the new date's period through the service as well.
    def get_readonly_fields(self, request, obj=None):
        return tuple(f for f in super().get_readonly_fields(request, obj) if f != "date")

    def changes_apply(self, request, obj, form):
        if "date" in form.changed_data:
            game_date_change(game=obj, date=obj.date)
        return super().changes_apply(request, obj, form)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            # Same name: Django's confirmation page posts back to it.
            actions["delete_selected"] = (_delete_games, "delete_selected",
                                          gettext_lazy("Delete selected games (ratings follow)"))
        return actions

    def _withdraw_result(self, request, game: Game, prefix: str = "") -> bool:
        try:
            game_result_record(game=game, result=Result.NOT_PLAYED, user=request.user)
        except Refused as error:
            self.message_user(request, prefix + error.message, level=messages.ERROR)
            return False
        return True

    def get_deleted_objects(self, objs, request):
        # The rating records and the result history go with the game through the service, not by
        # the user's permission (both are read-only in the admin).
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        managed = {str(rel.related_model._meta.verbose_name) for rel in Game._meta.related_objects
                   if rel.get_accessor_name() in ("rating_records", "history")}
        return deleted, counts, {p for p in perms_needed if str(p) not in managed}, protected

    def delete_model(self, request, obj):
        with transaction.atomic():
            if self._withdraw_result(request, obj):
                obj.delete()
            else:
                request._game_delete_refused = True

    def delete_queryset(self, request, queryset):
        for game in queryset:
            with transaction.atomic():
                if self._withdraw_result(request, game):
                    game.delete()

    def response_delete(self, request, obj_display, obj_id):
        if getattr(request, "_game_delete_refused", False):
            return HttpResponseRedirect(reverse("admin:tournaments_game_change", args=[obj_id]))
        return super().response_delete(request, obj_display, obj_id)
