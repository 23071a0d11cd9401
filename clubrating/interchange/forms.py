"""Upload forms of the exchange pages: a PGN file (with an optional target tournament), a TRF
tournament and a member CSV."""

from __future__ import annotations

import re

from crispy_forms.helper import FormHelper
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clubrating.interchange.formats.text import decode_text
from clubrating.tournaments.models import Tournament

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def upload_text(upload) -> tuple[str, str]:
    """(file name, decoded text) of an uploaded file no larger than ``IMPORT_MAX_BYTES``; the name
    (shown and stored with what is imported) loses control characters and is cut to 200."""
    if upload.size > settings.IMPORT_MAX_BYTES:
        raise forms.ValidationError(_("The file is larger than 5 MB."))
    return upload_name(upload), decode_text(upload.read())


def upload_name(upload) -> str:
    """An uploaded file's name without control characters, cut to 200."""
    return " ".join(_CONTROL.sub(" ", upload.name or "").split())[:200]


class _UploadForm(forms.Form):
    """A form whose ``file`` cleans to (file name, decoded text); templates write the <form> tag."""

    file = forms.FileField(label=_("File"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False

    def clean_file(self) -> tuple[str, str]:
        return upload_text(self.cleaned_data["file"])


class PgnImportForm(_UploadForm):
    tournament = forms.ModelChoiceField(
        label=_("Tournament"), required=False,
        queryset=Tournament.objects.order_by("-start_date", "name"),
        empty_label=_("From the Event headers (new tournaments are created)"),
        help_text=_(
            "All games go into this tournament; without one, each Event header names its tournament."
        ),
    )

    tournament_name = forms.CharField(
        label=_("Or a tournament name"), required=False, max_length=200,
        help_text=_("For files whose Event headers do not name the tournament (e.g. broadcast exports): "
                    "the tournament of this name, created if there is none."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].label = _("PGN file")

    def clean(self):
        data = super().clean()
        data["tournament_name"] = " ".join(data.get("tournament_name", "").split())
        if data.get("tournament") and data["tournament_name"]:
            raise forms.ValidationError(_("Choose a tournament or type a name, not both."))
        return data

    def target(self) -> Tournament | str | None:
        """What ``games_import_pgn`` takes as ``tournament``."""
        return self.cleaned_data["tournament"] or self.cleaned_data["tournament_name"] or None


class MembersImportForm(_UploadForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].label = _("CSV file")


class TrfImportForm(_UploadForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].label = _("TRF file")


class TrfCheckForm(_UploadForm):
    rules = forms.ChoiceField(
        label=_("Pairing rules"), required=False,
        help_text=_("Without a choice: the pairing system the file names, else the rules of its start date."),
        choices=[("", _("As the file says")),
                 ("2026", _("FIDE Dutch system from 1 February 2026")),
                 ("2017", _("FIDE Dutch system until 31 January 2026"))],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].label = _("TRF file")
        self.fields["file"].help_text = _(
            "TRF16 or TRF-2026, for example from Swiss-Manager or from this site.")
