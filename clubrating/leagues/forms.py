"""The captains' and the league director's forms. They only validate; the services decide."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club, Member
from clubrating.leagues.models import (
    DEFAULT_CRITERIA,
    Criterion,
    Division,
    LeagueSeason,
    LeagueTeam,
    RosterEntry,
    Side,
)
from clubrating.leagues.selectors import home_reading
from clubrating.leagues.services import FEDERATION_RULES
from clubrating.tournaments.forms import RESULT_CONTROLS
from clubrating.tournaments.models import Game


class LineupForm(forms.Form):
    """One choice per board from the club's roster (rank order); an empty choice leaves the
    board empty. Each player is offered with his rating (``ratings``: {member: rating}) and, if he
    cannot play in this match, why (``reasons``: {member: text}), so the captain sees it before
    he submits. An empty board above a filled one is asked about once (``gaps``)."""

    confirm_gaps = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        boards: int,
        roster: list[RosterEntry],
        initial_members: dict[int, int],
        ratings: dict[int, int] | None = None,
        reasons: dict[int, str] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        ratings, reasons = ratings or {}, reasons or {}

        def label(entry: RosterEntry) -> str:
            text = f"{entry.rank}. {entry.member.full_name} ({entry.team.number})"
            if ratings.get(entry.member_id) is not None:
                text += f" · {ratings[entry.member_id]}"
            if entry.member_id in reasons:
                text += " · ✗ " + reasons[entry.member_id]
            return text

        choices = [("", _("— board empty —"))] + [(str(entry.member_id), label(entry)) for entry in roster]
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

    def gaps(self) -> list[int]:
        """The empty boards above the last filled one (a valid form)."""
        filled = [b for b in range(1, self.boards + 1) if self.cleaned_data.get(f"board_{b}")]
        return [b for b in range(1, max(filled, default=0)) if b not in filled]

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
    """A result for every board that has a game, and the team that did not appear (if any). Each
    board also carries the result it held when the page was loaded (``seen_<board>``): only the
    boards changed on this page are saved, and a board someone else saved meanwhile is refused,
    not overwritten (two captains, or a captain and the director, entering at once).

    The board's fields read as its card does, from the home player's side ("1-0": the home
    player won, whatever his colour); ``results`` and ``seen`` give them back by colour, as the
    games store them. ``home_white`` ({board: the home player has White}) defaults to White."""

    absent = forms.ChoiceField(
        label=_("Team not appeared"),
        required=False,
        choices=[("", _("both teams appeared")), *Side.choices],
    )

    def __init__(self, *args, games: dict[int, Game], home_white: dict[int, bool] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = games
        self.home_white = {board: (home_white or {}).get(board, True) for board in games}
        for board, game in games.items():
            shown = home_reading(game.result, home_white=self.home_white[board])
            self.fields[f"board_{board}"] = forms.ChoiceField(
                label=_("Board %(board)d") % {"board": board},
                choices=_RESULT_CHOICES,
                required=False,
                initial=shown,
                error_messages={"invalid_choice": _("Choose one of the results offered.")},
            )
            self.fields[f"seen_{board}"] = forms.ChoiceField(
                choices=_RESULT_CHOICES, required=False, initial=shown, widget=forms.HiddenInput
            )

    def _by_colour(self, board: int, field: str) -> str:
        return home_reading(self.cleaned_data[f"{field}_{board}"], home_white=self.home_white[board])

    def _seen(self, board: int) -> str:
        """The result (by colour) the board held when the page was loaded (a form posted
        without it: now)."""
        if f"seen_{board}" not in self.data:
            return self.games[board].result
        return self._by_colour(board, "seen")

    def results(self) -> dict[int, str]:
        """The boards changed on the page: {board: result by colour}."""
        return {
            board: self._by_colour(board, "board")
            for board in self.games
            if self._by_colour(board, "board") != self._seen(board)
        }

    def seen(self) -> dict[int, str]:
        """{board: the result it held when the page was loaded} of the changed boards."""
        return {board: self._seen(board) for board in self.results()}


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


# --- setting up a season (the league director's pages) -------------------------------------------

_DATE = {"widget": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
CRITERIA_SLOTS = len(Criterion.choices)


class SeasonRulesForm(forms.Form):
    """A season's dates and rules; the standings criteria as an ordered list of choices (the
    first one required, each further one breaks the ties left by those before it)."""

    start_date = forms.DateField(label=_("Start date"), **_DATE)
    end_date = forms.DateField(label=_("End date"), required=False, **_DATE)
    match_points_win = forms.IntegerField(
        label=_("Match points for a win"), min_value=0, max_value=10, initial=2
    )
    match_points_draw = forms.IntegerField(
        label=_("Match points for a draw"), min_value=0, max_value=10, initial=1
    )
    match_points_loss = forms.IntegerField(
        label=_("Match points for a loss"), min_value=0, max_value=10, initial=0
    )
    lineup_deadline_hours = forms.IntegerField(
        label=_("Lineup deadline (hours before the match)"), min_value=0, max_value=336, initial=24
    )
    fixing_games = forms.IntegerField(
        label=_("Games in a higher team that fix a player there"), min_value=1, max_value=20, initial=3
    )
    match_start_time = forms.TimeField(
        label=_("Usual start of a match"),
        initial=datetime.time(14, 0),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )

    foreign_limit = forms.IntegerField(
        label=_("Most players of another federation in a lineup"),
        min_value=0,
        max_value=20,
        required=False,
        help_text=_("Empty: no limit."),
    )
    youth_board = forms.IntegerField(
        label=_("Youth board"), min_value=1, max_value=20, required=False, help_text=_("Empty: none.")
    )
    youth_max_age = forms.IntegerField(
        label=_("Oldest age on the youth board (in the season's first year)"),
        min_value=6,
        max_value=30,
        initial=18,
        required=False,
        help_text=_("Empty: 18."),
    )
    rating_tolerance = forms.IntegerField(
        label=_("Rating-order tolerance"),
        min_value=0,
        max_value=1000,
        required=False,
        help_text=_(
            "No player may sit below one rated more than this many points lower. Empty: not checked."
        ),
    )
    result_deadline_hours = forms.IntegerField(
        label=_("Result entry due (hours after the start)"),
        min_value=1,
        max_value=336,
        required=False,
        help_text=_("Later entries are flagged for the league director. Empty: no deadline."),
    )

    ineligible_boards_below = forms.BooleanField(
        label=_("An ineligible player loses the boards below his too"), required=False
    )
    ineligible_deduction = forms.DecimalField(
        label=_("Board points deducted for an ineligible player"),
        min_value=0,
        max_value=20,
        decimal_places=1,
        required=False,
        help_text=_("Empty: none."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = DEFAULT_CRITERIA.split(",")
        for slot in range(1, CRITERIA_SLOTS + 1):
            self.fields[f"criterion_{slot}"] = forms.ChoiceField(
                label=_("Standings criterion %(number)d") % {"number": slot},
                choices=[("", "—"), *Criterion.choices],
                required=slot == 1,
                initial=defaults[slot - 1] if slot <= len(defaults) else "",
                error_messages={"invalid_choice": _("Choose one of the criteria offered.")},
            )

    @staticmethod
    def initial_of(season: LeagueSeason) -> dict:
        initial = {
            name: getattr(season, name)
            for name in (
                "start_date",
                "end_date",
                "match_points_win",
                "match_points_draw",
                "match_points_loss",
                "lineup_deadline_hours",
                "fixing_games",
                "match_start_time",
                *FEDERATION_RULES,
            )
        }
        criteria = season.criteria
        for slot in range(1, CRITERIA_SLOTS + 1):
            initial[f"criterion_{slot}"] = criteria[slot - 1] if slot <= len(criteria) else ""
        return initial

    def rules(self) -> dict:
        """The cleaned rules as the season services take them."""
        data = self.cleaned_data
        return {
            "start_date": data["start_date"],
            "end_date": data["end_date"],
            "match_points": (data["match_points_win"], data["match_points_draw"], data["match_points_loss"]),
            "standings_criteria": [
                data[f"criterion_{slot}"]
                for slot in range(1, CRITERIA_SLOTS + 1)
                if data[f"criterion_{slot}"]
            ],
            "lineup_deadline_hours": data["lineup_deadline_hours"],
            "fixing_games": data["fixing_games"],
            "match_start_time": data["match_start_time"],
            "federation_rules": {
                **{name: data[name] for name in FEDERATION_RULES},
                "youth_max_age": data["youth_max_age"] or 18,
                "ineligible_deduction": data["ineligible_deduction"] or 0,
            },
        }


class SeasonForm(SeasonRulesForm):
    """A new season: its name, organiser and rules."""

    name = forms.CharField(label=_("Name"), max_length=200)
    organizer_club = forms.ModelChoiceField(
        label=_("Organising club"), queryset=Club.objects.order_by("name"), required=False
    )
    field_order = ["name", "organizer_club"]


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Name of the division"), max_length=120)
    level = forms.IntegerField(label=_("Level (1 the highest)"), min_value=1, max_value=20, initial=1)
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=16, initial=8)
    double_round_robin = forms.BooleanField(label=_("Double round robin (home and away)"), required=False)


class TeamRegistrationForm(forms.Form):
    division = forms.ModelChoiceField(label=_("Division"), queryset=Division.objects.none())
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.order_by("name"))
    number = forms.IntegerField(label=_("Team number"), min_value=1, max_value=20, initial=1)
    name = forms.CharField(label=_("Team name (optional)"), max_length=200, required=False)

    def __init__(self, *args, divisions, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = divisions


class CaptainForm(forms.Form):
    """A team and the user name of its new captain's account."""

    team = forms.ModelChoiceField(label=_("Team"), queryset=LeagueTeam.objects.none())
    username = forms.CharField(label=_("User name of the captain"), max_length=150)
    other_club = forms.BooleanField(
        label=_("Appoint him although he is not a member of the team's club"),
        required=False,
    )

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("There is no active account of this user name."))
        self.user = user
        return username

    def clean(self):
        """A captain of another club (or of none) is usually a slip of the user name: asked."""
        data = super().clean()
        team, user = data.get("team"), getattr(self, "user", None)
        if team is not None and user is not None and not data.get("other_club"):
            member = Member.objects.filter(user=user).select_related("club").first()
            if member is None or member.club_id != team.club_id:
                self.add_error(
                    "username",
                    _(
                        "%(user)s is not a member of %(club)s (%(own)s). Tick the box below to appoint "
                        "him anyway."
                    )
                    % {
                        "user": user.get_username(),
                        "club": team.club,
                        "own": member.club if member and member.club_id else _("no club member"),
                    },
                )
        return data


class ScheduleForm(forms.Form):
    """The first round's date and the days between rounds; the service checks the count."""

    first_date = forms.DateField(label=_("Date of round 1"), **_DATE)
    interval = forms.IntegerField(label=_("Days between rounds"), min_value=1, max_value=90, initial=14)
    start_time = forms.TimeField(
        label=_("Start of the matches"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )

    def dates(self, rounds: int) -> list[datetime.date]:
        first, interval = self.cleaned_data["first_date"], self.cleaned_data["interval"]
        return [first + datetime.timedelta(days=interval * n) for n in range(rounds)]


class RosterMoveForm(forms.Form):
    """A player of the roster moved to another team of his club from a day on, and why."""

    member = forms.ModelChoiceField(label=_("Player"), queryset=Member.objects.none())
    team = forms.ModelChoiceField(label=_("New team"), queryset=None)
    on = forms.DateField(label=_("Plays for it from"), **_DATE)
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    def __init__(self, *args, members, teams, **kwargs):
        super().__init__(*args, prefix="move", **kwargs)
        self.fields["member"].queryset = members
        self.fields["team"].queryset = teams


class MatchMoveForm(forms.Form):
    """The league director moves a match: its new day and start, where it is played, and why."""

    date = forms.DateField(label=_("Date"), **_DATE)
    time = forms.TimeField(
        label=_("Start"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    venue = forms.CharField(
        label=_("Venue"),
        max_length=200,
        required=False,
        help_text=_("Leave empty when the match is played at the home club."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)


class IneligibleForm(forms.Form):
    """The league director finds a team's player on a board ineligible."""

    side = forms.ChoiceField(label=_("Team"), choices=Side.choices)
    board = forms.IntegerField(label=_("Board of the ineligible player"), min_value=1, max_value=20)
    reason = forms.CharField(label=_("Reason of the decision"), max_length=500)
