"""The member register's form (the pages of ``views.member_edit``)."""

from django import forms
from django.utils.translation import gettext_lazy

from .models import Member
from .register import EDITED


class MemberForm(forms.ModelForm):
    allow_duplicate = forms.BooleanField(
        label=gettext_lazy("Add all the same: another person with the same name and birth date"),
        required=False,
    )

    class Meta:
        model = Member
        fields = list(EDITED)
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "active": gettext_lazy(
                "An inactive member stays in the games and lists he played in, "
                "but is no longer offered for new tournaments."
            )
        }
