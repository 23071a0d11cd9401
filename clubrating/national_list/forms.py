"""The national list's forms: the upload (file and list date), the column mapping, and the pool
a list is handed to as its starting list."""

from __future__ import annotations

import datetime

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext_lazy as _

from clubrating.interchange.forms import upload_text

from .mapping import FIELDS, REQUIRED


class _Form(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False


class UploadForm(_Form):
    file = forms.FileField(label=_("CSV or Excel file (XLSX)"))
    list_date = forms.DateField(
        label=_("List date"), initial=datetime.date.today,
        help_text=_("The day the federation's list is valid from (e.g. 1.10.2026)."),
    )

    def clean_file(self) -> tuple[str, bytes]:
        """(file name, the file's bytes); refused above the import size limit."""
        upload = self.cleaned_data["file"]
        name, _text = upload_text(upload)  # the size limit and the cleaned name, as every import
        upload.seek(0)
        return name, upload.read()


class MappingForm(_Form):
    """One choice per field among the file's columns; the national ID and the rating are needed."""

    def __init__(self, *args, columns: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        for field, label in FIELDS.items():
            required = field in REQUIRED
            choices = [("", "—")] + [(column, column) for column in columns]
            self.fields[field] = forms.ChoiceField(label=label, choices=choices, required=required)

    def clean(self):
        data = super().clean()
        chosen = [value for value in data.values() if value]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError(_("Choose each column for one field only."))
        return data

    def columns(self) -> dict[str, str]:
        return {field: column for field, column in self.cleaned_data.items() if column}


class StartListForm(_Form):
    """The new pool (one without a published list) a kept list becomes the starting list of."""

    pool = forms.ModelChoiceField(
        label=_("Rating pool"), queryset=None,
        help_text=_("Only pools without a published list can take a starting list."))

    def __init__(self, *args, pools, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pool"].queryset = pools
