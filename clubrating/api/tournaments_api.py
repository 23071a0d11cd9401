"""Tournaments: the list, the starting list, standings, pairings and results per round and the
crosstable, from the very functions their pages render (``clubrating.tournaments.selectors`` and
the pages' adapters of them)."""

from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import Count
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema

from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs.privacy import WITHHELD_NAME
from clubrating.leagues.models import Division
from clubrating.leagues.selectors import board_reading, division_of, lineup_visible
from clubrating.leagues.selectors_public import division_data
from clubrating.tournaments import selectors
from clubrating.tournaments.models import Round, Team, Tournament, TournamentKind, TournamentPlayer
from clubrating.tournaments.tiebreaks import decimals_for
from clubrating.tournaments.views._standings import standings as page_standings
from clubrating.tournaments.views._tables import ranked_crosstable
from clubrating.tournaments.views.public import rounds_with_pairings
from ratings.rules.rounding import round_half_away

from . import schemas
from .responses import documented, json_response, refuse, require_tournaments

router = Router(tags=["tournaments"])

TOURNAMENTS_PER_PAGE = 50  # as the tournament list


def tournament_schema(tournament: Tournament, cls=schemas.Tournament, **extra):
    return cls(
        id=tournament.pk, name=tournament.name, kind=tournament.kind, category=tournament.category,
        start_date=tournament.start_date, end_date=tournament.end_date, place=tournament.place,
        rounds=tournament.rounds_count, rated=tournament.rated, time_control=tournament.time_control,
        organizer=tournament.organizer_club.name if tournament.organizer_club else None,
        player_count=tournament.player_count, team_count=tournament.team_count, finished=tournament.finished,
        url=tournament.get_absolute_url(), **extra,
    )


def player_schema(player, viewer) -> schemas.Player:
    """A participant as the tournament pages show him; club and title only where this reader may
    see them (a restricted profile: the name and the ratings)."""
    member = player.member
    return schemas.Player(
        start_rank=player.start_rank, member_id=member.pk, name=member.full_name,
        title=(member.fide_title or None) if viewer.shows(member, "title") else None,
        club=(member.club.name if member.club else None) if viewer.shows(member, "club") else None,
        rating=player.rating, fide_rating=player.fide_rating,
        url=member.get_absolute_url() if viewer.links(member) else None,
    )


def tiebreak_values(values, codes) -> list[float | None]:
    """Tie-breaks rounded as the standings show them (``tiebreak_cells``: the code's decimals)."""
    return [None if value is None else round_half_away(value, decimals_for(str(code)))
            for value, code in zip(values, codes)]


def _counts(model, ids: list[int]) -> dict[int, int]:
    return dict(model.objects.filter(tournament_id__in=ids).values("tournament_id")
                .annotate(n=Count("pk")).values_list("tournament_id", "n"))


def _with_state(tournaments: list[Tournament]) -> list[Tournament]:
    """The tournaments with their numbers of players and teams (a team competition counts its
    teams) and whether they are finished (``selectors.finished_q``), as the tournament list shows
    them: three queries for the lot (grouping the tournaments by their players would evaluate
    the finished state per player)."""
    ids = [t.pk for t in tournaments]
    players, teams = _counts(TournamentPlayer, ids), _counts(Team, ids)
    finished = set(Tournament.objects.filter(selectors.finished_q(), pk__in=ids).values_list("pk", flat=True))
    for tournament in tournaments:
        tournament.player_count = players.get(tournament.pk, 0)
        tournament.team_count = teams.get(tournament.pk, 0)
        tournament.finished = tournament.pk in finished
    return tournaments


def _tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    require_tournaments(request)
    return get_object_or_404(Tournament, pk=tournament_id)


class TournamentQuery(Schema):
    page: int = 1


@router.get("/tournaments", response=schemas.TournamentPage, summary="Tournaments",
            openapi_extra=documented(304, 403, 404, 422, 429))
def tournaments(request: HttpRequest, query: Query[TournamentQuery]):
    require_tournaments(request)
    order = ("-start_date", "name", "pk")
    # Counted without the state (which reads the games): only the page's rows get it.
    paginator = Paginator(Tournament.objects.order_by(*order).only("pk"), TOURNAMENTS_PER_PAGE)
    try:
        page = paginator.page(query.page)
    except (EmptyPage, PageNotAnInteger):
        refuse(_("There is no such page of this list."), 404)
    rows = _with_state(list(Tournament.objects.select_related("organizer_club")
                            .filter(pk__in=[t.pk for t in page.object_list]).order_by(*order)))
    return json_response(request, schemas.TournamentPage(
        count=paginator.count, page=page.number, pages=paginator.num_pages, per_page=TOURNAMENTS_PER_PAGE,
        results=[tournament_schema(t) for t in rows],
    ))


@router.get("/tournaments/{tournament_id}", response=schemas.TournamentDetail,
            summary="A tournament and its starting list",
            openapi_extra=documented(304, 403, 404, 422, 429))
def tournament(request: HttpRequest, tournament_id: int):
    require_tournaments(request)
    tournament = get_object_or_404(Tournament.objects.select_related("organizer_club"), pk=tournament_id)
    viewer = viewer_of(request)
    players = list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))
    _with_state([tournament])
    return json_response(request, tournament_schema(
        tournament, schemas.TournamentDetail,
        rounds_paired=selectors.last_paired_round_number(tournament=tournament),
        rounds_planned=selectors.rounds_planned(tournament),
        players=[player_schema(p, viewer) for p in players],
    ))


@router.get("/tournaments/{tournament_id}/standings", response=schemas.Standings, summary="Standings",
            openapi_extra=documented(304, 403, 404, 422, 429))
def standings(request: HttpRequest, tournament_id: int):
    """Rank, points and the tournament's tie-breaks; an unusable tie-break list gives points only
    and the page's message in ``error``."""
    tournament = _tournament(request, tournament_id)
    viewer = viewer_of(request)
    codes, rows, error = page_standings(tournament)
    return json_response(request, schemas.Standings(
        tournament_id=tournament.pk, tiebreaks=codes, error=error,
        rows=[schemas.StandingRow(rank=row.rank, player=player_schema(row.player, viewer), points=row.points,
                                  tiebreaks=tiebreak_values(row.tiebreaks, codes)) for row in rows],
    ))


def _side(side, named: bool) -> schemas.Side:
    """A board's player; ``named``: not withheld (a team competition's board beside his team)."""
    return schemas.Side(start_rank=side.start_rank, member_id=side.member.pk if named else None,
                        name=side.member.full_name if named else str(WITHHELD_NAME),
                        rating=side.rating, points_before=side.points)


def _round(rnd, viewer, team: bool) -> schemas.RoundPairings:
    """A round's boards; in a team competition a player stands beside his team, so his name only
    where this reader may read it there (``Viewer.names_in_team``)."""
    def side(player):
        return _side(player, not team or viewer.names_in_team(player.member))

    return schemas.RoundPairings(number=rnd.number, date=rnd.date, boards=[
        schemas.Board(board=row.board, white=side(row.white), black=side(row.black) if row.black else None,
                      result=row.game.result if row.game else "", bye=row.bye.kind if row.bye else "")
        for row in rnd.rows
    ])


@router.get("/tournaments/{tournament_id}/pairings", response=schemas.Pairings,
            summary="Pairings and results of every round",
            openapi_extra=documented(304, 403, 404, 422, 429))
def pairings(request: HttpRequest, tournament_id: int):
    tournament = _tournament(request, tournament_id)
    return json_response(request, schemas.Pairings(
        tournament_id=tournament.pk,
        rounds=[_round(rnd, viewer_of(request), tournament.kind == TournamentKind.TEAM)
                for rnd in rounds_with_pairings(tournament)]))


@router.get("/tournaments/{tournament_id}/rounds/{number}", response=schemas.RoundWithMatches,
            summary="Pairings and results of one round",
            openapi_extra=documented(304, 403, 404, 422, 429))
def round_pairings(request: HttpRequest, tournament_id: int, number: int):
    """A round's boards; in a team competition also its matches (teams, team scores from the
    home side and their boards), as ``/matches`` gives them."""
    tournament = _tournament(request, tournament_id)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    pairings = _round(rounds_with_pairings(tournament, pk=rnd.pk)[0], viewer_of(request),
                      tournament.kind == TournamentKind.TEAM)
    matches = None
    if tournament.kind == TournamentKind.TEAM:
        _division, matches = _team_match_list(request, tournament, number=number)
    return json_response(request, schemas.RoundWithMatches(
        number=pairings.number, date=pairings.date, boards=pairings.boards, matches=matches))


@router.get("/tournaments/{tournament_id}/crosstable", response=schemas.Crosstable, summary="Crosstable",
            openapi_extra=documented(304, 403, 404, 422, 429))
def crosstable(request: HttpRequest, tournament_id: int):
    """In rank order: a Swiss names each round's opponent by rank, a round robin has one cell per
    rank; the points after each round (the progress table)."""
    tournament = _tournament(request, tournament_id)
    viewer = viewer_of(request)
    round_robin = tournament.kind == TournamentKind.ROUND_ROBIN
    table = ranked_crosstable(tournament, round_robin=round_robin, club_of=viewer.club)
    return json_response(request, schemas.Crosstable(
        tournament_id=tournament.pk, round_robin=round_robin, rounds=table.rounds, tiebreaks=table.codes,
        lines=[schemas.CrosstableLine(
            rank=line.rank, player=player_schema(line.player, viewer), points=line.points,
            tiebreaks=tiebreak_values(line.tiebreaks, table.codes),
            cells=[schemas.CrosstableCell(opponent_rank=cell.opponent, colour=cell.colour,
                                          result=cell.text if round_robin else cell.code)
                  for cell in line.cells],
            progress=line.progress,
        ) for line in table.lines],
    ))


def _team_rows_league(division) -> list[schemas.TeamRow]:
    """A league division's table, as its page shows it (the season's criteria)."""
    rows = []
    for row in division_data(division=division).table:
        team = row.team
        rows.append(schemas.TeamRow(
            rank=row.rank, team_id=team.team_id, name=team.team.name, club=team.club.name,
            played=row.played, won=row.won, drawn=row.drawn, lost=row.lost,
            match_points=round_half_away(row.match_points, 1),
            board_points=round_half_away(row.board_points, 1),
            criteria={code: None if value is None else round_half_away(value, 1)
                      for code, value in row.criteria.items()},
        ))
    return rows


def _team_rows(tournament: Tournament, codes: list[str]) -> list[schemas.TeamRow]:
    """Another team competition's table, as its page shows it: match points, then the
    tournament's own team tie-breaks in its order (it counts no matches won, drawn or lost)."""
    def value(number):
        return None if number is None else round_half_away(number, 2)

    return [schemas.TeamRow(
        rank=row.rank, team_id=row.team.pk, name=row.team.name,
        club=row.team.club.name if row.team.club_id else None,
        played=None, won=None, drawn=None, lost=None,
        match_points=row.match_points, board_points=round_half_away(row.board_points, 1),
        criteria={"MP": row.match_points,
                  **{code: value(number) for code, number in zip(codes, row.tiebreaks)}},
    ) for row in selectors.team_standings(tournament=tournament)]


@router.get("/tournaments/{tournament_id}/teams", response=schemas.TeamStandings, summary="Team standings",
            openapi_extra=documented(304, 403, 404, 422, 429))
def team_standings(request: HttpRequest, tournament_id: int):
    """A team competition's table: a league division's by its season's criteria (the league's
    table page), another's by match points and its own team tie-breaks (the team standings page)."""
    tournament = _tournament(request, tournament_id)
    if tournament.kind != TournamentKind.TEAM:
        refuse(_("This tournament is not a team competition."), 404)
    division = division_of(tournament_id=tournament.pk)
    if division is not None:
        criteria, rows = list(division.season.criteria), _team_rows_league(division)
    else:
        codes = selectors.team_tiebreak_codes(tournament=tournament)
        criteria, rows = ["MP", *codes], _team_rows(tournament, codes)
    return json_response(request, schemas.TeamStandings(
        tournament_id=tournament.pk, division_id=division.pk if division else None, criteria=criteria,
        rows=rows))



def _match_boards(score, visible: dict[str, bool], viewer) -> list[schemas.MatchBoard]:
    """A match's boards; a player whose name beside his team this reader may not read
    (``Viewer.team_name``) is neither named nor identified."""
    shown = visible["home"] and visible["away"]  # colours only once both lineups are seen

    def named(member, side):
        return member if member is not None and visible[side] and viewer.names_in_team(member) else None

    return [schemas.MatchBoard(
        board=b.board,
        home_member_id=getattr(named(b.home, "home"), "pk", None),
        home_player=getattr(named(b.home, "home"), "full_name", None),
        away_member_id=getattr(named(b.away, "away"), "pk", None),
        away_player=getattr(named(b.away, "away"), "full_name", None),
        home_white=b.home_white if shown else None,
        result=board_reading(b) if shown else "",
        home_points=b.points[0] if b.points and shown else None,
        away_points=b.points[1] if b.points and shown else None,
    ) for b in score.boards]


@router.get("/tournaments/{tournament_id}/matches", response=schemas.TeamMatches, summary="Team matches")
def team_matches(request: HttpRequest, tournament_id: int):
    """A team competition's matches round by round: teams, start, venue, state, team scores and
    every board from the home team's side. A league match's lineups only after their deadline
    (as its match card), its scores once its result is entered."""
    tournament = _tournament(request, tournament_id)
    if tournament.kind != TournamentKind.TEAM:
        refuse(_("This tournament is not a team competition."), 404)
    division, matches = _team_match_list(request, tournament)
    return json_response(request, schemas.TeamMatches(
        tournament_id=tournament.pk, division_id=division.pk if division else None, matches=matches))


def _team_match_list(request: HttpRequest, tournament: Tournament, *, number: int | None = None):
    """(the league division or None, the team competition's matches, of round ``number`` or of
    every round), as ``/matches`` gives them."""
    division = Division.objects.filter(tournament=tournament).select_related("season", "tournament").first()
    matches, viewer = [], viewer_of(request)
    if division is not None:
        now = timezone.now()
        for round_number, _date, scored_matches in division_data(division=division).rounds:
            if number is not None and round_number != number:
                continue
            for m in scored_matches:
                league = m.league
                visible = {side: lineup_visible(match=league, side=side, user=request.user, now=now)
                           for side in ("home", "away")}
                matches.append(schemas.TeamMatch(
                    id=league.pk, round=round_number, starts_at=league.starts_at, venue=league.venue or None,
                    home_team_id=m.home.team_id, home_team=m.home.name,
                    away_team_id=m.away.team_id, away_team=m.away.name, status=league.status,
                    home_points=m.home_points, away_points=m.away_points,
                    lineups_visible=all(visible.values()), boards=_match_boards(m.score, visible, viewer),
                ))
    else:
        for rnd, scores in selectors.team_match_rounds(tournament=tournament):
            if number is not None and rnd.number != number:
                continue
            for score in scores:
                tm = score.match
                matches.append(schemas.TeamMatch(
                    id=tm.pk, round=rnd.number, starts_at=None, venue=None,
                    home_team_id=tm.home_team_id, home_team=tm.home_team.name,
                    away_team_id=tm.away_team_id, away_team=tm.away_team.name, status=None,
                    home_points=score.home_points if score.scored else None,
                    away_points=score.away_points if score.scored else None,
                    lineups_visible=True, boards=_match_boards(score, {"home": True, "away": True}, viewer),
                ))
    return division, matches
