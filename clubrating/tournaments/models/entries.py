"""Entries: the entry window, a member's entry and the notifications."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member
from clubrating.tournaments.models.tournament import Tournament


class EntryWindow(models.Model):
    """A tournament open for registration: when, how many, who may enter, and whether players
    check in before round 1."""

    tournament = models.OneToOneField(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                      related_name="entry_window")
    opens_at = models.DateTimeField(_("registration opens"))
    closes_at = models.DateTimeField(_("registration closes"))
    max_players = models.PositiveSmallIntegerField(_("maximum number of players"), null=True, blank=True)
    members_may_enter = models.BooleanField(_("members may register"), default=True)
    guests_may_enter = models.BooleanField(_("guests may register"), default=False)
    check_in = models.BooleanField(
        _("check-in before round 1"), default=False,
        help_text=_("Only players who checked in are paired in round 1."),
    )

    class Meta:
        verbose_name = _("registration window")
        verbose_name_plural = _("registration windows")
        constraints = [
            models.CheckConstraint(condition=Q(closes_at__gt=F("opens_at")),
                                   name="entry_window_closes_after_opening"),
            models.CheckConstraint(condition=Q(max_players__isnull=True) | Q(max_players__gte=2),
                                   name="entry_window_at_least_two_players"),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class EntryState(models.TextChoices):
    PENDING = "pending", _("waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    WAITING = "waiting", _("on the waiting list")
    REFUSED = "refused", _("refused")
    CANCELLED = "cancelled", _("cancelled")


class Entry(models.Model):
    """A registration asked for by a member (one tap) or a guest (name, club, year of birth,
    FIDE ID), decided by the official; a confirmed entry is a ``TournamentPlayer``."""

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
                                   related_name="entries")
    member = models.ForeignKey(Member, verbose_name=_("member"), null=True, blank=True,
                               on_delete=models.PROTECT, related_name="entries")
    last_name = models.CharField(_("last name"), max_length=80)
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    club_name = models.CharField(_("club"), max_length=120, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    state = models.CharField(_("state"), max_length=10, choices=EntryState.choices,
                             default=EntryState.PENDING)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True,
                                   blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "member"],
                condition=Q(member__isnull=False) & ~Q(state__in=["refused", "cancelled"]),
                name="entry_once_per_member",
            ),
            models.CheckConstraint(condition=Q(birth_year__isnull=True)
                                   | Q(birth_year__gte=1850, birth_year__lte=2200),
                                   name="entry_birth_year_plausible"),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.get_state_display()})"

    @property
    def full_name(self) -> str:
        return f"{self.last_name}, {self.first_name}" if self.first_name else self.last_name


class Notification(models.Model):
    """An e-mail to a player (his next round is paired, his registration is confirmed), sent by
    the background worker; a failed sending is tried again later and never holds up pairing."""

    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE,
                               related_name="notifications")
    email = models.EmailField(_("e-mail"))
    language = models.CharField(_("language"), max_length=10)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("text"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [models.Index(fields=["sent_at", "next_attempt_at"], name="notification_due")]

    def __str__(self) -> str:
        return self.subject
