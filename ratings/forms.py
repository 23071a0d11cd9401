"""Forms of the ratings pages: calculators, period actions and imports."""

from __future__ import annotations

import re

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext_lazy as _

from clubrating.interchange.formats.detect import CSV, TRF
from clubrating.interchange.forms import upload_text
from clubrating.tournaments.models import GameCategory
from ratings.models import PRESET_NAMES, Expectation
from ratings.rule_names import rules_label
from ratings.rules.presets import get_rules
from ratings.rules.results import UnreadableResult, parse_score

RESULT_CHOICES = [("", "—"), ("1", "1"), ("0.5", "½"), ("0", "0")]
RATING_MIN, RATING_MAX = 0, 3500


def rules_choices() -> list[tuple[str, str]]:
    choices = []
    for name in PRESET_NAMES:
        choices.append((name, rules_label(name)))
        if get_rules(name).table_option:  # the Austrian table is an option of the oesb pools (§1.1)
            choices.append((f"{name}+table", rules_label(name, table=True)))
    return choices


class _NoTagHelperMixin:
    """Crispy renders the fields; the templates write the <form> tag (the formset shares it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False


class _GetHelperMixin(_NoTagHelperMixin):
    """Calculators are GET forms: nothing secret, and no CSRF token in the address."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper.form_method = "get"
        self.helper.disable_csrf = True


class RulesField(forms.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(label=_("Rule set"), choices=rules_choices, initial="oesb-classic", **kwargs)


class RatingChangeForm(_GetHelperMixin, forms.Form):
    rules = RulesField()
    rating = forms.IntegerField(
        label=_("Your rating"), min_value=RATING_MIN, max_value=RATING_MAX,
        help_text=_("Your rating on the last published list."),
    )
    games_count = forms.IntegerField(
        label=_("Your rated games so far"), min_value=0, required=False, initial=0,
        help_text=_("Career total on the last list (factor reduction, FIDE K)."),
    )
    birth_year = forms.IntegerField(label=_("Birth year"), min_value=1900, max_value=2100, required=False)
    peak_rating = forms.IntegerField(
        label=_("Highest rating reached"), min_value=RATING_MIN, max_value=RATING_MAX, required=False,
        help_text=_("Your highest published rating so far (FIDE: K 10 once 2400 was reached)."),
    )


class NewcomerForm(_GetHelperMixin, forms.Form):
    rules = RulesField()


class OpponentForm(forms.Form):
    """One row of the games table; the table header carries the labels."""

    opponent = forms.IntegerField(
        label=_("Opponent's rating"), min_value=RATING_MIN, max_value=RATING_MAX, required=False,
        widget=forms.NumberInput(attrs={"class": "form-control form-control-sm", "inputmode": "numeric",
                                      "aria-labelledby": "opponent-head"}),
    )
    # A select offers 1, ½ and 0; a link may also carry 1.00, 0,5, 1-0 and the like.
    result = forms.CharField(
        label=_("Your result"), required=False,
        widget=forms.Select(choices=RESULT_CHOICES,
                            attrs={"class": "form-select form-select-sm", "aria-labelledby": "result-head"}),
    )

    def clean_result(self) -> float | None:
        text = self.cleaned_data["result"]
        if not text:
            return None
        try:
            return parse_score(text)
        except UnreadableResult:
            raise forms.ValidationError(
                _("“%(value)s” is not a result: 1, 0.5 or 0 (also 1.00, 0,5, ½, 1-0, 0-1).") % {"value": text}
            ) from None

    def clean(self):
        data = super().clean()
        if "result" in self.errors:
            return data
        if (data.get("opponent") is None) != (data.get("result") is None):
            raise forms.ValidationError(_("Give both the opponent's rating and your result, or neither."))
        return data


class BaseOpponentFormSet(forms.BaseFormSet):
    def clean(self):
        super().clean()
        if any(self.errors):
            return
        if not self.games():
            raise forms.ValidationError(_("Enter at least one game."))

    def games(self) -> list[tuple[int, float]]:
        """(opponent rating, own score) of the filled rows."""
        return [
            (form.cleaned_data["opponent"], form.cleaned_data["result"])
            for form in self.forms
            if form.cleaned_data.get("opponent") is not None
        ]


OpponentFormSet = forms.formset_factory(OpponentForm, formset=BaseOpponentFormSet, extra=10, max_num=60)


def _ratings(text: str) -> list[int]:
    values = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
    ratings = []
    for value in values:
        if not value.isdigit() or not RATING_MIN <= int(value) <= RATING_MAX:
            raise forms.ValidationError(
                _("“%(value)s” is not a rating between 0 and 3500.") % {"value": value}
            )
        ratings.append(int(value))
    if not ratings:
        raise forms.ValidationError(_("Enter at least one rating."))
    return ratings


class TeamForecastForm(_GetHelperMixin, forms.Form):
    rules = RulesField()
    team_a = forms.CharField(
        label=_("Team A: ratings by board"), widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_("One rating per board, separated by spaces, commas or new lines."),
    )
    team_b = forms.CharField(label=_("Team B: ratings by board"), widget=forms.Textarea(attrs={"rows": 8}))

    def clean_team_a(self) -> list[int]:
        return _ratings(self.cleaned_data["team_a"])

    def clean_team_b(self) -> list[int]:
        return _ratings(self.cleaned_data["team_b"])

    def clean(self):
        data = super().clean()
        if "team_a" in data and "team_b" in data and len(data["team_a"]) != len(data["team_b"]):
            raise forms.ValidationError(
                _("Both teams need the same number of boards (%(a)d against %(b)d).")
                % {"a": len(data["team_a"]), "b": len(data["team_b"])}
            )
        return data


class ReopenForm(_NoTagHelperMixin, forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000,
        help_text=_("Recorded with your name and the time; shown in the period's history."),
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A reason is required."))
        return reason


class CloseForm(_NoTagHelperMixin, forms.Form):
    """Closing a period; before its last day only with "close early" and a reason."""

    early = forms.BooleanField(label=_("Close early"), required=False)
    reason = forms.CharField(
        label=_("Reason for closing early"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000,
        required=False,
        help_text=_("Recorded with the published list; shown in the period's history and on the list."),
    )

    def __init__(self, *args, early: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.closing_early = early
        if not early:  # from its last day on a period closes without either
            del self.fields["early"]
            del self.fields["reason"]

    def clean(self):
        data = super().clean()
        if self.closing_early:
            if not data.get("early"):
                self.add_error("early", _("The period has not ended yet: choose “close early” to close it "
                                          "now."))
            if not (data.get("reason") or "").strip():
                self.add_error("reason", _("Closing a period early needs a reason."))
        return data


class PoolCreateForm(_NoTagHelperMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    rules = forms.ChoiceField(
        label=_("Rule set"), choices=lambda: [(n, rules_label(n)) for n in PRESET_NAMES],
        initial="oesb-classic",
    )
    expectation = forms.ChoiceField(
        label=_("Expectation"), choices=Expectation.choices, required=False,
        help_text=_("The Austrian pools may use the expectation table instead of the polynomial."),
    )
    category = forms.ChoiceField(label=_("Game category"), choices=GameCategory.choices,
                                 initial=GameCategory.STANDARD)
    start_date = forms.DateField(
        label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("The first period runs from this day to the end of its calendar period."),
    )
    inactivity_years = forms.IntegerField(
        label=_("Remove inactive players after (years)"), required=False, min_value=0,
        help_text=_("Lists leave out members without rated games for more than this many years. "
                    "Empty: as the rule set says (7 for the Austrian rule sets, ÖSB TUWO § 27 d); "
                    "0: never."),
    )

    def clean_inactivity_years(self):
        years = self.cleaned_data["inactivity_years"]
        return "preset" if years is None else (years or None)


class FideTakeoverForm(_NoTagHelperMixin, forms.Form):
    """The newcomers whose FIDE rating is taken over; ``candidates`` are (member, FIDE rating)."""

    member = forms.TypedMultipleChoiceField(
        label=_("Newcomers with a FIDE rating"), coerce=int, widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, candidates: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [
            (m.pk, f"{m.full_name} (FIDE {m.fide_rating})") for m in candidates
        ]
        self.fields["member"].initial = [m.pk for m in candidates]


class ImportForm(_NoTagHelperMixin, forms.Form):
    """A starting list; ``kind`` is the file's format (a tournament's TRF file is imported on the
    exchange pages)."""

    kind = forms.ChoiceField(
        label=_("What to import"),
        choices=[
            (CSV, _("Starting list (CSV)")),
            (TRF, _("Starting list from the ratings of a TRF file")),
        ],
    )
    file = forms.FileField(label=_("File"))

    def clean_file(self):
        return upload_text(self.cleaned_data["file"])
