"""The national rating list as the federation publishes it, per list date, for the members it
names; and the column mapping of its file, chosen once and remembered."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member
from clubrating.interchange.formats.limits import GAMES_MAX, LENGTHS, RATING_MAX, RATING_MIN


class ColumnMapping(models.Model):
    """Which column of the federation's file holds what (``columns``: field -> the file's header,
    lower-case as the CSV reader gives it). One per site: the site imports one federation's list."""

    site = models.PositiveSmallIntegerField(default=1, unique=True, editable=False)
    columns = models.JSONField(_("columns"), default=dict)
    changed_at = models.DateTimeField(_("changed"), auto_now=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("changed by"), null=True,
                                   blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("column mapping of the national list")
        constraints = [models.CheckConstraint(condition=Q(site=1), name="national_mapping_one_per_site")]

    def __str__(self) -> str:
        return ", ".join(f"{field}: {column}" for field, column in self.columns.items())


class NationalList(models.Model):
    """One list of the federation, by the date it is valid from."""

    list_date = models.DateField(_("list date"), unique=True)
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    imported_at = models.DateTimeField(_("imported"))
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("imported by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-list_date"]
        verbose_name = _("national rating list")
        verbose_name_plural = _("national rating lists")

    def __str__(self) -> str:
        return str(self.list_date)


class NationalRating(models.Model):
    """A member's line on a national list, as published: rating (None: listed without one),
    games, and what the file says of him (name, birth year, club), kept as the file writes it."""

    national_list = models.ForeignKey(NationalList, verbose_name=_("national rating list"),
                                      on_delete=models.CASCADE, related_name="entries")
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE,
                               related_name="national_ratings")
    national_id = models.CharField(_("national ID (ÖSB)"), max_length=LENGTHS["national_id"])
    name = models.CharField(_("name"), max_length=2 * LENGTHS["member_name"] + 2, blank=True)
    rating = models.PositiveSmallIntegerField(_("national rating"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    club = models.CharField(_("club"), max_length=LENGTHS["club"], blank=True)

    class Meta:
        ordering = ["national_list", "member"]
        verbose_name = _("national rating")
        verbose_name_plural = _("national ratings")
        constraints = [
            models.UniqueConstraint(fields=["national_list", "member"], name="national_rating_one_per_list"),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=RATING_MIN, rating__lte=RATING_MAX),
                name="national_rating_in_range"),
            models.CheckConstraint(condition=Q(games__isnull=True) | Q(games__lte=GAMES_MAX),
                                   name="national_rating_games_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.national_id} {self.name}: {self.rating}".strip()
