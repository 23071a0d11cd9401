"""Admin of the tournaments: what moves ratings, standings or history is read-only once a result
exists, or goes through the same services as the pages."""

from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpResponseRedirect

from clubrating.core.admin import figure
from clubrating.core.errors import Refused

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
from .services import game_pairing_change


def _has_results(games) -> bool:
    return games.exclude(result=Result.NOT_PLAYED).exists()


# What a game counts on for standings and ratings: fixed once a result exists.
SCORED_GAME_FIELDS = ("white", "black", "date", "rated", "team_match")


class RoundInline(admin.TabularInline):
    # A round's date is the date of its games: changed on the round's own page (below).
    model = Round
    extra = 0
    fields = readonly_fields = ("number", "date")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class TournamentPlayerInline(admin.TabularInline):
    model = TournamentPlayer
    extra = 0
    autocomplete_fields = ("member",)
    fields = ("start_rank", "member", "rating", "fide_rating", "team", "withdrawn_from_round")


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    # Results change ratings: they are entered on the result-entry pages, which go through the
    # ratings service and keep the history. Players and dates are changed on the game's own admin
    # page, which goes through the services too; the list here only shows them.
    fields = readonly_fields = ("board", "white", "black", "result", "rated_result", "rated", "date")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


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
    fields = (
        "changed_at",
        "changed_by",
        "old_result",
        "new_result",
        "old_rated_result",
        "new_rated_result",
        "reason",
    )
    readonly_fields = fields  # the history is written by the result services only

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
    list_filter = ("kind", "category", "rated")
    search_fields = ("name", "place", "director")
    date_hierarchy = "start_date"
    inlines = [TournamentPlayerInline, RoundInline]

    # The start date is the date of games without their own or their round's; whether and in
    # which category it is rated decides the pools that rate it: fixed once a result exists.
    def get_readonly_fields(self, request, obj=None):
        if obj is not None and _has_results(Game.objects.filter(round__tournament=obj)):
            return ("start_date", "rated", "category")
        return ()

    def has_delete_permission(self, request, obj=None):
        if obj is not None and _has_results(Game.objects.filter(round__tournament=obj)):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "date")
    list_filter = ("tournament",)
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    inlines = [GameInline, ByeInline]

    # The round's date is its games' date: fixed once one of them has a result.
    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return ("tournament", "number", "date") if _has_results(obj.games) else ("tournament", "number")

    def has_delete_permission(self, request, obj=None):
        if obj is not None and _has_results(obj.games):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("round", "board", "white", "black", "result", "rated_result", "rated", "date")
    list_filter = ("result", "rated", "round__tournament")
    search_fields = ("white__last_name", "black__last_name", "round__tournament__name")
    list_select_related = ("round__tournament", "white", "black")
    autocomplete_fields = ("white", "black")
    inlines = [ResultChangeInline]

    def get_readonly_fields(self, request, obj=None):
        # Results: see GameInline. A game moves to another round or tournament only by pairing.
        if obj is None:
            return ("result", "rated_result")
        fixed = ("round", "result", "rated_result")
        return fixed + SCORED_GAME_FIELDS if obj.result else fixed

    def changes_apply(self, request, obj: Game, form) -> Game:
        """Apply through the services what they own; returns the game to save (a changed pairing
        is a new row). Raises ``Refused``."""
        if {"white", "black"} & set(form.changed_data):
            current = Game.objects.get(pk=obj.pk)
            new = game_pairing_change(game=current, white=obj.white, black=obj.black)
            obj.pk = obj.id = new.pk
        return obj

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        try:
            with transaction.atomic():
                obj = self.changes_apply(request, obj, form)
                super().save_model(request, obj, form, change)
        except Refused as error:
            self.message_user(request, error.message, level=messages.ERROR)
            request._game_change_refused = True

    def log_change(self, request, obj, message):
        if not getattr(request, "_game_change_refused", False):
            return super().log_change(request, obj, message)
        return None

    def response_change(self, request, obj):
        if getattr(request, "_game_change_refused", False):
            # Nothing was saved: back to the form (as the database holds it), with the reason.
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)


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
    list_select_related = ("tournament", "club")
    search_fields = ("name", "club__name")


@admin.register(TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "home_team", "away_team", "boards")
    list_filter = ("round__tournament",)
    list_select_related = ("round__tournament", "home_team", "away_team")
    search_fields = ("home_team__name", "away_team__name")
    inlines = [LineupInline]


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ("tournament", "start_rank", "member", figure(TournamentPlayer, "rating", "rating"),
                    figure(TournamentPlayer, "fide_rating", "rating"), "withdrawn_from_round")
    list_filter = ("tournament",)
    list_select_related = ("tournament", "member")
    search_fields = ("member__last_name", "member__first_name", "tournament__name")
    autocomplete_fields = ("member",)


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "changed_at", "changed_by", "old_result", "new_result")
    list_filter = ("changed_at",)
    list_select_related = ("game__white", "game__black", "changed_by")
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

    # The result history is a record of what officials did: it is only read here.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
