"""The API's JSON shapes (version 1). Fixed formats whatever the site's language: dates in ISO
8601, ratings as integers (a pool whose rules keep decimals, EGF, with its three decimals), points,
tie-breaks and changes as JSON numbers rounded as the pages round them; a field the reader may not
see (``clubrating.clubs.privacy``) is null."""

from __future__ import annotations

import datetime

from pydantic import BaseModel


class Schema(BaseModel):
    """A plain pydantic model: the answers are built from values, not read from model instances,
    so django-ninja's ``Schema`` (which resolves attributes of Django objects on every field,
    several times slower for a tournament's 700 boards) is not needed."""

Rating = int | float  # see the module's docstring


class Error(Schema):
    detail: str


class Club(Schema):
    id: int
    name: str
    short_name: str
    city: str


class Page(Schema):
    count: int
    page: int
    pages: int
    per_page: int


class MemberRow(Schema):
    id: int
    name: str
    club: str | None
    title: str | None
    fide_rating: int | None
    birth_year: int | None
    url: str | None  # the member page, where this reader may open it


class MemberPage(Page):
    results: list[MemberRow]


class Member(Schema):
    id: int
    name: str
    first_name: str
    last_name: str
    title: str
    club: Club | None
    federation: str
    fide_id: int | None
    fide_rating: int | None
    national_id: str
    birth_year: int | None
    url: str


class PoolRating(Schema):
    pool_id: int
    pool: str
    rules: str
    rating: Rating | None  # the published rating; null for a newcomer
    games: int
    live_rating: Rating | None
    live_change: Rating | None  # null unless he played in the open period
    live_games: int
    pending_games: int
    provisional: bool


class HistoryPoint(Schema):
    pool_id: int
    list_id: int
    valid_from: datetime.date
    rating: Rating
    change: Rating | None
    rank: int


class Performance(Schema):
    pool_id: int
    tournament_id: int
    tournament: str
    games: int
    points: float
    unrated_games: int  # games towards a newcomer's first rating, not in games and points yet
    unrated_points: float  # the points of those games
    average_opponent: int | None
    performance: int | None
    change: float | None  # null when no game has a change of its own (a newcomer's first rating)


class MemberRatings(Schema):
    member_id: int
    ratings: list[PoolRating]
    history: list[HistoryPoint]
    performances: list[Performance]


class ListSummary(Schema):
    id: int
    kind: str
    valid_from: datetime.date
    published_at: datetime.datetime
    in_force: bool
    superseded: bool
    withdrawn: bool


class Period(Schema):
    start: datetime.date
    end: datetime.date


class Pool(Schema):
    id: int
    name: str
    category: str
    rules: str
    expectation: str
    start_date: datetime.date
    open_period: Period | None
    list_in_force: int | None
    lists: list[ListSummary]


class ListRow(Schema):
    rank: int | None
    member_id: int
    name: str
    title: str | None
    club: str | None
    birth_year: int | None
    rating: Rating
    change: Rating | None
    games: int
    period_games: int
    markers: str
    class_code: str
    provisional: bool


class RatingList(Page):
    pool_id: int
    list_id: int | None  # null for the live list
    live: bool
    title: str
    valid_from: datetime.date | None
    withdrawn: bool
    results: list[ListRow]


class Tournament(Schema):
    id: int
    name: str
    kind: str
    category: str
    start_date: datetime.date
    end_date: datetime.date | None
    place: str
    rounds: int
    rated: bool
    time_control: str
    organizer: str | None
    player_count: int  # the players registered (of a team competition: none, its teams play)
    team_count: int  # the teams of a team competition (0 for the others)
    finished: bool
    url: str


class TournamentPage(Page):
    results: list[Tournament]


class Player(Schema):
    start_rank: int | None
    member_id: int
    name: str
    title: str | None
    club: str | None
    rating: int | None  # the national rating registered for the tournament
    fide_rating: int | None
    url: str | None


class TournamentDetail(Tournament):
    rounds_paired: int
    rounds_planned: int
    players: list[Player]


class StandingRow(Schema):
    rank: int
    player: Player
    points: float
    tiebreaks: list[float | None]


class Standings(Schema):
    tournament_id: int
    tiebreaks: list[str]
    error: str
    rows: list[StandingRow]


class Side(Schema):
    start_rank: int | None
    # In a team competition a protected profile's player is not identified beside his team (his
    # name would tell his club: ``clubrating.clubs.privacy``): no id, "protected profile" as name.
    member_id: int | None
    name: str
    rating: int | None
    points_before: float


class Board(Schema):
    board: int | None
    white: Side
    black: Side | None  # null for a bye
    result: str  # "1-0", "1/2", "0-1", "+-", "-+", "--"; "" while the game is running
    bye: str  # "full", "half", "zero", "pairing"; "" for a game


class RoundPairings(Schema):
    number: int
    date: datetime.date | None
    boards: list[Board]


class Pairings(Schema):
    tournament_id: int
    rounds: list[RoundPairings]


class CrosstableCell(Schema):
    opponent_rank: int | None
    colour: str  # "w", "b" or ""
    result: str  # "1", "½", "0", "+", "−", "F", "H", "U" or ""


class CrosstableLine(Schema):
    rank: int
    player: Player
    points: float
    tiebreaks: list[float | None]
    cells: list[CrosstableCell]
    progress: list[float | None]  # points after each round


class Crosstable(Schema):
    tournament_id: int
    round_robin: bool
    rounds: list[int]
    tiebreaks: list[str]
    lines: list[CrosstableLine]


class TeamRow(Schema):
    rank: int
    team_id: int
    name: str
    club: str | None
    played: int | None  # finished matches (null where the table does not count them)
    won: int | None
    drawn: int | None
    lost: int | None
    match_points: float
    board_points: float
    # The values of ``TeamStandings.criteria`` by code, rounded as the table shows them; null
    # where a criterion was not applied to the team (the direct encounter outside a tie).
    criteria: dict[str, float | None]


class TeamStandings(Schema):
    tournament_id: int
    division_id: int | None  # the league division the team competition holds, if any
    # The table's order: a league division's season criteria ("MP" match points, "BP" board
    # points, "BW" Berlin scoring, "DE" direct encounter, "W" matches won); another team
    # competition's "MP", "BP", "SB" (team Sonneborn-Berger).
    criteria: list[str]
    rows: list[TeamRow]



class MatchBoard(Schema):
    board: int
    # The players as the lineups name them; null while the lineup is hidden (before its deadline),
    # the board was left empty, or the player's profile is protected (beside his team his name
    # would tell his club: ``clubrating.clubs.privacy``).
    home_member_id: int | None
    home_player: str | None
    away_member_id: int | None
    away_player: str | None
    home_white: bool | None  # the home team's player has White; null until the board's game exists
    # The board's result read from the home team's side, as the match card shows it ("1-0": the
    # home player won, whatever his colour; "+-" won by forfeit; "" not yet played).
    result: str
    home_points: float | None
    away_points: float | None


class TeamMatch(Schema):
    id: int  # the league match's id where the team competition is a league division
    round: int
    starts_at: datetime.datetime | None
    venue: str | None
    home_team_id: int
    home_team: str
    away_team_id: int
    away_team: str
    # A league match's state: "open", "entered", "confirmed", "disputed", "decided"; null elsewhere.
    status: str | None
    home_points: float | None  # the team scores; null until the match counts
    away_points: float | None
    lineups_visible: bool
    boards: list[MatchBoard]


class TeamMatches(Schema):
    tournament_id: int
    division_id: int | None
    matches: list[TeamMatch]


class RoundWithMatches(RoundPairings):
    # A team competition's matches of the round (each with its boards from the home side); null
    # in a tournament of single players.
    matches: list[TeamMatch] | None
