"""Read-mostly admin: ratings change only through ratings.services, so rating data is read-only here."""

from django.contrib import admin

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


class ListEntryInline(admin.TabularInline):
    model = ListEntry
    fields = ["rank", "member", "rating", "change", "games_count", "markers", "class_code", "start_value"]
    readonly_fields = fields
    raw_id_fields = ["member"]
    can_delete = False
    extra = 0


@admin.register(PublishedList)
class PublishedListAdmin(ReadOnlyAdmin):
    list_display = ["pool", "kind", "valid_from", "published_at", "published_by", "superseded"]
    list_filter = ["pool", "kind", "superseded"]
    inlines = [ListEntryInline]


@admin.register(PoolMember)
class PoolMemberAdmin(ReadOnlyAdmin):
    list_display = ["member", "pool", "rating", "games_count", "live_rating", "live_change", "pending_games"]
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
        "own_rating",
        "opponent_rating",
        "expected",
        "factor",
        "change",
        "pending",
        "pool",
    ]
    list_filter = ["pool", "pending"]
    list_select_related = ["member", "opponent", "pool"]
    raw_id_fields = ["game", "member", "opponent"]


@admin.register(PeriodReopening)
class PeriodReopeningAdmin(ReadOnlyAdmin):
    list_display = ["period", "reopened_at", "reopened_by", "reason"]


@admin.register(FideTakeover)
class FideTakeoverAdmin(ReadOnlyAdmin):
    list_display = ["member", "fide_rating", "rating", "converted", "list"]
    list_filter = ["converted"]
    search_fields = ["member__last_name", "member__first_name"]


@admin.register(TournamentRating)
class TournamentRatingAdmin(admin.ModelAdmin):
    """Which pools rate a tournament is configuration, so it may be edited (recalculate afterwards)."""

    list_display = ["tournament", "pool"]
    list_filter = ["pool"]
    raw_id_fields = ["tournament"]
