"""Forms of the tournament pages (result entry and the officials' pages)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from clubrating.clubs.models import Member
from clubrating.clubs.search import name_words_q

from .models import Acceleration, Colour, Game, Result, Tournament, TournamentKind
from .tiebreaks import (
    RECOMMENDED,
    RECOMMENDED_TEAM,
    TIEBREAK_PRESETS,
    UnknownTiebreak,
    edition_for,
    parse_team_tiebreaks,
    parse_tiebreaks,
)

# The result control: (value, label, keys that choose it). The keys are shown on the page and
# read by static/js/result-entry.js from each button's data-keys, so this list is the only source.
# Letters (w, s/b, r/d) also end a board number typed into the quick entry ("17r": board 17 drawn),
# where the digits belong to the board number. The letters of both languages work whatever the
# page's language (German w/r/s: weiß, remis, schwarz; English w/d/b: white, draw, black); the help
# on the page teaches its own language's.
RESULT_CONTROLS: list[tuple[str, str, str]] = [
    (Result.WHITE_WINS, "1-0", "1 w"),
    (Result.DRAW, "½-½", "= 5 r d"),
    (Result.BLACK_WINS, "0-1", "0 s b"),
    (Result.WHITE_FORFEIT_WIN, "+/−", "+"),
    (Result.BLACK_FORFEIT_WIN, "−/+", "-"),
    (Result.DOUBLE_FORFEIT, "−/−", "x *"),
    (Result.NOT_PLAYED, "…", "Backspace Delete"),
]
# Letters that stand for a word of one language (remis, schwarz; draw, black): the legend shows
# those of the page's language only.
_WORD_LETTERS = frozenset("rsdb")
_KEY_NAMES = {"Backspace": "⌫", "Delete": "Del"}
_MEANINGS = {
    Result.WHITE_FORFEIT_WIN: _("white wins by forfeit"),
    Result.BLACK_FORFEIT_WIN: _("black wins by forfeit"),
    Result.DOUBLE_FORFEIT: _("both forfeit"), Result.NOT_PLAYED: _("not played"),
}


def result_key_legend() -> list[tuple[list[str], str, str]]:
    """The keyboard legend of the result-entry page, from ``RESULT_CONTROLS``: per control its
    keys as the page's language teaches them, its label ("" for not played) and what it means."""
    taught = {pgettext("result key for a draw", "d"), pgettext("result key for black wins", "b")}
    legend = []
    for value, label, keys in RESULT_CONTROLS:
        shown = [_KEY_NAMES.get(key, key) for key in keys.split()
                 if key not in _WORD_LETTERS or key in taught]
        legend.append((shown, label if value else "", str(_MEANINGS.get(value, ""))))
    return legend


def confirmation_of(result: str) -> str:
    """The answer that confirms the question about ``result`` (the form's hidden ``confirm``)."""
    return result or "none"


class ResultForm(forms.Form):
    """One board of the result-entry page."""

    result = forms.ChoiceField(
        label=_("Result"), choices=[(value, label) for value, label, _keys in RESULT_CONTROLS],
        required=False, error_messages={"invalid_choice": _("Choose one of the results offered.")},
    )
    # The result the official saw when the page was drawn: if another official changed it
    # meanwhile, the ratings service refuses the save (it compares under the game's row lock)
    # instead of silently overwriting his correction.
    seen = forms.CharField(required=False, widget=forms.HiddenInput)
    # Changing an entered result takes a second step: the official confirms it and may say why.
    # The question names the result it asks about (``confirmation_of``): another result typed
    # while it is open (a key, the quick entry) is asked about again, never saved on its answer.
    confirm = forms.CharField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason for the change"), required=False, max_length=200)

    def __init__(self, *args, game: Game, **kwargs):
        self.game = game
        kwargs.setdefault("initial", {"result": game.result, "seen": game.result})
        super().__init__(*args, **kwargs)

    def needs_confirmation(self) -> bool:
        """The (valid) form asks first and was not confirmed yet: it would overwrite an entered
        result the official saw (``changes_entered``), or give a result to a game dated after
        today (``is_future``)."""
        confirmed = self.cleaned_data.get("confirm") == confirmation_of(self.cleaned_data["result"])
        return not confirmed and (self.changes_entered() or self.is_future())

    def changes_entered(self) -> bool:
        """The form would overwrite an entered result the official saw. A page that showed
        another result (someone saved meanwhile) is not asked: the service refuses it as stale
        and says what the board now holds."""
        seen = self.seen_value()
        return (bool(self.game.result) and self.cleaned_data["result"] != self.game.result
                and (seen is None or seen == self.game.result))

    def is_future(self) -> bool:
        """A result for a game whose day (its round's date) lies after today: a typing slip in
        the round as often as not, and a result counts for the ratings on its game's day."""
        return (bool(self.cleaned_data["result"]) and self.cleaned_data["result"] != self.game.result
                and self.game.played_on > timezone.localdate())

    def seen_value(self) -> str | None:
        """The result the page showed, for the service's check under the row lock (None: no
        check, e.g. a form sent without the field)."""
        return self.cleaned_data.get("seen", "") if "seen" in self.data else None


class CorrectionForm(ResultForm):
    """The game page: the scored result and, if it differs, the result used for ratings."""

    rated_result = forms.ChoiceField(
        label=_("Rated result"), required=False,
        choices=[("same", _("as scored"))] + [(v, label) for v, label, _k in RESULT_CONTROLS if v],
        help_text=_("Only for a game played over the board but scored as a forfeit."),
    )

    def __init__(self, *args, game: Game, **kwargs):
        initial = {"result": game.result, "seen": game.result,
                   "rated_result": "same" if game.rated_result == game.result else game.rated_result}
        super().__init__(*args, game=game, initial=initial, **kwargs)
        # A drop-down needs words where the buttons of the round page show "…".
        self.fields["result"].choices = Result.choices
        self.fields["reason"].help_text = _("Optional; kept in the history of this result.")
        # The correction form is itself the confirmation.
        self.fields["confirm"].initial = True
        self.fields["confirm"].widget = forms.HiddenInput()
        self.order_fields(["result", "rated_result", "reason"])

    def needs_confirmation(self) -> bool:
        return False

    def rated_value(self) -> str | None:
        value = self.cleaned_data.get("rated_result") or "same"
        return None if value == "same" else value


PRESET_AUTO, PRESET_CUSTOM = "auto", "custom"
# The fields only some systems use (the create form hides the others' and refuses them).
SWISS_ONLY = (TournamentKind.SWISS.value,)
BERGER_ONLY = (TournamentKind.ROUND_ROBIN.value, TournamentKind.TEAM.value)
PRESET_LABELS = {
    "rr-fide": _("Round robin (FIDE): direct encounter, wins, Sonneborn-Berger, Koya"),
    "rr-sb": _("Round robin: Sonneborn-Berger, direct encounter, wins, Koya"),
    "swiss-bh": _("Swiss: Buchholz cut 1, Buchholz, Sonneborn-Berger"),
    "swiss-fide": _("Swiss (FIDE): Buchholz cut 1, Buchholz, Sonneborn-Berger, direct encounter, wins"),
    "team-sb": _("Team competition: Sonneborn-Berger, direct encounter"),
}


def _preset_choices() -> list:
    return [(PRESET_AUTO, _("Recommended for the chosen system"))] + [
        (key, PRESET_LABELS[key]) for _system, key, _codes in TIEBREAK_PRESETS
    ] + [(PRESET_CUSTOM, _("Own list: the TRF codes typed below"))]


class TournamentForm(forms.ModelForm):
    # Named tie-break sets per system; the typed code list below stays possible ("custom"). A form
    # sent without this field (a script) keeps the typed list.
    tiebreak_preset = forms.ChoiceField(label=_("Tie-break set"), required=False, choices=_preset_choices,
                                        initial=PRESET_AUTO)

    class Meta:
        model = Tournament
        fields = ["name", "kind", "category", "start_date", "end_date", "round_interval_days", "place",
                  "director", "rated", "rounds_count", "double_round_robin", "initial_colour",
                  "acceleration", "tiebreak_preset", "tiebreaks", "team_tiebreaks", "time_control",
                  "organizer_club"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        help_texts = {
            "tiebreaks": _("TRF-2026 codes in order, separated by commas, e.g. BH/C1,BH,SB or DE,SB,WIN."),
            "team_tiebreaks": _("Team competitions only: the team tie-breaks after the match points (FIDE "
                                "C.07), in order: GP game points, EMGSB, EMMSB, EGMSB, EGGSB (extended "
                                "Sonneborn-Berger), DE direct encounter, WIN matches won. Empty: GP,EMGSB."),
            "initial_colour": _("Swiss system only; round robins follow the fixed Berger tables."),
            "acceleration": _("Swiss system only, for large opens: in the first half of the rounds the upper "
                              "half of the start list is paired with virtual points (FIDE C.04.5.1). Fixed "
                              "once round 1 is paired."),
            "rounds_count": _("Swiss system only; a round robin has n − 1 rounds for n players (n for an "
                              "odd number), twice that in a double round robin."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Most directors never touch it: a form sent without it means white, the usual choice.
        self.fields["initial_colour"].required = False
        self.fields["acceleration"].required = False
        self.fields["rounds_count"].required = False
        # A Swiss's number is the director's to give; a round robin's follows from its players.
        self.fields["rounds_count"].initial = None
        # Typed codes are the director's own list: none until he types them (a set is chosen above).
        self.fields["tiebreaks"].initial = ""
        self.fields["round_interval_days"].required = False  # left empty: weekly
        # The page's script (static/js/tournament-form.js) shows only what the chosen system
        # uses: the fields and tie-break sets listed here per system, the others hidden and
        # disabled. ``clean`` refuses the same combinations, so the page and the check agree.
        only_for = {"rounds_count": SWISS_ONLY, "initial_colour": SWISS_ONLY, "acceleration": SWISS_ONLY,
                    "double_round_robin": BERGER_ONLY, "team_tiebreaks": (TournamentKind.TEAM.value,)}
        self.fields["team_tiebreaks"].required = False
        for name, only in only_for.items():
            self.fields[name].widget.attrs["data-kinds"] = " ".join(only)
        self.fields["tiebreak_preset"].widget.attrs["data-preset-kinds"] = " ".join(
            f"{key}:{system}" for system, key, _codes in TIEBREAK_PRESETS)

    def clean_initial_colour(self) -> str:
        return self.cleaned_data.get("initial_colour") or Colour.WHITE

    def clean_acceleration(self) -> str:
        return self.cleaned_data.get("acceleration") or Acceleration.NONE

    def clean_round_interval_days(self) -> int:
        value = self.cleaned_data.get("round_interval_days")
        return 7 if value is None else value

    def clean(self):
        data = super().clean()
        sent = "tiebreak_preset" in self.data
        preset = data.get("tiebreak_preset") or (PRESET_AUTO if sent else PRESET_CUSTOM)
        codes = dict((key, codes) for _system, key, codes in TIEBREAK_PRESETS)
        systems = {key: system for system, key, _codes in TIEBREAK_PRESETS}
        kind = data.get("kind")
        if preset in systems and kind and systems[preset] != kind:
            self.add_error("tiebreak_preset", _("This set belongs to another system; choose one for "
                                                "“%(kind)s”.") % {"kind": TournamentKind(kind).label})
        elif preset == PRESET_AUTO and kind:
            data["tiebreaks"] = RECOMMENDED[kind]
        elif preset in codes:
            data["tiebreaks"] = codes[preset]
        elif not (data.get("tiebreaks") or "").strip() and "tiebreaks" not in self.errors:
            self.add_error("tiebreaks", _("Type the TRF codes of your own list, or choose a set."))
        if kind in BERGER_ONLY:
            # Follows from the entrants (selectors.rounds_planned) once they are registered: a
            # number given here would not be used, so it is refused rather than dropped.
            if data.get("rounds_count") is not None or "rounds_count" in self.errors:
                self.errors.pop("rounds_count", None)
                self.add_error("rounds_count", _("The number of rounds follows from the players (in a team "
                                                 "competition, the teams); leave the field empty."))
            else:
                data["rounds_count"] = 1
            if self.data.get("acceleration") == Acceleration.BAKU:
                self.add_error("acceleration", _("Accelerated pairing is for a Swiss tournament; the Berger "
                                                 "tables fix every round."))
            if self.data.get("initial_colour") == Colour.BLACK:
                self.add_error("initial_colour", _("The colour of player 1 in round 1 is chosen in a Swiss "
                                                   "tournament only; the Berger tables fix every colour."))
        elif data.get("double_round_robin"):
            self.add_error("double_round_robin", _("Only a round robin or a team competition is played "
                                                   "double round."))
        elif kind == TournamentKind.SWISS and not data.get("rounds_count"):
            if "rounds_count" not in self.errors:
                self.add_error("rounds_count", _("A Swiss tournament needs its number of rounds."))
        elif not data.get("rounds_count"):
            data["rounds_count"] = 1
        self._check_tiebreaks(data)
        self._check_team_tiebreaks(data)
        self.instance.tiebreaks = data.get("tiebreaks", self.instance.tiebreaks)
        return data

    def _check_tiebreaks(self, data) -> None:
        """The codes must be tie-breaks of the edition of FIDE C.07 the start date gives (stored
        with the tournament); the 2026 edition forbids the Buchholz family in a round robin."""
        start = data.get("start_date")
        if not start:
            return
        edition = edition_for(start)
        self.instance.tiebreak_rules = edition
        codes = (data.get("tiebreaks") or "").strip()
        if not codes or "tiebreaks" in self.errors or "tiebreak_preset" in self.errors:
            return
        round_robin = data.get("kind") == TournamentKind.ROUND_ROBIN
        try:
            data["tiebreaks"] = ",".join(
                spec.label for spec in parse_tiebreaks(codes, edition, round_robin=round_robin))
        except UnknownTiebreak as error:
            message = _("“%(code)s” is not a tie-break of FIDE C.07 (edition %(edition)s) for this system.")
            self.add_error("tiebreaks", message % {"code": error, "edition": edition})


    def _check_team_tiebreaks(self, data) -> None:
        """A team competition's team tie-breaks: C.07 team codes the engine knows, each once; left
        empty (or another system), the list every team competition had (game points, EMGSB)."""
        codes = (data.get("team_tiebreaks") or "").strip()
        if data.get("kind") != TournamentKind.TEAM or not codes:
            data["team_tiebreaks"] = RECOMMENDED_TEAM
            return
        try:
            data["team_tiebreaks"] = ",".join(parse_team_tiebreaks(codes))
        except UnknownTiebreak as error:
            self.add_error("team_tiebreaks", _("“%(code)s” is not a team tie-break ClubRating knows, or it "
                                               "is listed twice.") % {"code": error})


class MemberSearchForm(forms.Form):
    q = forms.CharField(label=_("Search members"), required=False, max_length=80)


class RegisterPlayersForm(forms.Form):
    members = forms.ModelMultipleChoiceField(
        label=_("Members"), queryset=Member.objects.none(), widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one member.")},
    )

    def __init__(self, *args, tournament: Tournament, query: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        members = Member.objects.exclude(registrations__tournament=tournament).select_related("club")
        for in_name in name_words_q(query):  # every word in the name (``clubrating.clubs.search``)
            members = members.filter(in_name)
        self.fields["members"].queryset = members.order_by("last_name", "first_name")

    def ratings_show(self, ratings: dict) -> None:
        """Label each member with his ratings (member id -> published and live, in the pool that
        rates the tournament, given by the view): the published one is registered."""
        self.fields["members"].label_from_instance = lambda m: _label(m, ratings.get(m.pk))


def _label(member: Member, rating) -> str:
    if rating is None or (rating.published is None and rating.live is None):
        return str(member)
    return _("%(member)s (%(published)s, live %(live)s)") % {
        "member": member, "published": "–" if rating.published is None else rating.published,
        "live": "–" if rating.live is None else rating.live}


class StartRanksForm(forms.Form):
    """The director's own starting numbers: one field per registered player (checks: services)."""

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for player in self.players:
            self.fields[f"rank-{player.pk}"] = forms.IntegerField(
                label=str(player.member), min_value=1, max_value=len(self.players), initial=player.start_rank,
                widget=forms.NumberInput(attrs={"class": "form-control form-control-sm start-rank"}),
            )

    def rows(self):
        return [(player, self[f"rank-{player.pk}"]) for player in self.players]

    def ranks(self) -> dict[int, int]:
        return {player.pk: self.cleaned_data[f"rank-{player.pk}"] for player in self.players}


class PairingForm(forms.Form):
    """Change one board of a round before it has results (checks: services.game_pairing_change)."""

    white = forms.ModelChoiceField(label=_("White"), queryset=Member.objects.none())
    black = forms.ModelChoiceField(label=_("Black"), queryset=Member.objects.none())

    def __init__(self, *args, game: Game, **kwargs):
        self.game = game
        kwargs.setdefault("initial", {"white": game.white_id, "black": game.black_id})
        super().__init__(*args, **kwargs)
        members = Member.objects.filter(
            registrations__tournament_id=game.round.tournament_id
        ).order_by("last_name", "first_name")
        self.fields["white"].queryset = members
        self.fields["black"].queryset = members


class RoundDateForm(forms.Form):
    """The date a round is played on (pairing a round, or moving it on the round page). Shown and
    read in the language's format (Austria: 15.01.2027); ISO dates are understood as well."""

    date = forms.DateField(label=_("Round date"), localize=True, widget=forms.DateInput(attrs={
        "placeholder": _("DD.MM.YYYY"), "class": "form-control", "autocomplete": "off"}))


class ScheduleForm(forms.Form):
    """A round robin's schedule: one date per round (the rounds to pair, or the paired rounds
    whose dates change), shown and read like ``RoundDateForm``."""

    def __init__(self, *args, rounds: list[tuple[int, object]], required: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.numbers = [number for number, _day in rounds]
        for number, day in rounds:
            # Not required when pairing: a date left empty is the round's place in the schedule.
            self.fields[f"round-{number}"] = forms.DateField(
                label=_("Round %(number)d") % {"number": number}, localize=True, initial=day,
                required=required,
                widget=forms.DateInput(attrs={"placeholder": _("DD.MM.YYYY"), "class": "form-control",
                                              "autocomplete": "off"}))

    def dates(self) -> dict[int, object]:
        """{round number: date} of the dates given."""
        return {number: day for number in self.numbers if (day := self.cleaned_data.get(f"round-{number}"))}
