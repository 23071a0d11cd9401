"""Admin of the tournaments: what moves ratings, standings or history is read-only once a result
exists, or goes through the same services as the pages."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubrating.core.admin import DeleteRulesMixin, figure
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
from .selectors import paired_round_q
from .services import game_pairing_change, round_unpair
from .tiebreaks import SUPPORTED_CODES, UnknownTiebreak, parse_tiebreaks


def _has_results(games) -> bool:
    return games.exclude(result=Result.NOT_PLAYED).exists()


def _is_paired(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).filter(paired_round_q()).exists()


def _player_has_games(player: TournamentPlayer) -> bool:
    return Game.objects.filter(round__tournament=player.tournament_id).filter(
        Q(white=player.member_id) | Q(black=player.member_id)).exists()


def _player_stays(player: TournamentPlayer) -> str:
    return gettext("%(member)s has games in this tournament and stays in it; withdraw him from a round "
                   "on instead.") % {"member": player.member}


# --- tie-breaks: chosen from the codes the standings know -------------------------------------------

TIEBREAK_SLOTS = 6
KNOWN_TIEBREAKS = [code + (f"/{modifier}" if modifier else "")
                   for code, modifiers in SUPPORTED_CODES.items() for modifier in ("", *sorted(modifiers))]


class TiebreakWidget(forms.MultiWidget):
    def __init__(self):
        choices = [("", "—")] + [(code, code) for code in KNOWN_TIEBREAKS]
        super().__init__([forms.Select(choices=choices) for _slot in range(TIEBREAK_SLOTS)])

    def decompress(self, value):
        codes = [part.strip().upper() for part in (value or "").split(",") if part.strip()]
        return (codes + [""] * TIEBREAK_SLOTS)[:TIEBREAK_SLOTS]


class TiebreakField(forms.MultiValueField):
    """The tie-breaks in order, each one of the known codes: a code the standings cannot compute
    (typed by hand, "XYZ") cannot be chosen, so the standings never fall back to points only."""

    widget = TiebreakWidget

    def __init__(self, **kwargs):
        choices = [(code, code) for code in KNOWN_TIEBREAKS]
        fields = [forms.ChoiceField(choices=choices, required=False) for _slot in range(TIEBREAK_SLOTS)]
        super().__init__(fields=fields, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list):
        codes = [code for code in (data_list or []) if code]
        if len(set(codes)) != len(codes):
            raise ValidationError(_("Each tie-break can be chosen once."))
        try:
            parse_tiebreaks(codes)
        except UnknownTiebreak as error:
            message = _("“%(code)s” is not a tie-break the standings know.") % {"code": error}
            raise ValidationError(message) from error
        return ",".join(codes)


class TournamentAdminForm(forms.ModelForm):
    # No Meta: the admin builds it for the model with the fields it shows.
    tiebreaks = TiebreakField(label=_("tie-breaks"), help_text=_(
        "In order; each is one of the FIDE tie-breaks the standings compute (TRF-2026 codes)."))

    def clean_tiebreaks(self):
        return self.cleaned_data.get("tiebreaks") or ""


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


class PlayersFormSet(forms.BaseInlineFormSet):
    """A player with games stays in his tournament as the member he is: the standings and the
    pairing of the next round are built from his games."""

    def clean(self):
        super().clean()
        for form in self.forms:
            player = form.instance
            if player.pk is None or not _player_has_games(TournamentPlayer.objects.get(pk=player.pk)):
                continue
            if self.can_delete and self._should_delete_form(form) or "member" in form.changed_data:
                raise ValidationError(_player_stays(TournamentPlayer.objects.get(pk=player.pk)))


class TournamentPlayerInline(admin.TabularInline):
    model = TournamentPlayer
    formset = PlayersFormSet
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
class TournamentAdmin(DeleteRulesMixin, admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ("name", "kind", "category", "start_date", "end_date", "place", "rounds_count", "rated")
    list_filter = ("kind", "category", "rated")
    search_fields = ("name", "place", "director")
    date_hierarchy = "start_date"
    inlines = [TournamentPlayerInline, RoundInline]

    # The start date is the date of games without their own or their round's; whether and in
    # which category it is rated decides the pools that rate it: fixed once a result exists. The
    # system (and a round robin's single or double cycle) decides how the rounds are paired: fixed
    # once a round is paired, as the tournament's pages fix it.
    def get_readonly_fields(self, request, obj=None):
        fixed = ()
        if obj is not None and _is_paired(obj):
            # The virtual points of the accelerated rounds (C.04.5.1) are fixed by round 1's pairing.
            fixed += ("kind", "double_round_robin", "acceleration")
        if obj is not None and _has_results(Game.objects.filter(round__tournament=obj)):
            fixed += ("start_date", "rated", "category")
        return fixed

    def delete_refusal(self, request, obj):
        if _has_results(Game.objects.filter(round__tournament=obj)):
            return gettext("The tournament has results; they belong to the rating history and the tournament "
                           "stays.")
        return None


@admin.register(Round)
class RoundAdmin(DeleteRulesMixin, admin.ModelAdmin):
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

    # A round goes as its pairing is thrown away on the round's page (``round_unpair``): only the
    # last round, and only while it has no results.
    def delete_refusal(self, request, obj):
        if _has_results(obj.games):
            return gettext("Round %(number)d has results; it cannot be deleted.") % {"number": obj.number}
        if Round.objects.filter(tournament=obj.tournament_id, number__gt=obj.number).exists():
            return gettext("Round %(number)d is not the last round; delete the later rounds first.") % {
                "number": obj.number}
        return None

    def delete_model(self, request, obj):
        with transaction.atomic():
            round_unpair(round=obj)
            obj.delete()

    def delete_queryset(self, request, queryset):
        for rnd in queryset.order_by("-number"):
            self.delete_model(request, rnd)


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
class TournamentPlayerAdmin(DeleteRulesMixin, admin.ModelAdmin):
    list_display = ("tournament", "start_rank", "member", figure(TournamentPlayer, "rating", "rating"),
                    figure(TournamentPlayer, "fide_rating", "rating"), "withdrawn_from_round")
    list_filter = ("tournament",)
    list_select_related = ("tournament", "member")
    search_fields = ("member__last_name", "member__first_name", "tournament__name")
    autocomplete_fields = ("member",)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and _player_has_games(obj):
            return ("tournament", "member")
        return ()

    def delete_refusal(self, request, obj):
        return _player_stays(obj) if _player_has_games(obj) else None


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
