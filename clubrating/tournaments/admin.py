from django.contrib import admin

from .models import (
    Bye,
    Game,
    LineupEntry,
    ResultChange,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentPlayer,
)


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
