"""Admin of the team leagues: the season's rules, its directors and the teams' captains may be
edited here; what the schedule, the rosters and the results hold changes only through the league
services (their checks and logs), so it is shown read-only."""

from django.contrib import admin

from .models import (
    Captain,
    Division,
    LeagueMatch,
    LeagueSeason,
    LeagueTeam,
    MatchEvent,
    RosterChange,
    RosterEntry,
)


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class DivisionInline(ReadOnly, admin.TabularInline):
    model = Division
    fields = readonly_fields = ("name", "level", "boards", "tournament")
    extra = 0


@admin.register(LeagueSeason)
class LeagueSeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start_date", "end_date", "lineup_deadline_hours", "fixing_games")
    search_fields = ("name",)
    filter_horizontal = ("directors",)
    inlines = [DivisionInline]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("team", "club", "number", "division")
    list_filter = ("season",)
    list_select_related = ("team", "club", "division__season")


@admin.register(Captain)
class CaptainAdmin(admin.ModelAdmin):
    list_display = ("team", "user")
    list_select_related = ("team__team", "user")
    autocomplete_fields = ("user",)
    raw_id_fields = ("team",)


@admin.register(RosterEntry)
class RosterEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("roster", "rank", "member", "team", "added_on")
    list_filter = ("roster__season", "roster__club")
    list_select_related = ("roster__club", "roster__season", "member", "team__team")


@admin.register(RosterChange)
class RosterChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("roster", "member", "kind", "valid_from", "recorded_at", "recorded_by", "reason")
    list_select_related = ("roster__club", "roster__season", "member", "recorded_by")


class MatchEventInline(ReadOnly, admin.TabularInline):
    model = MatchEvent
    fields = readonly_fields = ("at", "kind", "team", "by", "reason")
    extra = 0


@admin.register(LeagueMatch)
class LeagueMatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("match", "starts_at", "status")
    list_filter = ("status",)
    list_select_related = ("match__home_team", "match__away_team")
    inlines = [MatchEventInline]
