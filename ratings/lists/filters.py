"""The filters of a rating list: a name search, club, sex, age group and activity."""

from __future__ import annotations

from django import forms
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.search import name_words_q

AGE_GROUPS = {  # code: maximum age reached during the year (U8 … U18), or minimum (seniors)
    "U8": 8, "U10": 10, "U12": 12, "U14": 14, "U16": 16, "U18": 18,
}
SENIOR_AGE = 65


class ManyOptionsSelect(forms.Select):
    """A select of a federation's hundreds of clubs, its options written directly: Django's own
    ``Select`` renders each option through two templates, most of a list page's time when it is
    built afresh. The markup is the one Django's templates write (``select.html``,
    ``select_option.html`` with its closing line break, ``attrs.html``); a select with option
    groups is left to them."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group_name for group_name, _options, _index in widget["optgroups"]):
            return super().render(name, value, attrs, renderer)
        html = [f'<select name="{escape(widget["name"])}"{_attrs_html(widget["attrs"])}>']
        for _group, options, _index in widget["optgroups"]:
            html.extend(f'\n  <option value="{escape(option["value"])}"{_attrs_html(option["attrs"])}>'
                        f'{escape(option["label"])}</option>\n' for option in options)
        html.append("\n</select>")
        return SafeString("".join(html))


def _attrs_html(attrs: dict) -> str:
    """HTML attributes as ``django/forms/widgets/attrs.html`` writes them."""
    return "".join(f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"'
                   for name, value in attrs.items() if value is not False)


class ListFilterForm(forms.Form):
    """Filters of a rating list: a name search (every word found in the last or first name),
    club, sex, age group, activity. Age groups go by birth year relative to the list's year:
    U*n* = born in (year − n) or later, i.e. not yet *n* years old on 1 January (as the Austrian
    youth championships count "Jahrgänge"); seniors = 65 or older during the year."""

    name = forms.CharField(label=_("Name"), required=False, max_length=100)
    club = forms.ChoiceField(label=_("Club"), required=False, widget=ManyOptionsSelect)
    sex = forms.ChoiceField(
        label=_("Sex"), required=False, choices=[("", _("all")), ("m", _("male")), ("f", _("female"))]
    )
    age = forms.ChoiceField(
        label=_("Age group"), required=False,
        choices=[("", _("all"))] + [(code, code) for code in AGE_GROUPS] + [("S65", _("Seniors 65+"))],
    )
    active = forms.BooleanField(label=_("Active members only"), required=False)

    def __init__(self, *args, clubs: list[str], hidden: list[str] = (), **kwargs):
        """``hidden``: filters the reader does not get ("sex", "age": what the privacy rules
        keep from him, ``ratings.lists.faces.ListPrivacy``); a parameter for them is ignored."""
        super().__init__(*args, **kwargs)
        for name in hidden:
            del self.fields[name]
        self.fields["club"].choices = [("", _("all"))] + [(name, name) for name in clubs]
        for name in ("club", "sex", "age"):
            if name in self.fields:
                self.fields[name].widget.attrs["class"] = "form-select"
        self.fields["active"].widget.attrs["class"] = "form-check-input"
        self.fields["name"].widget.attrs.update({"class": "form-control", "type": "search",
                                                 "autocomplete": "off"})

    def filter(self, rows, *, year: int, private: bool = False):
        """``rows`` (a rating-list QuerySet, ``ratings.selectors.published_rows``/``live_rows``)
        narrowed in SQL to the chosen club, sex, age group and activity. ``private``: the reader
        sees a restricted profile's name and ratings only, so no filter on its club or age finds
        it (its row would tell what its cells keep back)."""
        if not self.is_valid():
            return rows
        data = self.cleaned_data
        for in_name in name_words_q(data["name"], prefix="member__"):  # every word in the name
            rows = rows.filter(in_name)
        if private and (data["club"] or data.get("age")):
            rows = rows.filter(list_restricted=False)
        if data["club"]:
            rows = rows.filter(list_club=data["club"])
        if data.get("sex"):
            rows = rows.filter(member__sex=data["sex"])
        if data.get("age") in AGE_GROUPS:
            rows = rows.filter(list_birth_year__gte=year - AGE_GROUPS[data["age"]])
        elif data.get("age") == "S65":
            rows = rows.filter(list_birth_year__lte=year - SENIOR_AGE)
        if data["active"]:
            rows = rows.filter(member__active=True)
        return rows

    def is_filtered(self) -> bool:
        return self.is_valid() and any(self.cleaned_data.values())

    def description(self) -> str:
        """The active filters in words, for the printed header."""
        if not self.is_valid():
            return ""
        parts = []
        if self.cleaned_data["name"].strip():
            parts.append(f"{self.fields['name'].label}: {self.cleaned_data['name'].strip()}")
        for name in ("club", "sex", "age"):
            value = self.cleaned_data.get(name)
            if value:
                parts.append(f"{self.fields[name].label}: {dict(self.fields[name].choices)[value]}")
        if self.cleaned_data["active"]:
            parts.append(str(self.fields["active"].label))
        return ", ".join(parts)
