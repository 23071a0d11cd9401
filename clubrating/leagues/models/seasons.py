"""A league season, its divisions, teams and captains, and the table's criteria.

A league season has divisions (Staffeln); each division is backed by a team ``Tournament`` whose
``Team``, ``Round``, ``TeamMatch``, ``LineupEntry`` and ``Game`` rows hold the schedule, the
lineups and the board games. So a board game of a league is an ordinary game: it is rated in the
pools that rate the division's tournament, by the same result service as any other, and its
history is the game's ``ResultChange`` rows. The models here add what a league has beyond a team
competition: the season's rules, the clubs' teams and ranked rosters, the captains and the state
of each match (lineups submitted, result entered, confirmed or disputed, decided).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Team, Tournament


class Criterion(models.TextChoices):
    """A criterion of the division table, in the order the season lists them."""

    MATCH_POINTS = "MP", _("match points")
    BOARD_POINTS = "BP", _("board points")
    # Berliner Wertung: a win on board b of n boards counts n + 1 − b, a draw half of that.
    BERLIN = "BW", _("Berlin scoring")
    DIRECT = "DE", _("direct encounter")
    WINS = "W", _("matches won")


DEFAULT_CRITERIA = "MP,BP,BW,DE"


def criteria_valid(codes: list[str]) -> bool:
    """Whether ``codes`` name standings criteria: at least one, each offered, none twice."""
    return bool(codes) and all(code in Criterion.values for code in codes) and len(set(codes)) == len(codes)


def validate_criteria(value: str) -> None:
    """The stored standings criteria (comma-separated ``Criterion`` codes), as the table reads
    them: an unknown code would leave the division's table unreadable."""
    if not criteria_valid(value.split(",")):
        raise ValidationError(
            _("Choose each standings criterion at most once, from those offered."), code="criteria"
        )


class LeagueSeason(models.Model):
    """One season of a league (e.g. "Landesliga Wien 2026/27") with its rules as settings; its
    divisions play the matches. The pools that rate it are those of the divisions' tournaments."""

    name = models.CharField(_("name"), max_length=200, unique=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    organizer_club = models.ForeignKey(
        Club,
        verbose_name=_("organising club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_seasons",
    )
    match_points_win = models.PositiveSmallIntegerField(_("match points for a win"), default=2)
    match_points_draw = models.PositiveSmallIntegerField(_("match points for a draw"), default=1)
    match_points_loss = models.PositiveSmallIntegerField(_("match points for a loss"), default=0)
    # Comma separated ``Criterion`` codes in the order they rank the division table.
    standings_criteria = models.CharField(
        _("standings criteria"),
        max_length=60,
        default=DEFAULT_CRITERIA,
        validators=[validate_criteria],
    )
    # A lineup is due this many hours before the match starts; the opponent sees it from then on.
    lineup_deadline_hours = models.PositiveSmallIntegerField(
        _("lineup deadline (hours before the match)"),
        default=24,
    )
    # After this many games for a higher team a player is fixed there (festgespielt).
    fixing_games = models.PositiveSmallIntegerField(
        _("games in a higher team that fix a player there"),
        default=3,
    )
    match_start_time = models.TimeField(_("usual start of a match"), default=datetime.time(14, 0))
    # The rules a state federation's regulations add (docs/rules.md, "The state federations'
    # league rules"); each left empty is not applied.
    foreign_limit = models.PositiveSmallIntegerField(
        _("most players of another federation in a lineup"), null=True, blank=True
    )
    youth_board = models.PositiveSmallIntegerField(_("youth board"), null=True, blank=True)
    youth_max_age = models.PositiveSmallIntegerField(
        _("oldest age on the youth board (in the season's first year)"), default=18
    )
    rating_tolerance = models.PositiveSmallIntegerField(
        _("rating-order tolerance of a lineup"), null=True, blank=True
    )
    result_deadline_hours = models.PositiveSmallIntegerField(
        _("result entry due (hours after the start)"), null=True, blank=True
    )
    # An ineligible player's board is lost; with this also every board below it (as the
    # Kärntner Schachverband's TWO § 20/1), and the team loses this many board points of the match.
    ineligible_boards_below = models.BooleanField(
        _("an ineligible player loses the boards below his too"), default=False
    )
    ineligible_deduction = models.DecimalField(
        _("board points deducted for an ineligible player"), max_digits=3, decimal_places=1, default=0
    )
    # The league's officials: they decide disputes and override results.
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("league directors"),
        blank=True,
        related_name="directed_league_seasons",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("league season")
        verbose_name_plural = _("league seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(match_points_win__gt=F("match_points_draw"))
                & Q(match_points_draw__gte=F("match_points_loss")),
                name="league_season_match_points_order",
            ),
            models.CheckConstraint(condition=Q(fixing_games__gte=1), name="league_season_fixing_positive"),
            models.CheckConstraint(condition=~Q(standings_criteria=""), name="league_season_criteria_given"),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="league_season_end_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def criteria(self) -> list[str]:
        """The standings criteria in their order, as ``Criterion`` codes."""
        return [code for code in self.standings_criteria.split(",") if code]


class Division(models.Model):
    """A division (Staffel) of a season: its teams play a round robin (single or double, the
    backing tournament's ``double_round_robin``) on ``boards`` boards. Its tournament (kind team)
    holds the teams, rounds, matches, lineups and games."""

    season = models.ForeignKey(
        LeagueSeason,
        verbose_name=_("season"),
        on_delete=models.CASCADE,
        related_name="divisions",
    )
    name = models.CharField(_("name"), max_length=120)
    # 1 is the highest division of the season; lower divisions have higher numbers.
    level = models.PositiveSmallIntegerField(_("level"), default=1)
    boards = models.PositiveSmallIntegerField(_("boards"), default=8)
    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="division",
    )

    class Meta:
        ordering = ["season", "level", "name"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="division_unique_name"),
            models.CheckConstraint(condition=Q(boards__gte=1), name="division_boards_positive"),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {self.name}"

    @property
    def double_round_robin(self) -> bool:
        return self.tournament.double_round_robin


class LeagueTeam(models.Model):
    """A club's team in a season ("SK Donaustadt 2": club, number 2), playing in one division;
    ``team`` is its team in the division's tournament (name, Berger number). A lower number is a
    higher team."""

    season = models.ForeignKey(
        LeagueSeason,
        verbose_name=_("season"),
        on_delete=models.CASCADE,
        related_name="teams",
    )
    division = models.ForeignKey(
        Division,
        verbose_name=_("division"),
        on_delete=models.CASCADE,
        related_name="teams",
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="league_teams"
    )
    number = models.PositiveSmallIntegerField(_("team number"))
    team = models.OneToOneField(
        Team,
        verbose_name=_("tournament team"),
        on_delete=models.PROTECT,
        related_name="league_team",
    )

    class Meta:
        ordering = ["season", "club", "number"]
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        constraints = [
            models.UniqueConstraint(fields=["season", "club", "number"], name="league_team_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="league_team_number_positive"),
        ]

    def __str__(self) -> str:
        return self.team.name

    @property
    def name(self) -> str:
        return self.team.name


class Captain(models.Model):
    """A team's captain: any member's account. Submits the lineups, enters the results of home
    matches and confirms or disputes those of away matches."""

    team = models.ForeignKey(
        LeagueTeam, verbose_name=_("team"), on_delete=models.CASCADE, related_name="captains"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="league_captaincies",
    )

    class Meta:
        ordering = ["team", "user"]
        verbose_name = _("team captain")
        verbose_name_plural = _("team captains")
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="captain_once_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.user}"
