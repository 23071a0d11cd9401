"""Whether a team may line up these players for a match: the roster rules of a team league.

Every rule is checked for every board and each refusal names the rule, the board and the player,
so that a captain can correct the lineup at once:

- the player is on the club's roster for the season, registered on or before the match day;
- teams take consecutive blocks of the roster: a player plays for his own team and higher teams
  (lower numbers), never for a lower one;
- after the season's number of games for a higher team he is fixed there (festgespielt) and may
  no longer play for a lower team than that one;
- nobody plays two matches of one round (of any division of the season);
- the board order follows the roster order.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.leagues.models import LeagueMatch, LeagueSeason, LeagueTeam, MatchStatus, RosterEntry, Side
from clubrating.tournaments.models import PLAYED_RESULTS, Game, LineupEntry, Result


def _appeared(*, result: str, rated_result: str, own_white: bool) -> bool:
    """Whether a player appeared at his board: a game played over the board (also one an official
    scored as a forfeit afterwards) or a forfeit he won; not a forfeit he lost, nor a game still
    waiting for its result."""
    if result == Result.NOT_PLAYED:
        return False
    if result in PLAYED_RESULTS or rated_result in PLAYED_RESULTS:
        return True
    return result == (Result.WHITE_FORFEIT_WIN if own_white else Result.BLACK_FORFEIT_WIN)


def appearances(
    *, season: LeagueSeason, club_id: int, before_round: int, member_ids: set[int]
) -> dict[int, Counter]:
    """{member: Counter({team number: games})}: how often each player appeared for each of the
    club's teams in the rounds before ``before_round`` (docs/rules.md, "Team leagues"): a board
    counts once it was played, or won by forfeit (he was there); not a board he lost by forfeit,
    his team not appearing, nor a lineup of a match that has not been played yet."""
    entries = list(
        LineupEntry.objects.filter(
            team__league_team__season=season,
            team__league_team__club_id=club_id,
            match__round__number__lt=before_round,
            member_id__in=member_ids,
        ).values_list(
            "member_id",
            "match_id",
            "team__league_team__number",
            "team_id",
            "match__home_team_id",
            "match__league__status",
            "match__league__absent",
        )
    )
    games = {}
    for match_id, white, black, result, rated_result in (
        Game.objects.filter(team_match_id__in={entry[1] for entry in entries})
        .filter(Q(white_id__in=member_ids) | Q(black_id__in=member_ids))
        .values_list("team_match_id", "white_id", "black_id", "result", "rated_result")
    ):
        games[(white, match_id)] = _appeared(result=result, rated_result=rated_result, own_white=True)
        games[(black, match_id)] = _appeared(result=result, rated_result=rated_result, own_white=False)
    counts: dict[int, Counter] = defaultdict(Counter)
    for member_id, match_id, number, team_id, home_id, status, absent in entries:
        if (member_id, match_id) in games:
            appeared = games[(member_id, match_id)]
        else:  # the opponent left his board empty: won by forfeit once the result is entered
            side = Side.HOME if team_id == home_id else Side.AWAY
            appeared = status not in (None, MatchStatus.OPEN) and absent != side
        if appeared:
            counts[member_id][number] += 1
    return counts


def fixed_team(counts: Counter, *, own: int, fixing_games: int) -> int | None:
    """The highest team (lowest number) above his own for which a player has played
    ``fixing_games`` times: he is fixed there. None: not fixed."""
    fixed = [number for number, games in counts.items() if number < own and games >= fixing_games]
    return min(fixed) if fixed else None


def _elsewhere(*, match: LeagueMatch, team: LeagueTeam, ids: set[int]) -> dict[int, str]:
    """{member: the team he is lined up for} of ``ids`` in another match of the round."""
    return dict(
        LineupEntry.objects.filter(
            match__round__tournament__division__season=team.season,
            match__round__number=match.match.round.number,
            member_id__in=ids,
        )
        .exclude(match_id=match.match_id, team_id=team.team_id)
        .values_list("member_id", "team__name")
    )


def unavailable(*, match: LeagueMatch, team: LeagueTeam, entries: list[RosterEntry]) -> dict[int, str]:
    """{member: why he cannot play for ``team`` in ``match``} of the roster ``entries``, by the
    same rules as ``lineup_problems`` (the lineup form marks them before it is submitted); a
    player who may play is left out. Three queries."""
    season = team.season
    day = timezone.localdate(match.starts_at)
    ids = {entry.member_id for entry in entries}
    counts = appearances(
        season=season, club_id=team.club_id, before_round=match.match.round.number, member_ids=ids
    )
    elsewhere = _elsewhere(match=match, team=team, ids=ids)
    reasons = {}
    for entry in entries:
        own = entry.team.number
        fixed = fixed_team(counts.get(entry.member_id, Counter()), own=own, fixing_games=season.fixing_games)
        if own < team.number:
            reasons[entry.member_id] = _("plays for team %(own)d") % {"own": own}
        elif fixed is not None and fixed < team.number:
            reasons[entry.member_id] = _("fixed in team %(fixed)d") % {"fixed": fixed}
        elif entry.member_id in elsewhere:
            other = elsewhere[entry.member_id]
            reasons[entry.member_id] = _("plays for %(team)s this round") % {"team": other}
        elif entry.added_on > day:
            reasons[entry.member_id] = _("registered from %(date)s") % {
                "date": date_format(entry.added_on, "SHORT_DATE_FORMAT")
            }
    return reasons


# The ratings of the match day come from the rating pools, which the club apps do not know
# (tests/test_architecture.py): the app that reads them hands its reader in when the project
# starts (``LeaguesConfig.ready``), so that every caller of ``lineup_problems`` has the
# rating-order tolerance checked, whether or not it passes the ratings itself.
RatingsReader = Callable[[LeagueMatch, list[int]], dict[int, int]]
_ratings_reader: RatingsReader | None = None


def ratings_reader_set(reader: RatingsReader | None) -> None:
    """Register the reader of ``{member: national rating on the match day}`` for a match."""
    global _ratings_reader
    _ratings_reader = reader


def lineup_problems(
    *,
    match: LeagueMatch,
    team: LeagueTeam,
    members: list[Member | None],
    ratings: dict[int, int] | None = None,
) -> list[str]:
    """The translated reasons why ``team`` may not line up ``members`` (board 1 first, None an
    empty board) for ``match``; empty when it may. ``ratings`` ({member: rating on the match
    day}) for the season's rating-order tolerance; without them they are read here (the
    registered reader), so that the tolerance is checked for every caller."""
    season = team.season
    rnd = match.match.round
    day = timezone.localdate(match.starts_at)
    seated = [(board, member) for board, member in enumerate(members, start=1) if member is not None]
    ids = {member.pk for _board, member in seated}
    roster = {
        e.member_id: e
        for e in RosterEntry.objects.filter(
            roster__season=season,
            roster__club_id=team.club_id,
            member_id__in=ids,
        ).select_related("team")
    }
    counts = appearances(season=season, club_id=team.club_id, before_round=rnd.number, member_ids=ids)
    elsewhere = _elsewhere(match=match, team=team, ids=ids)
    problems = []
    previous = None  # (board, member, rank) of the board above with a player on the roster
    first_board: dict[int, int] = {}  # member -> the first board he was put on
    for board, member in seated:
        name = member.full_name
        if member.pk in first_board:
            problems.append(
                _("Board %(board)d: %(player)s is lined up on board %(other)d already; a player sits at one "
                  "board.")
                % {"board": board, "player": name, "other": first_board[member.pk]}
            )
            continue
        first_board[member.pk] = board
        entry = roster.get(member.pk)
        if entry is None:
            problems.append(
                _("Board %(board)d: %(player)s is not on the roster of %(club)s.")
                % {"board": board, "player": name, "club": team.club}
            )
            continue
        if entry.added_on > day:
            problems.append(
                _("Board %(board)d: %(player)s is registered only from %(date)s.")
                % {"board": board, "player": name, "date": date_format(entry.added_on, "SHORT_DATE_FORMAT")}
            )
        own = entry.team.number
        if own < team.number:
            problems.append(
                _(
                    "Board %(board)d: %(player)s belongs to team %(own)d and may not play for the lower "
                    "team %(team)d."
                )
                % {"board": board, "player": name, "own": own, "team": team.number}
            )
        else:
            fixed = fixed_team(counts.get(member.pk, Counter()), own=own, fixing_games=season.fixing_games)
            if fixed is not None and fixed < team.number:
                problems.append(
                    _("Board %(board)d: %(player)s is fixed in team %(fixed)d after %(games)d games there.")
                    % {"board": board, "player": name, "fixed": fixed, "games": counts[member.pk][fixed]}
                )
        if member.pk in elsewhere:
            problems.append(
                _("Board %(board)d: %(player)s already plays for %(team)s in this round.")
                % {"board": board, "player": name, "team": elsewhere[member.pk]}
            )
        if previous is not None and entry.rank < previous[2]:
            problems.append(
                _(
                    "Board %(board)d: %(player)s (rank %(rank)d) may not sit below %(other)s (rank "
                    "%(other_rank)d, board %(other_board)d): the board order follows the roster."
                )
                % {
                    "board": board,
                    "player": name,
                    "rank": entry.rank,
                    "other": previous[1].full_name,
                    "other_rank": previous[2],
                    "other_board": previous[0],
                }
            )
        previous = (board, member, entry.rank)
    if ratings is None and season.rating_tolerance is not None and _ratings_reader is not None:
        ratings = _ratings_reader(match, sorted(ids))
    return problems + federation_problems(season=season, seated=seated, ratings=ratings)


def federation_problems(
    *, season: LeagueSeason, seated: list[tuple[int, Member]], ratings: dict[int, int] | None
) -> list[str]:
    """The season's rules from a state federation's regulations (docs/rules.md, "The state
    federations' league rules"): the limit on players of another federation, the youth board and
    the rating-order tolerance; each applies only where the season sets it."""
    problems = []
    if season.foreign_limit is not None:
        foreign = [member for _board, member in seated if member.federation not in ("", "AUT")]
        if len(foreign) > season.foreign_limit:
            problems.append(
                _(
                    "%(count)d players of another federation are lined up (%(players)s); at most "
                    "%(limit)d may play."
                )
                % {
                    "count": len(foreign),
                    "players": ", ".join(member.full_name for member in foreign),
                    "limit": season.foreign_limit,
                }
            )
    if season.youth_board is not None:
        first_year = season.start_date.year - season.youth_max_age
        for board, member in seated:
            if board == season.youth_board and (member.birth_year or 0) < first_year:
                problems.append(
                    _(
                        "Board %(board)d is the youth board: %(player)s is not born in %(year)d or "
                        "later."
                    )
                    % {"board": board, "player": member.full_name, "year": first_year}
                )
    if season.rating_tolerance is not None and ratings:
        for board, member in seated:
            own = ratings.get(member.pk)
            above = [(b, m) for b, m in seated if b < board and ratings.get(m.pk) is not None]
            for other_board, other in above:
                if own is not None and own - ratings[other.pk] > season.rating_tolerance:
                    problems.append(
                        _(
                            "Board %(board)d: %(player)s (%(rating)d) may not sit below %(other)s "
                            "(%(other_rating)d, board %(other_board)d): more than %(tolerance)d "
                            "points lower."
                        )
                        % {
                            "board": board,
                            "player": member.full_name,
                            "rating": own,
                            "other": other.full_name,
                            "other_rating": ratings[other.pk],
                            "other_board": other_board,
                            "tolerance": season.rating_tolerance,
                        }
                    )
                    break
    return problems
