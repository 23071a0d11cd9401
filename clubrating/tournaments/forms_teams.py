"""Forms of the director's registration and team pages: withdrawals, requested byes, guests,
teams, team membership and match lineups.

The checks that depend on the tournament's state live in ``services``; these forms only check
what a single request can get wrong (missing or impossible values, a board left empty).
"""

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member, Sex
from clubrating.core.plausible import birth_year_field, fide_id_field, name_field, rating_field

from .models import ByeKind, Team, TeamMatch, Tournament, TournamentPlayer


class _PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: TournamentPlayer) -> str:
        return f"{obj.start_rank or '–'}. {obj.member}"


def _players(tournament: Tournament):
    return tournament.players.select_related("member").order_by("start_rank", "pk")


class WithdrawForm(forms.Form):
    player = _PlayerChoiceField(label=_("Player"), queryset=TournamentPlayer.objects.none())
    from_round = forms.IntegerField(label=_("From round"), min_value=1, max_value=999)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, prefix="withdraw", **kwargs)
        self.fields["player"].queryset = _players(tournament).filter(withdrawn_from_round__isnull=True)


class ByeRequestForm(forms.Form):
    KINDS = [(ByeKind.HALF, ByeKind.HALF.label), (ByeKind.ZERO, ByeKind.ZERO.label),
             (ByeKind.FULL, ByeKind.FULL.label)]

    player = _PlayerChoiceField(label=_("Player"), queryset=TournamentPlayer.objects.none())
    round_number = forms.IntegerField(label=_("Round"), min_value=1, max_value=999)
    kind = forms.ChoiceField(label=_("Kind of bye"), choices=KINDS, initial=ByeKind.HALF)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, prefix="bye", **kwargs)
        self.fields["player"].queryset = _players(tournament)


class GuestForm(forms.Form):
    """A player who is not yet in the database; ``services.guest_register`` makes him a member."""

    last_name = name_field(_("Last name"), max_length=80)
    first_name = name_field(_("First name"), max_length=80, required=False)
    club_name = name_field(_("Club"), max_length=120, required=False,
                           help_text=_("A club not yet known is created."))
    sex = forms.ChoiceField(label=_("Sex"), choices=[("", "—"), *Sex.choices], required=False)
    birth_year = birth_year_field(_("Birth year"))
    rating = rating_field(_("National rating"))
    fide_rating = rating_field(_("FIDE rating"))
    fide_id = fide_id_field(_("FIDE ID"), help_text=_("A member with this FIDE ID is registered instead."))


class TeamForm(forms.ModelForm):
    """Name and club of a new team. Only validates: ``services.team_create`` stores the team (and
    refuses a name already used or a team after the first pairing); do not call ``save()``."""

    class Meta:
        model = Team
        fields = ["name", "club"]

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, prefix="team", **kwargs)


class TeamPlayersForm(forms.Form):
    """One team drop-down per registered player."""

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, prefix="members", **kwargs)
        self.tournament = tournament
        self.players = list(_players(tournament).select_related("member__club"))
        teams = Team.objects.filter(tournament=tournament).order_by("start_rank", "name")
        for player in self.players:
            self.fields[f"player_{player.pk}"] = forms.ModelChoiceField(
                label=f"{player.start_rank or '–'}. {player.member}", queryset=teams, required=False,
                initial=player.team_id, empty_label="—",
            )

    def assignments(self) -> dict[int, int | None]:
        """Player id -> team id (None: no team), for ``services.team_players_assign``."""
        return {
            player.pk: team.pk if (team := self.cleaned_data.get(f"player_{player.pk}")) else None
            for player in self.players
        }


class LineupForm(forms.Form):
    """A team's players for the boards of one match, board 1 first, without gaps."""

    def __init__(self, *args, match: TeamMatch, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.match, self.team = match, team
        members = Member.objects.filter(
            Q(registrations__tournament_id=team.tournament_id, registrations__team=team)
        ).order_by("registrations__start_rank", "last_name", "first_name")
        current = {e.board: e.member_id for e in match.lineup.filter(team=team)}
        for board in range(1, match.boards + 1):
            self.fields[f"board_{board}"] = forms.ModelChoiceField(
                label=_("Board %(board)d") % {"board": board}, queryset=members, required=False,
                initial=current.get(board), empty_label="—",
            )

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"board_{board}") for board in range(1, self.match.boards + 1)]
        seen = [m for m in chosen if m is not None]
        if not seen:
            raise ValidationError(_("Choose a player for board 1."))
        if None in chosen[: len(seen)]:
            raise ValidationError(_("Fill the boards from board 1 on without gaps."))
        if len({m.pk for m in seen}) != len(seen):
            raise ValidationError(_("A player can only sit at one board."))
        data["members"] = seen
        return data
