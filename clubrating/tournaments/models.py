import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubrating.clubs.models import Club, Member


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


# The first day of the Dutch system of 2026.
DUTCH_2026_START = datetime.date(2026, 2, 1)


def pairing_rules_for(start: datetime.date | None) -> str:
    """The edition in force on a tournament's start date."""
    if start is not None and start < DUTCH_2026_START:
        return PairingRules.DUTCH_2017
    return PairingRules.DUTCH_2026


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
