"""A tournament, its teams, players and rounds, and the rules it follows."""

import datetime

from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.pairing.editions import EDITION_2026_START, edition_for_start


class TournamentKind(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("round robin")
    SWISS = "swiss", _("Swiss system")
    TEAM = "team", _("team competition")
    CASUAL = "casual", _("casual games")


class GameCategory(models.TextChoices):
    STANDARD = "standard", _("standard")
    RAPID = "rapid", _("rapid")
    BLITZ = "blitz", _("blitz")


DEFAULT_TIEBREAKS = "BH/C1,BH,SB"


class TiebreakRules(models.TextChoices):
    """The edition of FIDE's Play-Off and Tie-Break Regulations (C.07) a tournament's standings
    follow: the one in force on its start date (``tiebreaks.edition_for``), kept for good."""

    C07_2023 = "2023", _("FIDE C.07, edition 2023")
    C07_2026 = "2026", _("FIDE C.07, edition 2026")


class PairingRules(models.TextChoices):
    """The edition of FIDE's Dutch system (C.04.3, with C.04.1 and C.04.2) a Swiss is paired by.
    A tournament keeps the edition it started under."""

    DUTCH_2017 = "dutch_2017", _("FIDE Dutch system until 31 January 2026")
    DUTCH_2026 = "dutch_2026", _("FIDE Dutch system from 1 February 2026")


class Acceleration(models.TextChoices):
    """Virtual points for the pairing of a large open's first rounds (FIDE C.04.5, accelerated
    systems; ``pairing/baku.py``). Fixed once round 1 is paired."""

    NONE = "none", _("none")
    BAKU = "baku", _("Baku acceleration (FIDE C.04.5.1)")


# The first day of the Dutch system of 2026 (``pairing/editions.py``, the one place that says it).
DUTCH_2026_START = EDITION_2026_START


def pairing_rules_for(start: datetime.date | None) -> str:
    """The edition in force on a tournament's start date."""
    return PairingRules(edition_for_start(start))


class Colour(models.TextChoices):
    WHITE = "w", _("white")
    BLACK = "b", _("black")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=TournamentKind.choices)
    category = models.CharField(
        _("game category"),
        max_length=10,
        choices=GameCategory.choices,
        default=GameCategory.STANDARD,
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=120, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True, default="AUT")
    director = models.CharField(_("tournament director"), max_length=120, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    rounds_count = models.PositiveSmallIntegerField(_("number of rounds"), default=1)
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    # Comma separated TRF-2026 tie-break codes in the order the director chose, e.g. "BH/C1,BH,SB".
    tiebreaks = models.CharField(_("tie-breaks"), max_length=200, blank=True, default=DEFAULT_TIEBREAKS)
    # A team competition's team tie-breaks after the match points (FIDE C.07 team codes, e.g.
    # "GP,EMGSB"; ``tiebreaks.parse_team_tiebreaks``); its players' standings use ``tiebreaks``.
    team_tiebreaks = models.CharField(_("team tie-breaks"), max_length=100, blank=True, default="GP,EMGSB")
    # Set from the start date where a tournament is created (form, imports); the default is the
    # edition in force today.
    tiebreak_rules = models.CharField(
        _("tie-break regulations"), max_length=4, choices=TiebreakRules.choices,
        default=TiebreakRules.C07_2026,
    )
    time_control = models.CharField(_("time control"), max_length=120, blank=True)
    # The schedule a round's date defaults from when it is paired: round 1 on the start date,
    # every further round this many days later (a weekly club evening: 7).
    round_interval_days = models.PositiveSmallIntegerField(
        _("days between rounds"), default=7,
        help_text=_("A newly paired round is dated from the start date in steps of this many days."),
    )
    # The Dutch system draws the colours of round 1 (FIDE C.04.3 A.6/E.5: TRF ``XXC``); the
    # Berger tables fix all colours, so round robins and team competitions ignore it.
    initial_colour = models.CharField(
        _("colour of player 1 in round 1"),
        max_length=1,
        choices=Colour.choices,
        default=Colour.WHITE,
    )
    # Blank: the edition in force on the start date; stored when the first round is paired, so
    # that the tournament keeps it (see ``dutch_rules``).
    pairing_rules = models.CharField(
        _("pairing rules"), max_length=20, choices=PairingRules.choices, blank=True, default="",
    )
    acceleration = models.CharField(
        _("acceleration"), max_length=10, choices=Acceleration.choices, default=Acceleration.NONE,
    )
    organizer_club = models.ForeignKey(
        Club,
        verbose_name=_("organising club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="tournament_end_after_start",
            ),
            models.CheckConstraint(condition=Q(rounds_count__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(condition=Q(tiebreak_rules__in=TiebreakRules.values),
                                   name="tournament_tiebreak_rules_known"),
            models.CheckConstraint(condition=Q(acceleration__in=Acceleration.values),
                                   name="tournament_acceleration_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def dutch_rules(self) -> str:
        """The edition of the Dutch system the tournament is paired by."""
        return self.pairing_rules or pairing_rules_for(self.start_date)

    def get_dutch_rules_display(self) -> str:
        return PairingRules(self.dutch_rules).label

    def scheduled_date(self, number: int):
        """The date round ``number`` is scheduled on: the start date, then ``round_interval_days``
        apart. The date a round gets when it is paired (the official may change it)."""
        return self.start_date + datetime.timedelta(days=self.round_interval_days * (number - 1))


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="teams",
    )
    start_rank = models.PositiveSmallIntegerField(_("starting rank"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "start_rank", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentPlayer(models.Model):
    """A member's registration in a tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="players"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="registrations"
    )
    start_rank = models.PositiveSmallIntegerField(_("starting rank"), null=True, blank=True)
    # Ratings as they stood at registration (for the starting list and the TRF export).
    rating = models.PositiveSmallIntegerField(_("national rating"), null=True, blank=True)
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"), null=True, blank=True)
    team = models.ForeignKey(
        Team,
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # The rank an organiser's file gave (TRF import), kept so an export can repeat it.
    final_rank = models.PositiveSmallIntegerField(_("final rank"), null=True, blank=True)
    # Not paired any more from this round on.
    withdrawn_from_round = models.PositiveSmallIntegerField(_("withdrawn from round"), null=True, blank=True)
    # Present before round 1 (the player on his phone, or the official's list): with check-in on
    # (``EntryWindow.check_in``) only checked-in players are paired in round 1.
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "start_rank"]
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "member"], name="player_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_rank"], name="player_unique_start_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.start_rank or '-'}. {self.member}"


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("%(tournament)s, round %(number)s") % {
            "tournament": self.tournament.name,
            "number": self.number,
        }

    def get_absolute_url(self) -> str:
        return reverse("tournaments:round", args=[self.tournament_id, self.number])
