"""A club's roster for the season, its entries and their changes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club, Member
from clubrating.leagues.models.seasons import LeagueSeason, LeagueTeam


class Roster(models.Model):
    """A club's ranked roster (Rangliste, Meldeliste) for a season: the order in which its players
    may be lined up. Its teams take consecutive blocks of it."""

    season = models.ForeignKey(
        LeagueSeason,
        verbose_name=_("season"),
        on_delete=models.CASCADE,
        related_name="rosters",
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="league_rosters"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["season", "club"]
        verbose_name = _("roster")
        verbose_name_plural = _("rosters")
        constraints = [
            models.UniqueConstraint(fields=["season", "club"], name="roster_once_per_club_and_season"),
        ]

    def __str__(self) -> str:
        return f"{self.club} – {self.season}"


class RosterEntry(models.Model):
    """A player's place in a roster: his rank and the team whose block he belongs to (his own
    team). ``added_on`` is the day he was registered: a late registration plays from that day."""

    roster = models.ForeignKey(
        Roster, verbose_name=_("roster"), on_delete=models.CASCADE, related_name="entries"
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    member = models.ForeignKey(
        Member,
        verbose_name=_("member"),
        on_delete=models.PROTECT,
        related_name="roster_entries",
    )
    team = models.ForeignKey(
        LeagueTeam,
        verbose_name=_("team"),
        on_delete=models.PROTECT,
        related_name="roster_entries",
    )
    added_on = models.DateField(_("registered on"))

    class Meta:
        ordering = ["roster", "rank"]
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        constraints = [
            models.UniqueConstraint(fields=["roster", "rank"], name="roster_entry_unique_rank"),
            models.UniqueConstraint(fields=["roster", "member"], name="roster_entry_member_once"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="roster_entry_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.member}"


class RosterChangeKind(models.TextChoices):
    ADDED = "added", _("registered")
    REMOVED = "removed", _("removed")
    MOVED = "moved", _("rank or team changed")


class RosterChange(models.Model):
    """The log of a roster's changes after it was first set (late registrations, withdrawals,
    changed ranks): what, from which day, who recorded it and when."""

    roster = models.ForeignKey(
        Roster, verbose_name=_("roster"), on_delete=models.CASCADE, related_name="changes"
    )
    member = models.ForeignKey(
        Member,
        verbose_name=_("member"),
        on_delete=models.PROTECT,
        related_name="roster_changes",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=RosterChangeKind.choices)
    valid_from = models.DateField(_("valid from"))
    old_rank = models.PositiveSmallIntegerField(_("old rank"), null=True, blank=True)
    new_rank = models.PositiveSmallIntegerField(_("new rank"), null=True, blank=True)
    old_team = models.ForeignKey(
        LeagueTeam,
        verbose_name=_("old team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    new_team = models.ForeignKey(
        LeagueTeam,
        verbose_name=_("new team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["roster", "recorded_at", "pk"]
        verbose_name = _("roster change")
        verbose_name_plural = _("roster changes")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind=RosterChangeKind.ADDED, old_rank__isnull=True, new_rank__isnull=False)
                | Q(kind=RosterChangeKind.REMOVED, old_rank__isnull=False, new_rank__isnull=True)
                | Q(kind=RosterChangeKind.MOVED, old_rank__isnull=False, new_rank__isnull=False),
                name="roster_change_ranks_fit_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.get_kind_display()} ({self.valid_from})"
