from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubrating.core.plausible import (
    validate_birth_year,
    validate_fide_id,
    validate_name,
    validate_national_id,
    validate_rating,
)

from .search import search_key_expression


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=30, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    # Cached pages that show clubs and members carry the latest change (``club_data_version``).
    changed_at = models.DateTimeField(_("changed"), auto_now=True, db_index=True)
    is_home = models.BooleanField(
        _("own club"), default=False, help_text=_("The club that runs this installation.")
    )
    public_ratings = models.BooleanField(
        _("rating lists public"),
        default=True,
        help_text=_("Visitors who are not logged in may read the rating lists."),
    )
    public_tournaments = models.BooleanField(
        _("tournaments public"),
        default=True,
        help_text=_("Visitors who are not logged in may read standings, pairings and crosstables."),
    )
    public_birth_years = models.BooleanField(
        _("birth years public"),
        default=False,
        help_text=_("Rating lists, member lists and tournament pages show members' birth years (age "
                    "categories) to everyone who may read them. Off: only officials see them."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(
                fields=["is_home"], condition=Q(is_home=True), name="club_single_home_club"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Sex(models.TextChoices):
    MALE = "m", _("male")
    FEMALE = "f", _("female")


class Title(models.TextChoices):
    GM = "GM", "GM"
    IM = "IM", "IM"
    FM = "FM", "FM"
    CM = "CM", "CM"
    WGM = "WGM", "WGM"
    WIM = "WIM", "WIM"
    WFM = "WFM", "WFM"
    WCM = "WCM", "WCM"


class Member(models.Model):
    # Validators: the values the importers accept (``clubrating.core.plausible``), so that the
    # admin's form stores nothing the site's own TRF export could not read back.
    first_name = models.CharField(_("first name"), max_length=80, blank=True, validators=[validate_name])
    last_name = models.CharField(_("last name"), max_length=80, validators=[validate_name])
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    # TRF files and federation lists often give the year only.
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True,
                                                  validators=[validate_birth_year])
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="members",
    )
    federation = models.CharField(_("federation"), max_length=3, blank=True, default="AUT")
    national_id = models.CharField(_("national ID (ÖSB)"), max_length=20, blank=True,
                                   validators=[validate_national_id])
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True,
                                             validators=[validate_fide_id])
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"), null=True, blank=True,
                                                   validators=[validate_rating])
    fide_title = models.CharField(_("title"), max_length=3, choices=Title.choices, blank=True)
    active = models.BooleanField(_("active"), default=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # Privacy (``clubrating.clubs.privacy``): a member may restrict his profile himself; a minor's
    # profile is restricted unless an official records his guardians' consent.
    profile_restricted = models.BooleanField(
        _("profile restricted"), default=False,
        help_text=_("Visitors and other members see only the name in lists and standings, no member page."),
    )
    # Opt-in (``clubrating.tournaments.notifications``): e-mail when his next round is paired and
    # when his registration is confirmed.
    notify_by_email = models.BooleanField(
        _("e-mail notifications"), default=False,
        help_text=_("An e-mail when the next round is paired and when a registration is confirmed."),
    )
    # Set when the member was erased on request or by the retention rule: his name is then a
    # pseudonym and his personal data are gone; games and lists keep him as a sporting record.
    erased_on = models.DateField(_("erased on"), null=True, blank=True)
    guardian_consent_on = models.DateField(
        _("guardians' consent recorded on"), null=True, blank=True,
        help_text=_("A minor's profile is shown like an adult's only with his guardians' consent."),
    )
    # The key member searches look in (``clubrating.clubs.search``): computed by the database
    # from the names, so no way of writing a name can leave it behind.
    search_name = models.GeneratedField(
        expression=search_key_expression(), output_field=models.TextField(), db_persist=True,
    )
    # Cached pages that show members carry the latest change (``club_data_version``).
    changed_at = models.DateTimeField(_("changed"), auto_now=True, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="member",
    )

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["national_id"], condition=~Q(national_id=""), name="member_unique_national_id"
            ),
            models.UniqueConstraint(fields=["fide_id"], name="member_unique_fide_id"),
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__gte=1850, birth_year__lte=2200),
                name="member_birth_year_plausible",
            ),
        ]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return self.full_name

    def get_absolute_url(self) -> str:
        return reverse("clubs:member_detail", args=[self.pk])

    @property
    def full_name(self) -> str:
        return f"{self.last_name}, {self.first_name}" if self.first_name else self.last_name

    @property
    def year_of_birth(self) -> int | None:
        return self.birth_date.year if self.birth_date else self.birth_year


class ErasureCause(models.TextChoices):
    REQUEST = "request", _("at the member's request")
    RETENTION = "retention", _("no log-in within the retention period")


class Erasure(models.Model):
    """The record that a member was erased: when, by whom, why — never what was erased."""

    member = models.OneToOneField(Member, verbose_name=_("member"), on_delete=models.PROTECT,
                                  related_name="erasure")
    erased_at = models.DateTimeField(_("erased at"), auto_now_add=True)
    erased_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("erased by"), null=True,
                                  blank=True, on_delete=models.SET_NULL, related_name="+")
    cause = models.CharField(_("cause"), max_length=10, choices=ErasureCause.choices)

    class Meta:
        verbose_name = _("erasure")
        verbose_name_plural = _("erasures")
        ordering = ["-erased_at"]

    def __str__(self) -> str:
        return f"{self.member_id} {self.erased_at:%Y-%m-%d}"


class MemberChange(models.Model):
    """One save of a member's record on the site's pages: who, when, which fields. Values are kept
    only for fields that are no personal data (club, IDs, rating, title, active): the history must
    not keep what an erasure removes (names, birth date, sex, contact data are named, not copied)."""

    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE,
                               related_name="changes")
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("changed by"), null=True,
                                   blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.BooleanField(_("created"), default=False)
    # [{"field": name, "old": text or None, "new": text or None}, ...]
    fields = models.JSONField(_("fields"), default=list)

    class Meta:
        verbose_name = _("change of a member")
        verbose_name_plural = _("changes of members")
        ordering = ["-changed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.member_id} {self.changed_at:%Y-%m-%d %H:%M}"
