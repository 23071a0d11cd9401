from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpResponseRedirect
from django.urls import reverse

from .models import (
    Bye,
    Game,
    LineupEntry,
    Result,
    ResultChange,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentPlayer,
)
from .results import _ratings_service


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    show_change_link = True


class TournamentPlayerInline(admin.TabularInline):
    model = TournamentPlayer
    extra = 0
    autocomplete_fields = ("member",)
    fields = ("start_rank", "member", "rating", "fide_rating", "team", "withdrawn_from_round")


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    autocomplete_fields = ("white", "black")
    fields = ("board", "white", "black", "result", "rated_result", "rated", "date")
    # Results change ratings: they are entered on the result-entry pages, which go through the
    # ratings service and keep the history; the admin shows them only.
    readonly_fields = ("result", "rated_result", "rated")
    show_change_link = True


class ByeInline(admin.TabularInline):
    model = Bye
    extra = 0
    autocomplete_fields = ("member",)


class LineupInline(admin.TabularInline):
    model = LineupEntry
    extra = 0
    autocomplete_fields = ("member",)


class ResultChangeInline(admin.TabularInline):
    model = ResultChange
    extra = 0
    can_delete = False
    readonly_fields = (
        "changed_at",
        "changed_by",
        "old_result",
        "new_result",
        "old_rated_result",
        "new_rated_result",
    )

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
    list_filter = ("kind", "category", "rated")
    search_fields = ("name", "place", "director")
    date_hierarchy = "start_date"
    inlines = [TournamentPlayerInline, RoundInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "date")
    list_filter = ("tournament",)
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    inlines = [GameInline, ByeInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("round", "board", "white", "black", "result", "rated_result", "rated", "date")
    list_filter = ("result", "rated", "round__tournament")
    search_fields = ("white__last_name", "black__last_name", "round__tournament__name")
    list_select_related = ("round__tournament", "white", "black")
    autocomplete_fields = ("white", "black")
    readonly_fields = ("result", "rated_result", "rated")  # see GameInline
    inlines = [ResultChangeInline]

    # Deleting a game withdraws its result through the ratings service first, so the ratings it
    # moved are re-evaluated; a game in a closed rating period is refused (docs/rules.md §4.3).
    def _withdraw_result(self, request, game: Game) -> bool:
        service = _ratings_service()
        if service is None:
            return True
        try:
            service(game=game, result=Result.NOT_PLAYED, user=request.user)
        except ValueError as error:  # RatingsError, with a translated message
            self.message_user(request, str(error), level=messages.ERROR)
            return False
        return True

    def get_deleted_objects(self, objs, request):
        # The rating records go with the game through the service, not by the user's permission.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        managed = {str(rel.related_model._meta.verbose_name) for rel in Game._meta.related_objects
                   if rel.get_accessor_name() == "rating_records"}
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


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ("round", "member", "kind")
    list_filter = ("kind",)
    search_fields = ("member__last_name", "round__tournament__name")
    list_select_related = ("round__tournament", "member")
    autocomplete_fields = ("member",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "club", "start_rank")
    list_filter = ("tournament",)
    search_fields = ("name", "club__name")


@admin.register(TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "home_team", "away_team", "boards")
    list_filter = ("round__tournament",)
    search_fields = ("home_team__name", "away_team__name")
    inlines = [LineupInline]


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ("tournament", "start_rank", "member", "rating", "fide_rating", "withdrawn_from_round")
    list_filter = ("tournament",)
    search_fields = ("member__last_name", "member__first_name", "tournament__name")
    autocomplete_fields = ("member",)


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "changed_at", "changed_by", "old_result", "new_result")
    list_filter = ("changed_at",)
    search_fields = ("game__white__last_name", "game__black__last_name")
    readonly_fields = (
        "game",
        "changed_at",
        "changed_by",
        "old_result",
        "new_result",
        "old_rated_result",
        "new_rated_result",
    )

    def has_add_permission(self, request):
        return False
