"""A league match, its state and its history.

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
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubrating.leagues.models.seasons import LeagueSeason, LeagueTeam
from clubrating.tournaments.models import TeamMatch


class MatchStatus(models.TextChoices):
    """Where a match's result stands."""

    OPEN = "open", _("no result yet")
    ENTERED = "entered", _("entered by the home team")
    CONFIRMED = "confirmed", _("confirmed by the away team")
    DISPUTED = "disputed", _("disputed")
    DECIDED = "decided", _("decided by the league director")


class Side(models.TextChoices):
    HOME = "home", _("home team")
    AWAY = "away", _("away team")


class LeagueMatch(models.Model):
    """The league's side of a team match: when it starts (the lineup deadline counts back from
    it), when each lineup was submitted, and where its result stands. The board results are the
    match's games; their changes are kept in the games' ``ResultChange`` history, and the
    match's own steps in ``MatchEvent``."""

    match = models.OneToOneField(
        TeamMatch,
        verbose_name=_("team match"),
        on_delete=models.CASCADE,
        related_name="league",
    )
    starts_at = models.DateTimeField(_("starts at"))
    # Where it is played when not at the home club's usual venue (set when the director moves it).
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    home_lineup_at = models.DateTimeField(_("home lineup submitted"), null=True, blank=True)
    away_lineup_at = models.DateTimeField(_("away lineup submitted"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.OPEN
    )
    entered_at = models.DateTimeField(_("result entered"), null=True, blank=True)
    # When the home captains were reminded by e-mail of the result still missing (once a match).
    result_reminded_at = models.DateTimeField(_("result reminder sent"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    disputed_at = models.DateTimeField(_("disputed"), null=True, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disputed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    dispute_reason = models.CharField(_("reason of the dispute"), max_length=500, blank=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decision_reason = models.CharField(_("reason of the decision"), max_length=500, blank=True)
    # A team that did not appear at all: its boards are lost by forfeit, none of them rated.
    absent = models.CharField(_("team not appeared"), max_length=4, choices=Side.choices, blank=True)
    # A team that lined up an ineligible player (found by the league director): the board from
    # which its boards count as lost; the games keep their results for the ratings.
    ineligible_side = models.CharField(
        _("team with an ineligible player"), max_length=4, choices=Side.choices, blank=True
    )
    ineligible_board = models.PositiveSmallIntegerField(
        _("board of the ineligible player"), null=True, blank=True
    )

    class Meta:
        ordering = ["match"]
        verbose_name = _("league match")
        verbose_name_plural = _("league matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(absent__in=["", *Side.values]), name="league_match_absent_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="league_match_status_valid"
            ),
            models.CheckConstraint(
                condition=(Q(ineligible_side="") & Q(ineligible_board__isnull=True))
                | (Q(ineligible_side__in=Side.values) & Q(ineligible_board__gte=1)),
                name="league_match_ineligible_board",
            ),
            models.CheckConstraint(
                condition=Q(status=MatchStatus.OPEN) | Q(entered_at__isnull=False),
                name="league_match_result_entered",
            ),
            models.CheckConstraint(
                condition=~Q(status=MatchStatus.CONFIRMED) | Q(confirmed_at__isnull=False),
                name="league_match_confirmed_dated",
            ),
            models.CheckConstraint(
                condition=~Q(status=MatchStatus.DISPUTED)
                | (Q(disputed_at__isnull=False) & ~Q(dispute_reason="")),
                name="league_match_dispute_reasoned",
            ),
            models.CheckConstraint(
                condition=~Q(status=MatchStatus.DECIDED)
                | (Q(decided_at__isnull=False) & ~Q(decision_reason="")),
                name="league_match_decision_reasoned",
            ),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return str(self.match)

    def lineup_deadline(self, season: LeagueSeason) -> datetime.datetime:
        """Lineups are due this moment; the opponent sees a lineup from then on."""
        return self.starts_at - datetime.timedelta(hours=season.lineup_deadline_hours)

    def result_due(self, season: LeagueSeason) -> datetime.datetime | None:
        """The home team enters the result by then (None: the season sets no deadline)."""
        if season.result_deadline_hours is None:
            return None
        return self.starts_at + datetime.timedelta(hours=season.result_deadline_hours)

    def entered_late(self, season: LeagueSeason) -> bool:
        """The result was entered after it was due (flagged for the league director)."""
        due = self.result_due(season)
        return due is not None and self.entered_at is not None and self.entered_at > due


class MatchEventKind(models.TextChoices):
    LINEUP = "lineup", _("lineup submitted")
    ENTERED = "entered", _("result entered")
    CONFIRMED = "confirmed", _("result confirmed")
    DISPUTED = "disputed", _("result disputed")
    DECIDED = "decided", _("decided by the league director")
    ABSENT = "absent", _("team not appeared")
    MOVED = "moved", _("match moved")


class MatchEvent(models.Model):
    """One step in a match's history: who did what, when, and why (disputes and the director's
    decisions carry their reason). The board results' own history is ``ResultChange``."""

    match = models.ForeignKey(
        LeagueMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="events"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=MatchEventKind.choices)
    team = models.ForeignKey(
        LeagueTeam,
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["match", "at", "pk"]
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind__in=[MatchEventKind.DISPUTED, MatchEventKind.DECIDED]) | ~Q(reason=""),
                name="match_event_reasoned",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_kind_display()}"
