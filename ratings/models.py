"""Rating pools, periods, published lists and per-game rating records (docs/rules.md).

The models hold state only; every change goes through ``ratings.services`` (one transaction
each). Ratings are floats because EGF pools keep three decimals; chess pools store whole numbers.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Game, GameCategory, Tournament

# The engine's preset names (ratings/rules/presets.py PRESETS); a test keeps them in step.
PRESET_NAMES = [
    "oesb-classic",
    "oesb-2012",
    "oesb-2024",
    "fide-2024",
    "fide-2025",
    "fide-2005",
    "dsb-1990",
    "egf-classic",
    "egf-2021",
]


class Expectation(models.TextChoices):
    PRESET = "", _("as the rule set says")
    POLYNOMIAL = "polynomial", _("polynomial")
    TABLE = "table", _("table")


class RatingPool(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    rules = models.CharField(
        _("rule set"), max_length=20, choices=[(n, n) for n in PRESET_NAMES], default="oesb-classic"
    )
    expectation = models.CharField(
        _("expectation"), max_length=12, choices=Expectation.choices, blank=True, default=""
    )
    category = models.CharField(
        _("game category"), max_length=10, choices=GameCategory.choices, default=GameCategory.STANDARD
    )
    start_date = models.DateField(_("start date"))
    # Austrian national rating rules (ÖSB TUWO § 27 d): a list leaves out members without a rated
    # game for more than this many years (7 in the ÖSB's rules); empty = never.
    inactivity_years = models.PositiveSmallIntegerField(
        _("years without rated games until a player is removed"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")
        constraints = [
            models.CheckConstraint(
                condition=Q(inactivity_years__isnull=True) | Q(inactivity_years__gte=1),
                name="pool_inactivity_years_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PeriodState(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")
    # A period that was open until the one before it was reopened: its games wait in it,
    # without calculation, until closing the reopened period opens it again.
    WAITING = "waiting", pgettext_lazy("rating period", "waiting")


class RatingPeriod(models.Model):
    pool = models.ForeignKey(
        RatingPool, verbose_name=_("rating pool"), on_delete=models.CASCADE, related_name="periods"
    )
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    state = models.CharField(_("state"), max_length=7, choices=PeriodState.choices, default=PeriodState.OPEN)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["pool", "start"]
        verbose_name = _("rating period")
        verbose_name_plural = _("rating periods")
        constraints = [
            models.UniqueConstraint(
                fields=["pool"], condition=Q(state="open"), name="period_one_open_per_pool"
            ),
            models.UniqueConstraint(fields=["pool", "start"], name="period_unique_start"),
            models.CheckConstraint(condition=Q(end__gte=F("start")), name="period_end_after_start"),
        ]

    def __str__(self) -> str:
        return f"{self.pool}: {self.start:%d.%m.%Y}–{self.end:%d.%m.%Y}"

    @property
    def is_open(self) -> bool:
        return self.state == PeriodState.OPEN

    @property
    def is_waiting(self) -> bool:
        return self.state == PeriodState.WAITING


class ListKind(models.TextChoices):
    START = "start", _("starting list")
    PERIOD = "period", _("period list")
    TRANSFORMATION = "transformation", _("2024 transformation")
    FIDE_TAKEOVER = "fide-takeover", _("FIDE ratings taken over")


class PublishedListQuerySet(models.QuerySet):
    """Which lists stand and which is in force, written once (the pages, the selectors and the
    services ask here)."""

    def published(self) -> "PublishedListQuerySet":
        """Lists that stand: not superseded by a republished list, and not withdrawn (their
        period reopened). The pool's published ratings are those of its latest such list."""
        return self.filter(superseded=False).exclude(period__state=PeriodState.OPEN)

    def in_force(self, day: datetime.date) -> "PublishedListQuerySet":
        """The lists that stand and apply on ``day`` (valid from that day or earlier), the one in
        force first: the latest valid-from day, then the latest published."""
        return self.published().filter(valid_from__lte=day).order_by("-valid_from", "-pk")


class PublishedList(models.Model):
    """An immutable snapshot; a republished period marks its old list as superseded. While its
    period is reopened the list is withdrawn: it is not valid, and closing the period again
    publishes the list that replaces it."""

    pool = models.ForeignKey(
        RatingPool, verbose_name=_("rating pool"), on_delete=models.CASCADE, related_name="lists"
    )
    period = models.ForeignKey(
        RatingPeriod,
        verbose_name=_("rating period"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="lists",
    )
    kind = models.CharField(_("kind"), max_length=16, choices=ListKind.choices)
    # The day from which the list's ratings apply (period end + 1, or the import day).
    valid_from = models.DateField(_("valid from"))
    published_at = models.DateTimeField(_("published at"), auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("published by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    superseded = models.BooleanField(_("superseded"), default=False)
    note = models.TextField(_("note"), blank=True)
    # The period's live values at closing are kept (ClosingLiveValues): reopening restores them.
    live_values_kept = models.BooleanField(_("live values kept"), default=False)
    # A period closed before its last day ends on the day it was closed; the officer's reason.
    early_reason = models.TextField(_("reason for closing early"), blank=True)

    objects = PublishedListQuerySet.as_manager()

    class Meta:
        ordering = ["pool", "-valid_from", "-pk"]
        get_latest_by = "pk"
        verbose_name = _("published list")
        verbose_name_plural = _("published lists")
        constraints = [
            models.UniqueConstraint(
                fields=["period"], condition=Q(superseded=False), name="list_one_current_per_period"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pool} {self.valid_from:%d.%m.%Y}"

    @property
    def reopened(self) -> bool:
        """Published for a period that has been reopened (and not closed again yet)."""
        return not self.superseded and self.period_id is not None and self.period.state == PeriodState.OPEN

    @property
    def withdrawn(self) -> bool:
        """Not valid any more: its period was reopened, or closing it again replaced the list."""
        return self.superseded or self.reopened


# A list row's marker for a first rating (a newcomer's start value), shown before the rule set's
# own markers (the dsb blend's) on every list, live or published: the lists' legend explains it.
FIRST_RATING_MARKER = "N"


def entry_markers(*, start_value: bool, markers: str) -> str:
    """What a list row shows as its markers (``published_rows`` writes the same in SQL)."""
    return FIRST_RATING_MARKER + markers if start_value else markers


class ListEntry(models.Model):
    list = models.ForeignKey(
        PublishedList, verbose_name=_("published list"), on_delete=models.CASCADE, related_name="entries"
    )
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="+")
    # The member's club when the list was published: the list is a snapshot, so a later change of
    # club does not rewrite it.
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rank = models.PositiveIntegerField(_("rank"))
    rating = models.FloatField(_("rating"))
    previous_rating = models.FloatField(_("previous rating"), null=True, blank=True)
    change = models.FloatField(_("change"), null=True, blank=True)
    games_count = models.PositiveIntegerField(_("games count"), default=0)
    period_games = models.PositiveIntegerField(_("games in the period"), default=0)
    markers = models.CharField(_("markers"), max_length=8, blank=True)
    class_code = models.CharField(_("class"), max_length=8, blank=True)
    start_value = models.BooleanField(_("first rating"), default=False)
    reached_2400 = models.BooleanField(_("reached 2400"), default=False)

    class Meta:
        ordering = ["list", "rank"]
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")
        constraints = [
            models.UniqueConstraint(fields=["list", "member"], name="entry_member_once_per_list"),
        ]
        # The list pages sort and page in SQL: rank (= rating order) and the numeric columns.
        indexes = [
            models.Index(fields=["list", "rank"], name="entry_list_rank"),
            models.Index(fields=["list", "change"], name="entry_list_change"),
            models.Index(fields=["list", "games_count"], name="entry_list_games"),
            models.Index(fields=["list", "period_games"], name="entry_list_period_games"),
            models.Index(fields=["list", "club"], name="entry_list_club"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.member}"


class LiveValues(models.Model):
    """A member's values in the open period as the last evaluation left them (the live list)."""

    live_rating = models.FloatField(_("live rating"), null=True, blank=True)
    live_change = models.FloatField(_("live change"), null=True, blank=True)
    live_games = models.PositiveIntegerField(_("games in the open period"), default=0)
    live_points = models.FloatField(_("points in the open period"), default=0)
    live_expected = models.FloatField(_("expected points in the open period"), default=0)
    start_value = models.FloatField(_("exact start value"), null=True, blank=True)
    pending_games = models.PositiveIntegerField(_("pending games"), default=0)

    class Meta:
        abstract = True


class PoolMember(LiveValues):
    """A member's state in a pool: the published values and the live cache of the open period."""

    # No index of its own: the unique constraint (pool, member) serves every lookup by pool, and
    # each index is one more write when closing a period rewrites 20,000 rows.
    pool = models.ForeignKey(
        RatingPool, verbose_name=_("rating pool"), on_delete=models.CASCADE, related_name="members",
        db_index=False,
    )
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField(_("published rating"), null=True, blank=True)  # None = newcomer
    games_count = models.PositiveIntegerField(_("games count"), default=0)
    reached_2400 = models.BooleanField(_("reached 2400"), default=False)
    # The place among the rows with the same live rating (``ratings.lists.order``); with the
    # level's count of rows above (``ratings.live_level``) it gives the rank on the live list,
    # kept by every write of live ratings (``ratings.services.live_ranks``). None off the list.
    # Not indexed: writing it stays in place (pages read the list on the live rating's index).
    live_place = models.PositiveIntegerField(_("place among equal live ratings"), null=True, blank=True)
    # While the period before the open one is reopened: the live values the waiting period had
    # (LiveValues' columns, in their order), kept so that closing again evaluates only the
    # members whose inputs changed (``ratings.services.period_kept``). None otherwise.
    waiting_rating = models.FloatField(_("waiting live rating"), null=True, blank=True)
    waiting_change = models.FloatField(_("waiting live change"), null=True, blank=True)
    waiting_games = models.PositiveIntegerField(_("games in the waiting period"), null=True, blank=True)
    waiting_points = models.FloatField(_("points in the waiting period"), null=True, blank=True)
    waiting_expected = models.FloatField(_("expected points in the waiting period"), null=True, blank=True)
    waiting_start_value = models.FloatField(_("waiting exact start value"), null=True, blank=True)
    waiting_pending_games = models.PositiveIntegerField(_("pending games in the waiting period"), null=True,
                                                        blank=True)

    class Meta:
        ordering = ["pool", "-live_rating"]
        verbose_name = _("pool member")
        verbose_name_plural = _("pool members")
        constraints = [
            models.UniqueConstraint(fields=["pool", "member"], name="pool_member_once"),
        ]
        # The live list (and the home page's top list) in rating order, the change column sorted.
        indexes = [
            models.Index(fields=["pool", "-live_rating"], name="poolmember_live_rating"),
            models.Index(fields=["pool", "live_change"], name="poolmember_live_change"),
        ]
        # PostgreSQL also has the live list's order by change (migration 0012): SQLite cannot
        # index NULLS LAST.

    def __str__(self) -> str:
        return f"{self.pool}: {self.member}"


class ClosingLiveValues(LiveValues):
    """A member's live values in the period a list was published from (PoolMember's live
    columns at closing), kept with the list like its entries: reopening that period restores
    them instead of evaluating the period again (they are what its evaluation gives, as its
    records and the list in force before it have not changed since). Members without a row had
    no game in the period: their live rating was their published one."""

    list = models.ForeignKey(
        PublishedList, verbose_name=_("published list"), on_delete=models.CASCADE, related_name="+"
    )
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("live values at closing")
        verbose_name_plural = _("live values at closing")
        constraints = [
            models.UniqueConstraint(fields=["list", "member"], name="closing_live_values_once_per_list"),
        ]

    def __str__(self) -> str:
        return f"{self.list}: {self.member}"


class RatingRecord(models.Model):
    """One game seen from one player in one pool, with the calculation the engine made."""

    # Few indexes on purpose: a federation pool holds ~10^6 records, and every index slows the
    # bulk rebuild. The composite indexes and the unique constraint cover every lookup.
    pool = models.ForeignKey(
        RatingPool,
        verbose_name=_("rating pool"),
        on_delete=models.CASCADE,
        related_name="records",
        db_index=False,
    )
    # None: the game lies after the open period, where no period exists yet, and waits for its
    # period to open. A game in a waiting period (PeriodState.WAITING) waits in it. A record keeps
    # its period when periods are closed and reopened (only carried pending sides move): its
    # calculation columns are rewritten in place, which PostgreSQL does without touching the
    # indexes when the page has room (the table's fill factor, migration 0009).
    period = models.ForeignKey(
        RatingPeriod,
        verbose_name=_("rating period"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="records",
        db_index=False,
    )
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="rating_records", db_index=False
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="+", db_index=False
    )
    opponent = models.ForeignKey(
        Member, verbose_name=_("opponent"), on_delete=models.CASCADE, related_name="+", db_index=False
    )
    white = models.BooleanField(_("white"))
    played_on = models.DateField(_("played on"))
    score = models.FloatField(_("score"))
    # Waiting for a newcomer's first rating (docs/rules.md §1.7).
    pending = models.BooleanField(_("pending"), default=False)
    # Carried into a later period for this side only: the opponent's side was already rated
    # (the engine's GameIn.only_for).
    solo = models.BooleanField(_("carried for this player only"), default=False)
    own_rating = models.FloatField(_("own rating"), null=True, blank=True)
    opponent_rating = models.FloatField(_("opponent's rating"), null=True, blank=True)
    difference = models.FloatField(_("difference"), null=True, blank=True)
    expected = models.FloatField(_("expected score"), null=True, blank=True)
    factor = models.FloatField(_("factor"), null=True, blank=True)
    change = models.FloatField(_("change"), null=True, blank=True)  # exact, unrounded
    # The score the stored calculation (pending flag included) was made with; None until the
    # record is evaluated. A record whose score differs (a result corrected, a record inserted)
    # is evaluated anew when its waiting period opens (``ratings.services.period_kept``).
    rated_score = models.FloatField(_("score evaluated"), null=True, blank=True)

    class Meta:
        ordering = ["pool", "played_on", "game"]
        verbose_name = _("rating record")
        verbose_name_plural = _("rating records")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "member", "pool"], name="record_once_per_game_member_pool"
            ),
            models.CheckConstraint(condition=~Q(member=F("opponent")), name="record_no_self_play"),
            models.CheckConstraint(condition=Q(score__in=[0.0, 0.5, 1.0]), name="record_score_valid"),
        ]
        indexes = [
            models.Index(fields=["pool", "period", "member"]),
            models.Index(fields=["pool", "member", "played_on"]),
            # The few pending records (§1.7), counted on the close page and the officer's pages
            # without reading a period's hundreds of thousands of others.
            models.Index(fields=["pool", "period", "member"], condition=Q(pending=True),
                         name="record_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.member} – {self.opponent}: {self.score}"


class PeriodReopening(models.Model):
    period = models.ForeignKey(
        RatingPeriod, verbose_name=_("rating period"), on_delete=models.CASCADE, related_name="reopenings"
    )
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reopened by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reopened_at = models.DateTimeField(_("reopened at"), auto_now_add=True)
    reason = models.TextField(_("reason"))
    carried = models.JSONField(_("carried records kept"), default=list, blank=True, editable=False)

    class Meta:
        ordering = ["period", "reopened_at"]
        verbose_name = _("period reopening")
        verbose_name_plural = _("period reopenings")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="reopening_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.period} ({self.reopened_at:%d.%m.%Y})"


class TournamentRating(models.Model):
    """A pool that rates a tournament. Without any row, the pools of its category rate it."""

    pool = models.ForeignKey(
        RatingPool, verbose_name=_("rating pool"), on_delete=models.CASCADE, related_name="tournament_links"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rating_links"
    )

    class Meta:
        verbose_name = _("rated tournament")
        verbose_name_plural = _("rated tournaments")
        constraints = [
            models.UniqueConstraint(fields=["pool", "tournament"], name="tournament_rated_once_per_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} → {self.pool}"


class FideTakeover(models.Model):
    """A FIDE rating taken over as a member's first national rating (docs/rules.md §1.8).

    Who and when are the list's (published_by, published_at); the row keeps the FIDE rating used,
    because ``Member.fide_rating`` changes with every FIDE list.
    """

    list = models.ForeignKey(
        PublishedList,
        verbose_name=_("published list"),
        on_delete=models.CASCADE,
        related_name="fide_takeovers",
    )
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="+")
    fide_rating = models.PositiveSmallIntegerField(_("FIDE rating"))
    rating = models.FloatField(_("first national rating"))
    converted = models.BooleanField(_("converted"), default=False)

    class Meta:
        ordering = ["list", "-rating", "member"]
        verbose_name = _("FIDE rating taken over")
        verbose_name_plural = _("FIDE ratings taken over")
        constraints = [
            models.UniqueConstraint(fields=["list", "member"], name="fide_takeover_member_once_per_list"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.fide_rating} → {self.rating:g}"


from ratings.live_level import LiveLevel  # noqa: E402, F401  (the live list's levels)
