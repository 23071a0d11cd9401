"""Forms of registration and check-in: the official's registration window, the guest's entry and
the player's choice of rounds to sit out. They only validate; ``entries`` and ``checkin`` decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubrating.core.plausible import birth_year_field, fide_id_field, name_field

from .models import EntryWindow

# A datetime-local input sends "2026-12-01T18:00"; a typed Austrian date and time is read too.
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M", "%d.%m.%Y"]


def _datetime_field(label) -> forms.DateTimeField:
    return forms.DateTimeField(label=label, input_formats=DATETIME_FORMATS, widget=forms.DateTimeInput(
        format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}))


class EntryWindowForm(forms.Form):
    """When registration opens and closes, how many may play, who may register, check-in."""

    opens_at = _datetime_field(_("Registration opens"))
    closes_at = _datetime_field(_("Registration closes"))
    max_players = forms.IntegerField(label=_("Maximum number of players"), min_value=2, max_value=9999,
                                     required=False, help_text=_("Empty: no limit."))
    members_may_enter = forms.BooleanField(label=_("Members may register"), required=False)
    guests_may_enter = forms.BooleanField(label=_("Guests may register"), required=False)
    check_in = forms.BooleanField(label=_("Check-in before round 1"), required=False,
                                  help_text=_("Only players who checked in are paired in round 1."))

    @classmethod
    def for_window(cls, window: EntryWindow | None, data=None) -> "EntryWindowForm":
        initial = {"members_may_enter": True}
        if window is not None:
            initial = {name: getattr(window, name) for name in (
                "opens_at", "closes_at", "max_players", "members_may_enter", "guests_may_enter", "check_in")}
        return cls(data, initial=initial)


class GuestEntryForm(forms.Form):
    """A guest's registration: what the official needs to enter him (the FIDE ID fills in the
    rest where the site knows the player)."""

    last_name = name_field(_("Last name"), max_length=80)
    first_name = name_field(_("First name"), max_length=80, required=False)
    club_name = name_field(_("Club"), max_length=120, required=False)
    birth_year = birth_year_field(_("Year of birth"))
    fide_id = fide_id_field(
        _("FIDE ID"), help_text=_("Where the site knows your FIDE ID, it fills in what you leave empty."))
    email = forms.EmailField(label=_("E-mail"), required=False,
                             help_text=_("For the confirmation of your registration."))


class SkipRoundsForm(forms.Form):
    """The rounds a player sits out (those not paired yet)."""

    rounds = forms.TypedMultipleChoiceField(label=_("Rounds"), coerce=int,
                                            widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, first_round: int, last_round: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rounds"].choices = [(n, str(n)) for n in range(first_round, last_round + 1)]
