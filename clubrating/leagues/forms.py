"""The captains' and the league director's forms. They only validate; the services decide."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member
from clubrating.leagues.models import RosterEntry, Side
from clubrating.tournaments.forms import RESULT_CONTROLS
from clubrating.tournaments.models import Game


class LineupForm(forms.Form):
    """One choice per board from the club's roster (rank order); an empty choice leaves the
    board empty."""

    def __init__(
        self, *args, boards: int, roster: list[RosterEntry], initial_members: dict[int, int], **kwargs
    ):
        super().__init__(*args, **kwargs)
        choices = [("", _("— board empty —"))] + [
            (str(entry.member_id), f"{entry.rank}. {entry.member.full_name} ({entry.team.number})")
            for entry in roster
        ]
        self.members = {entry.member_id: entry.member for entry in roster}
        for board in range(1, boards + 1):
            self.fields[f"board_{board}"] = forms.ChoiceField(
                label=_("Board %(board)d") % {"board": board},
                choices=choices,
                required=False,
                initial=str(initial_members.get(board, "")),
                error_messages={"invalid_choice": _("Choose a player of the roster.")},
            )
        self.boards = boards

    def lineup(self) -> list[Member | None]:
        """The members board by board (None: empty), without the empty boards at the end."""
        members = [
            self.members.get(int(self.cleaned_data[f"board_{b}"]) if self.cleaned_data[f"board_{b}"] else 0)
            for b in range(1, self.boards + 1)
        ]
        while members and members[-1] is None:
            members.pop()
        return members


_RESULT_CHOICES = [(value, label) for value, label, _keys in RESULT_CONTROLS]


class ResultsForm(forms.Form):
    """A result for every board that has a game, and the team that did not appear (if any)."""

    absent = forms.ChoiceField(
        label=_("Team not appeared"),
        required=False,
        choices=[("", _("both teams appeared")), *Side.choices],
    )

    def __init__(self, *args, games: dict[int, Game], **kwargs):
        super().__init__(*args, **kwargs)
        self.games = games
        for board, game in games.items():
            self.fields[f"board_{board}"] = forms.ChoiceField(
                label=_("Board %(board)d") % {"board": board},
                choices=_RESULT_CHOICES,
                required=False,
                initial=game.result,
                error_messages={"invalid_choice": _("Choose one of the results offered.")},
            )

    def results(self) -> dict[int, str]:
        """The boards whose result differs from the one they hold."""
        return {
            board: self.cleaned_data[f"board_{board}"]
            for board, game in self.games.items()
            if self.cleaned_data[f"board_{board}"] != game.result
        }


class DecisionForm(ResultsForm):
    reason = forms.CharField(label=_("Reason of the decision"), max_length=500)


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=_("Why do you dispute the result?"), max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )


class LateRegistrationForm(forms.Form):
    """A player registered late: one of the club's members not on the roster yet, his team, the
    day he may play from, and why."""

    member = forms.ModelChoiceField(label=_("Player"), queryset=Member.objects.none())
    team = forms.ModelChoiceField(label=_("Team"), queryset=None)
    on = forms.DateField(label=_("Plays from"))
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args, members, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members
        self.fields["team"].queryset = teams
