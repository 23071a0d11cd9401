"""FIDE's monthly rating list as the site keeps it.

``FideList`` is one imported month. ``FideRating`` keeps, month by month, the list's row of every
player who matters to the site (its members, and the players the officers follow), so that a
member page shows the FIDE history and a past month's list can be reproduced. ``FidePlayer`` is
the searchable directory: every player of the federations the site chooses
(``settings.FIDE_FEDERATIONS``) and every followed player, with the latest values, from which a
new member or a guest is added by FIDE ID or name.

Players are keyed by their FIDE ID, not by a member: a guest may be followed before he is one.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class FideList(models.Model):
    month = models.DateField(_("month"), unique=True)  # the first day of the list's month
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    players = models.PositiveIntegerField(_("players in the list"), default=0)
    imported_at = models.DateTimeField(_("imported"), auto_now_add=True)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("imported by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-month"]
        verbose_name = _("FIDE rating list")
        verbose_name_plural = _("FIDE rating lists")
        constraints = [models.CheckConstraint(condition=Q(month__day=1), name="fide_list_month_first_day")]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m}"


class FideValues(models.Model):
    """A player's row of FIDE's list (the columns of players_list_foa.txt)."""

    fide_id = models.PositiveBigIntegerField(_("FIDE ID"))
    name = models.CharField(_("name"), max_length=200)
    federation = models.CharField(_("federation"), max_length=3)
    sex = models.CharField(_("sex"), max_length=1, blank=True)
    title = models.CharField(_("title"), max_length=3, blank=True)
    women_title = models.CharField(_("women's title"), max_length=3, blank=True)
    other_titles = models.CharField(_("other titles"), max_length=60, blank=True)
    foa_title = models.CharField(_("FOA title"), max_length=3, blank=True)
    standard = models.PositiveSmallIntegerField(_("standard"), null=True, blank=True)
    standard_games = models.PositiveIntegerField(_("standard games"), null=True, blank=True)
    standard_k = models.PositiveSmallIntegerField(_("standard K"), null=True, blank=True)
    rapid = models.PositiveSmallIntegerField(_("rapid"), null=True, blank=True)
    rapid_games = models.PositiveIntegerField(_("rapid games"), null=True, blank=True)
    rapid_k = models.PositiveSmallIntegerField(_("rapid K"), null=True, blank=True)
    blitz = models.PositiveSmallIntegerField(_("blitz"), null=True, blank=True)
    blitz_games = models.PositiveIntegerField(_("blitz games"), null=True, blank=True)
    blitz_k = models.PositiveSmallIntegerField(_("blitz K"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    inactive = models.BooleanField(_("inactive"), default=False)

    VALUES = ("name", "federation", "sex", "title", "women_title", "other_titles", "foa_title",
              "standard", "standard_games", "standard_k", "rapid", "rapid_games", "rapid_k", "blitz",
              "blitz_games", "blitz_k", "birth_year", "inactive")

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.name} ({self.fide_id})"


class FideRating(FideValues):
    """A followed player's row in one month's list."""

    list = models.ForeignKey(FideList, verbose_name=_("list"), on_delete=models.CASCADE,
                             related_name="ratings")

    class Meta:
        ordering = ["-list__month"]
        verbose_name = _("FIDE rating")
        verbose_name_plural = _("FIDE ratings")
        constraints = [models.UniqueConstraint(fields=["list", "fide_id"], name="fide_rating_once_per_list")]
        indexes = [models.Index(fields=["fide_id"])]


class FidePlayer(FideValues):
    """The directory: the latest values of a player of the chosen federations (or followed)."""

    month = models.DateField(_("month"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("FIDE player")
        verbose_name_plural = _("FIDE players")
        constraints = [models.UniqueConstraint(fields=["fide_id"], name="fide_player_unique_fide_id")]
        indexes = [models.Index(fields=["name"])]


class FideFollow(models.Model):
    """A player an officer looked up: his rows are kept month by month, as a member's are."""

    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), unique=True)
    followed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("followed by"), null=True,
                                    blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("followed FIDE player")
        verbose_name_plural = _("followed FIDE players")

    def __str__(self) -> str:
        return str(self.fide_id)


class FideUploadPart(models.Model):
    """An uploaded list waiting between its preview and its import, in the database in parts of
    a few megabytes: the worker that reads it may run on another machine than the web server that
    received it, and a part at a time keeps a 40 MB zip out of any process's memory."""

    token = models.CharField(_("upload"), max_length=32)  # 32 hex digits, never a path
    number = models.PositiveIntegerField(_("part"))
    data = models.BinaryField(_("data"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("part of an uploaded FIDE list")
        verbose_name_plural = _("parts of uploaded FIDE lists")
        constraints = [models.UniqueConstraint(fields=["token", "number"], name="fide_upload_part_unique")]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.token} {self.number}"
