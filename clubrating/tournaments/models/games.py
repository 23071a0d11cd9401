"""Games and their results, team matches and lineups, byes and the history of results."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Member
from clubrating.tournaments.models.tournament import Round, Team


class Result(models.TextChoices):
    """A game's result. Forfeits are scored but never rated (docs/rules.md §1.5)."""

    WHITE_WINS = "1-0", "1-0"
    DRAW = "1/2", "½-½"
    BLACK_WINS = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "+-", "+/−"
    BLACK_FORFEIT_WIN = "-+", "−/+"
    DOUBLE_FORFEIT = "--", "−/−"
    NOT_PLAYED = "", _("not yet played")


PLAYED_RESULTS = {Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS}
FORFEIT_RESULTS = {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}

# Points (white, black) for the standings.
RESULT_POINTS: dict[str, tuple[float, float]] = {
    Result.WHITE_WINS: (1.0, 0.0),
    Result.DRAW: (0.5, 0.5),
    Result.BLACK_WINS: (0.0, 1.0),
    Result.WHITE_FORFEIT_WIN: (1.0, 0.0),
    Result.BLACK_FORFEIT_WIN: (0.0, 1.0),
    Result.DOUBLE_FORFEIT: (0.0, 0.0),
}
# A result as each side sees it, (white's, black's): the one table of result symbols, read by the
# crosstables, the progress and match tables, and (with "=" for ½, "-" for −) the TRF export.
RESULT_SYMBOLS: dict[str, tuple[str, str]] = {
    Result.WHITE_WINS: ("1", "0"),
    Result.DRAW: ("½", "½"),
    Result.BLACK_WINS: ("0", "1"),
    Result.WHITE_FORFEIT_WIN: ("+", "−"),
    Result.BLACK_FORFEIT_WIN: ("−", "+"),
    Result.DOUBLE_FORFEIT: ("−", "−"),
    Result.NOT_PLAYED: ("", ""),
}
# White's score in a rated game: only results played over the board are rated.
WHITE_SCORE: dict[str, float] = {result: RESULT_POINTS[result][0] for result in PLAYED_RESULTS}


class TeamMatch(models.Model):
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="team_matches"
    )
    home_team = models.ForeignKey(
        Team, verbose_name=_("home team"), on_delete=models.PROTECT, related_name="home_matches"
    )
    away_team = models.ForeignKey(
        Team, verbose_name=_("away team"), on_delete=models.PROTECT, related_name="away_matches"
    )
    boards = models.PositiveSmallIntegerField(_("boards"), default=4)
    number = models.PositiveSmallIntegerField(_("match number"), default=1)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.CheckConstraint(condition=~Q(home_team=F("away_team")), name="team_match_distinct_teams"),
            models.UniqueConstraint(fields=["round", "number"], name="team_match_unique_number"),
            models.UniqueConstraint(fields=["round", "home_team"], name="team_match_home_once"),
            models.UniqueConstraint(fields=["round", "away_team"], name="team_match_away_once"),
        ]

    def __str__(self) -> str:
        return f"{self.home_team} – {self.away_team}"


class LineupEntry(models.Model):
    """Which member a team sends to which board of a match."""

    match = models.ForeignKey(
        TeamMatch, verbose_name=_("team match"), on_delete=models.CASCADE, related_name="lineup"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE)
    board = models.PositiveSmallIntegerField(_("board"))
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.PROTECT)

    class Meta:
        ordering = ["match", "team", "board"]
        verbose_name = _("lineup entry")
        verbose_name_plural = _("lineup entries")
        constraints = [
            models.UniqueConstraint(fields=["match", "team", "board"], name="lineup_unique_board"),
            models.UniqueConstraint(fields=["match", "member"], name="lineup_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.board}: {self.member}"


class GameQuerySet(models.QuerySet):
    def rateable(self) -> "GameQuerySet":
        """Games with a result played over the board and not marked unrated (``Game.is_rateable``)."""
        return self.filter(rated=True, rated_result__in=PLAYED_RESULTS)

    def with_played_on(self) -> "GameQuerySet":
        """Annotate ``day``: the date the game counts on (``Game.played_on``) for ``values_list``."""
        return self.annotate(day=PLAYED_ON)


# The game's own date, else its round's, else the tournament's start (Game.played_on in SQL).
PLAYED_ON = Coalesce("date", "round__date", "round__tournament__start_date")


class Game(models.Model):
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(
        Member, verbose_name=_("white"), on_delete=models.PROTECT, related_name="games_as_white"
    )
    black = models.ForeignKey(
        Member, verbose_name=_("black"), on_delete=models.PROTECT, related_name="games_as_black"
    )
    # The scored result counts for the standings; the rated result for the ratings. They are
    # equal unless an official separates them (a played game scored as a forfeit, docs/rules.md §1.5).
    result = models.CharField(
        _("result"), max_length=3, choices=Result.choices, blank=True, default=Result.NOT_PLAYED
    )
    rated_result = models.CharField(
        _("rated result"),
        max_length=3,
        choices=Result.choices,
        blank=True,
        default=Result.NOT_PLAYED,
    )
    # False for games that must not be rated although played (TRF W/D/L, fewer than one move).
    rated = models.BooleanField(_("rated"), default=True)
    # False when the file a game came from gave no colours (TRF16 "153 - -", a forfeit in old
    # files): white and black then only name the two sides, and an export writes no colour again.
    # A game paired in the app always has the colours of its pairing.
    has_colours = models.BooleanField(_("colours known"), default=True)
    date = models.DateField(_("date"), null=True, blank=True)
    team_match = models.ForeignKey(
        TeamMatch,
        verbose_name=_("team match"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    moves = models.TextField(_("moves (PGN)"), blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round", "board"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_no_self_play"),
            models.UniqueConstraint(fields=["round", "board"], name="game_unique_board_per_round"),
            models.UniqueConstraint(fields=["round", "white"], name="game_white_once_per_round"),
            models.UniqueConstraint(fields=["round", "black"], name="game_black_once_per_round"),
            models.CheckConstraint(condition=Q(board__gte=1), name="game_board_positive"),
            models.CheckConstraint(
                condition=Q(result__in=[c.value for c in Result]), name="game_result_valid"
            ),
            models.CheckConstraint(
                condition=Q(rated_result__in=[c.value for c in Result]),
                name="game_rated_result_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["white"]), models.Index(fields=["black"]),
            # The games still without result, a few among a federation's hundreds of thousands:
            # whether a tournament is finished (``selectors.finished_q``, the start page) reads them.
            models.Index(fields=["round"], condition=Q(result=""), name="game_unplayed"),
        ]

    def __str__(self) -> str:
        return f"{self.white} – {self.black} {self.get_result_display()}"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:game", args=[self.pk])

    @property
    def played_on(self):
        """The date the game counts on for the ratings (in SQL: ``PLAYED_ON``)."""
        return self.date or self.round.date or self.round.tournament.start_date

    @property
    def is_rateable(self) -> bool:
        return self.rated and self.rated_result in PLAYED_RESULTS


class ByeKind(models.TextChoices):
    FULL = "full", _("full-point bye")
    HALF = "half", _("half-point bye")
    ZERO = "zero", _("zero-point bye")
    PAIRING = "pairing", _("pairing-allocated bye")


BYE_POINTS = {ByeKind.FULL: 1.0, ByeKind.HALF: 0.5, ByeKind.ZERO: 0.0, ByeKind.PAIRING: 1.0}
# The byes' symbols, as TRF16 writes them (crosstables too).
BYE_SYMBOLS = {ByeKind.FULL: "F", ByeKind.HALF: "H", ByeKind.ZERO: "Z", ByeKind.PAIRING: "U"}


class Bye(models.Model):
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="byes")
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="byes"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=ByeKind.choices)

    class Meta:
        ordering = ["round", "member"]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "member"], name="bye_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.get_kind_display()}"

    @property
    def points(self) -> float:
        return BYE_POINTS[self.kind]


class ResultChange(models.Model):
    """History of every change of a game's result (who, when, old, new)."""

    game = models.ForeignKey(Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="history")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    old_result = models.CharField(_("old result"), max_length=3, choices=Result.choices, blank=True)
    new_result = models.CharField(_("new result"), max_length=3, choices=Result.choices, blank=True)
    old_rated_result = models.CharField(
        _("old rated result"), max_length=3, choices=Result.choices, blank=True
    )
    new_rated_result = models.CharField(
        _("new rated result"), max_length=3, choices=Result.choices, blank=True
    )
    # Why an entered result was changed (optional; asked for when a result is overwritten).
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["game", "changed_at", "pk"]
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")

    def __str__(self) -> str:
        return f"{self.game}: {self.old_result or '—'} → {self.new_result or '—'}"
