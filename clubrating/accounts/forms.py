"""The forms of the Rollen page: roles are ticked from the roles the site knows, never typed."""

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from clubrating.accounts.roles import ROLES


def _role_choices():
    return [(name, label) for name, label, _text in ROLES]


class RolesForm(forms.Form):
    roles = forms.MultipleChoiceField(
        label=_("Roles"), choices=_role_choices, required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}))


class InviteForm(RolesForm):
    email = forms.EmailField(label=_("E-mail address"),
                             widget=forms.EmailInput(attrs={"class": "form-control form-control-sm"}))


class LinkForm(forms.Form):
    user = forms.ModelChoiceField(label=_("Login"), queryset=User.objects.none(), required=False,
                                  empty_label=_("— no login —"),
                                  widget=forms.Select(attrs={"class": "form-select form-select-sm"}))

    def __init__(self, *args, member=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Logins not yet linked to a member, and the member's own.
        users = User.objects.filter(member__isnull=True)
        if member is not None and member.user_id:
            users = users | User.objects.filter(pk=member.user_id)
        self.fields["user"].queryset = users.order_by("username")
