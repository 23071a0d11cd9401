from __future__ import annotations

import datetime

from crispy_forms.helper import FormHelper
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club
from clubrating.interchange.forms import upload_name

_NOT_MONTH = _("“%(value)s” is not a month like 2026-11.")


class FideListForm(forms.Form):
    file = forms.FileField(
        label=_("FIDE rating list"),
        help_text=_("FIDE's combined list: the zip as downloaded, or the text or XML file in it."))
    month = forms.CharField(label=_("Month of the list"), max_length=7,
                            help_text=_("Year and month, e.g. 2026-11."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["month"].initial = f"{datetime.date.today():%Y-%m}"
        self.helper = FormHelper()
        self.helper.form_tag = False  # the template writes the <form> tag

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.FIDE_LIST_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than %(size)d MB.") % {
                "size": settings.FIDE_LIST_MAX_BYTES // (1024 * 1024)})
        return upload

    def file_name(self) -> str:
        return upload_name(self.cleaned_data["file"])

    def clean_month(self):
        text = self.cleaned_data["month"].strip()
        try:
            year, month = (int(part) for part in text.split("-"))
            datetime.date(year, month, 1)
        except ValueError:
            raise forms.ValidationError(_NOT_MONTH % {"value": text}) from None
        if not 2000 <= year <= datetime.date.today().year + 1:
            raise forms.ValidationError(_NOT_MONTH % {"value": text})
        return f"{year:04d}-{month:02d}"


class FideAddForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.all(), required=False, label=_("Club"),
                                  empty_label=_("— guest (no club) —"))
