"""The league's public pages: seasons and divisions, the division table with its cross table
(refreshed live while a round is played, as the tournament pages are), the rounds with their
match cards and the forecast from the lineups, the players' board statistics, the match report
(Spielbericht) to print or as PDF, and the table as CSV or XLSX.

Who may read them is the tournaments' rule (``public_tournaments_required``); a lineup is shown
to everyone only once its deadline has passed (``lineup_visible``); members' names follow the
privacy rules in the templates (``member_link``). The pages compose the league selectors with
the ratings' reads: the ratings the games were rated with (Rp) and the lineups' ratings (forecast).
"""

from __future__ import annotations

import datetime

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubrating.accounts.permissions import public_tournaments_required
from clubrating.clubs.selectors import home_club_name
from clubrating.core.db import fetch_rows
from clubrating.core.downloads import attachment, download_name
from clubrating.core.exports import EXPORT_FORMATS, ExportColumn, export_response
from clubrating.core.pdf import print_context, render_pdf_response
from clubrating.interchange.league_trf import division_export_trf
from clubrating.interchange.views import trf_shown
from clubrating.leagues.models import Criterion, Division, LeagueMatch, LeagueTeam, Side
from clubrating.leagues.public import table_rows
from clubrating.leagues.public.match_cards import match_card
from clubrating.leagues.public.player_rows import player_rows
from clubrating.leagues.selectors import (
    division_live_state,
    division_teams,
    division_version,
    kept_for_page,
    league_match_score,
    league_matches,
    lineup_visible,
    page_reads,
    season_of,
)
from clubrating.leagues.selectors_public import (
    DivisionData,
    ScoredMatch,
    division_data,
    division_round,
    division_round_numbers,
    match_result,
    public_seasons,
)
from clubrating.tournaments.selectors.rounds import version_rows
from clubrating.tournaments.views._cache import PageVersion, pools_version
from clubrating.tournaments.views.public import live_check, live_render
from ratings.adapters import pool_rules
from ratings.models import ListEntry, PublishedList
from ratings.rules.forecast import team_forecast_exact
from ratings.rules.rounding import round_half_away
from ratings.selectors import tournament_rating_pool
from ratings.views.calculators import split_forecast


def _division(pk) -> Division:
    """The division with its season and tournament, and the season's divisions (the tabs above
    every page: ``_divisions``), in one query."""
    divisions = list(Division.objects.select_related("season", "tournament").filter(season__divisions=pk))
    division = next((d for d in divisions if d.pk == pk), None)
    if division is None:
        raise Http404
    page_reads(division)
    kept_for_page(division, "divisions", lambda: divisions)
    return division


def _criteria(division: Division) -> list[tuple[str, str]]:
    labels = dict(Criterion.choices)
    return [(code, labels.get(code, code)) for code in division.season.criteria]


def _divisions(division: Division) -> list[Division]:
    """The season's divisions (the tabs above every page), read once per page."""
    return kept_for_page(division, "divisions", lambda: list(division.season.divisions.all()))


def _context(request, division: Division, tab: str, data: DivisionData | None = None, **extra) -> dict:
    context = {
        "division": division,
        "season": division.season,
        "divisions": _divisions(division),
        "tab": tab,
        "criteria": _criteria(division),
        "data": data,
        **extra,
    }
    return context


@public_tournaments_required
def season_list(request):
    return render(request, "leagues/public/seasons.html", {"seasons": public_seasons()})


def _live_check(request, division: Division):
    """The tournament pages' live check, which also sees the matches' states and lineups; live
    while a game waits for its result or a started match for its result or confirmation."""
    state, running = division_live_state(division=division, now=timezone.now())
    live, unchanged = live_check(request, tournament=division.tournament, also=state)
    live["live"] = live["live"] or running
    return live, unchanged


@public_tournaments_required
def division_table(request, pk):
    division = _division(pk)
    live, unchanged = _live_check(request, division)
    if unchanged is not None:
        return unchanged
    version = _version(request, division, "league-table")
    if not request.GET.get("fragment") and (response := version.not_modified()):
        return response
    context = _context(request, division, "table", **live)
    context.update(version.cached("table", lambda: _plain(_table_context(request, division))))
    response = live_render(request, "leagues/public/table.html", "leagues/public/_live_table.html", context)
    return response if request.GET.get("fragment") else version.validated(response)


def _version(request, division: Division, face: str, *parts) -> PageVersion:
    """The version of one of the division's pages for this reader (``PageVersion``): the rows of
    the league and of its tournament (``division_version``) and ``parts``."""
    rows = division_version(division=division, now=timezone.now())
    return PageVersion(request, division.tournament, face, *parts, rows=rows)


def _table_context(request, division: Division) -> dict:
    """The table page's tables: the division's table, its crosstable and the rank after each round."""
    data = division_data(division=division, members=False, rows=version_rows(division.tournament))
    progress_rounds, progress_rows = data.progress()
    return _context(request, division, "table", data=data, progress_rounds=progress_rounds,
                    progress_body=table_rows.progress_body(division, progress_rows),
                    **table_rows.tables(division, data))


def _plain(context: dict) -> dict:
    """What a page's context keeps in the cache: its tables, not the division's data they were
    drawn from (every match, lineup and game of the season)."""
    return {key: value for key, value in context.items()
            if key not in ("data", "division", "season", "divisions")}


def _visible(match: LeagueMatch, user, now) -> dict[str, bool]:
    return {side: lineup_visible(match=match, side=side, user=user, now=now) for side in Side.values}


def _forecast(scored: ScoredMatch, ratings: dict[int, int], rules) -> tuple[float, float] | None:
    """The expected board points (home, away) from the lineups' ratings ({member: rating of the
    match day}), over the boards where both teams have a rated player; None where there is no
    such board."""
    pairs = [
        (ratings[b.home.pk], ratings[b.away.pk])
        for b in scored.score.boards
        if b.home is not None
        and b.away is not None
        and ratings.get(b.home.pk) is not None
        and ratings.get(b.away.pk) is not None
    ]
    if not pairs or rules is None:
        return None
    home = team_forecast_exact(rules, [h for h, _a in pairs], [a for _h, a in pairs])
    return split_forecast(home, len(pairs))


def _cards(request, division: Division, matches: list[ScoredMatch]) -> list[dict]:
    """Each match with what the reader may see of its lineups and, before its result, the
    forecast from the lineups (the national ratings of the pool that rates the division, valid on
    the match day)."""
    now = timezone.now()
    pool = tournament_rating_pool(division.tournament)
    rules = pool_rules(pool) if pool is not None else None
    cards = []
    for scored in matches:
        cards.append(
            {
                "m": scored,
                "visible": _visible(scored.league, request.user, now),
                "rows": [(b, (None, None)) for b in scored.score.boards],
            }
        )
    shown = [c for c in cards if all(c["visible"].values())]
    wanted: dict[datetime.date, set[int]] = {}
    for card in shown:
        members = wanted.setdefault(timezone.localdate(card["m"].league.starts_at), set())
        for b in card["m"].score.boards:
            members.update(member.pk for member in (b.home, b.away) if member is not None)
    ratings = ratings_on(pool, wanted) if pool is not None and wanted else {}
    for card in shown:
        day_ratings = ratings.get(timezone.localdate(card["m"].league.starts_at), {})
        # Each board's ratings (home, away) and each lineup's average over its rated players.
        card["ratings"] = [
            (day_ratings.get(getattr(b.home, "pk", None)), day_ratings.get(getattr(b.away, "pk", None)))
            for b in card["m"].score.boards
        ]
        card["averages"] = tuple(_average([pair[side] for pair in card["ratings"]]) for side in (0, 1))
        card["rows"] = list(zip(card["m"].score.boards, card["ratings"], strict=True))
        if card["m"].result is None:
            card["forecast"] = _forecast(card["m"], day_ratings, rules)
    for card in cards:
        card["html"] = match_card(request, card)
    return cards


def _average(ratings: list[int | None]) -> int | None:
    rated = [rating for rating in ratings if rating is not None]
    return round_half_away(sum(rated) / len(rated)) if rated else None


@public_tournaments_required
def division_rounds(request, pk):
    division = _division(pk)
    live, unchanged = _live_check(request, division)
    if unchanged is not None:
        return unchanged
    if request.GET.get("fragment"):
        return live_render(request, "leagues/public/rounds.html", "leagues/public/_live_rounds.html",
                           _rounds_context(request, division, live))
    # The forecasts use the ratings of the pool that rates the division; whether a match has
    # started (the page is live) follows the clock.
    version = _version(request, division, "league-rounds", live["live"], pools_version(division.tournament))
    if response := version.not_modified():
        return response
    context = _context(request, division, "rounds", **live)
    context["content_html"] = version.content("leagues/public/rounds.html",
                                              lambda: _rounds_context(request, division, live))
    return version.validated(render(request, "leagues/public/rounds.html", context))


def _rounds_context(request, division: Division, live: dict) -> dict:
    """The rounds page's context: the chosen round's match cards (``?round=``; the last round
    with a result, else the first), read alone."""
    numbers, played = division_round_numbers(division=division)
    try:
        chosen = int(request.GET.get("round") or 0)
    except ValueError:
        chosen = 0
    if chosen not in numbers:  # the last round with a result, else the first
        chosen = played[-1] if played else (numbers[0] if numbers else 0)
    rounds = [
        (number, date, _cards(request, division, matches))
        for number, date, matches in division_round(division=division, number=chosen,
                                                    rows=version_rows(division.tournament))
    ]
    return _context(request, division, "rounds", rounds=rounds, chosen=chosen, numbers=numbers, **live)


def ratings_on(pool, wanted: dict[datetime.date, set[int]]) -> dict[datetime.date, dict[int, int]]:
    """{day: {member: national rating}} for ``wanted`` ({day: members}): the ratings of the list
    of ``pool`` in force on that day (rounded as the lists print them); a member the list does not
    name is left out. Two queries, whatever the number of days: the lists that may be in force
    (``in_force`` of the latest day, the one in force first) and their entries of the members."""
    candidates = list(PublishedList.objects.filter(pool=pool).in_force(max(wanted))
                      .values_list("pk", "valid_from"))
    lists = {day: next((pk for pk, valid_from in candidates if valid_from <= day), None) for day in wanted}
    members = set().union(*wanted.values())
    by_list: dict[int, dict[int, int]] = {pk: {} for pk in set(lists.values()) if pk is not None}
    # Unordered: the entries' default order joins their lists and pools to sort by them.
    entries = ListEntry.objects.filter(list_id__in=by_list, member_id__in=members).order_by()
    for plist, member, rating in fetch_rows(entries.values_list("list_id", "member_id", "rating")):
        by_list[plist][member] = round_half_away(rating)
    return {day: by_list.get(lists[day], {}) for day in wanted}


def game_ratings(games: list[tuple[int, int, int, datetime.date]], pools: tuple) -> dict:
    """{game id: (white's, black's rating)} for ``games`` (id, white, black, match day): the
    national rating valid on the match day, from the list in force then of the pool whose ratings
    the division's pages show (rounded as the lists print it): the first of ``pools``, the pools
    that rate the division's tournament as ``pools_version`` gives them (``tournament_rating_pool``)."""
    pool = pools[0][0] if pools else None
    if pool is None:
        return {}
    wanted: dict[datetime.date, set[int]] = {}
    for _game, white, black, day in games:
        wanted.setdefault(day, set()).update((white, black))
    on = ratings_on(pool, wanted)
    return {game: (on[day].get(white), on[day].get(black)) for game, white, black, day in games}


def _players_data(division: Division, pools: tuple, team: LeagueTeam | None = None) -> DivisionData:
    """The division's data with its players' statistics (of ``team`` alone, when given), drawn
    under the version the page has read (``version_rows``) with the ratings of the first of
    ``pools`` (``pools_version``, which the page's version has read)."""
    return division_data(
        division=division, ratings=lambda game_ids: game_ratings(game_ids, pools), players=True,
        rows=version_rows(division.tournament), team=team,
    )


@public_tournaments_required
def division_players(request, pk):
    division = _division(pk)
    # The players' performances use the ratings of the lists in force on the match days.
    pools = pools_version(division.tournament)
    version = _version(request, division, "league-players", pools)
    if response := version.not_modified():
        return response

    def build() -> dict:
        data = _players_data(division, pools)
        team_order = {row.team: index for index, row in enumerate(data.table)}
        lines = sorted(data.players, key=lambda line: (team_order[line.team], line.main_board, -line.games))
        boards = list(range(1, division.boards + 1))
        return _context(request, division, "players", rows=player_rows(request, lines, boards),
                        boards=boards, best=sorted(data.best.items()))

    context = _context(request, division, "players")
    context["content_html"] = version.content("leagues/public/players.html", build)
    return version.validated(render(request, "leagues/public/players.html", context))


@public_tournaments_required
def division_team(request, pk, team_pk):
    """A team's page: its place, its results round by round (score from its own side) and its
    players (boards, points, Rp with the rated games it rests on)."""
    division = _division(pk)
    shown = get_object_or_404(LeagueTeam.objects.select_related("team"), division=division, pk=team_pk)
    # Its players' performances use the ratings of the lists in force on the match days.
    pools = pools_version(division.tournament)
    version = _version(request, division, "league-team", team_pk, pools)
    if response := version.not_modified():
        return response
    context = _context(request, division, "table", team=shown)
    context["content_html"] = version.content("leagues/public/team.html",
                                              lambda: _team_context(request, division, team_pk, pools))
    return version.validated(render(request, "leagues/public/team.html", context))


def _team_context(request, division: Division, team_pk: int, pools: tuple) -> dict:
    team = next(t for t in division_teams(division=division) if t.pk == team_pk)
    data = _players_data(division, pools, team)
    row = next(row for row in data.table if row.team == team)
    results = []
    for number, _date, matches in data.rounds:
        for m in matches:
            if team in (m.home, m.away):
                home = m.home == team
                own, other = (m.home_points, m.away_points) if home else (m.away_points, m.home_points)
                results.append(
                    {"number": number, "m": m, "home": home, "opponent": m.away if home else m.home,
                     "own": own, "other": other}
                )
    lines = sorted(
        (line for line in data.players if line.team == team), key=lambda line: (line.main_board, -line.games)
    )
    return _context(request, division, "table", data=data, team=team, row=row, results=results, lines=lines)


def _public_match(pk) -> LeagueMatch:
    try:
        return league_matches().get(pk=pk)
    except LeagueMatch.DoesNotExist as missing:
        raise Http404 from missing


def _report_context(request, match: LeagueMatch) -> dict:
    division = match.match.round.tournament.division
    home, away = match.match.home_team.league_team, match.match.away_team.league_team
    score = league_match_score(match)
    scored = ScoredMatch(match, score, match_result(match, score, home, away), home, away)
    (card,) = _cards(request, division, [scored])
    return {"division": division, "season": season_of(match), "match": match, "card": card, "m": scored}


@public_tournaments_required
def public_match(request, pk):
    context = _report_context(request, _public_match(pk))
    return render(request, "leagues/public/match.html", context)


@public_tournaments_required
def match_report(request, pk):
    """The match report (Spielbericht): both lineups, the board results, the final score and
    lines for the captains' and the arbiter's signatures; to print or as PDF."""
    match = _public_match(pk)
    context = _report_context(request, match)
    division = context["division"]
    title = _("Match report")
    teams = f"{match.match.home_team} – {match.match.away_team}"
    context.update(
        print_context(
            club_name=home_club_name(),
            title=f"{title}: {teams}",
            lines=[
                division.season.name,
                division.name,
                _("Round %(number)d") % {"number": match.match.round.number},
                timezone.localtime(match.starts_at).strftime("%d.%m.%Y %H:%M"),
            ],
            back_url=reverse("leagues:public_match", args=[match.pk]),
            pdf_url=reverse("leagues:match_report", args=[match.pk]) + "?pdf=1",
        )
    )
    template = "leagues/public/print_report.html"
    if request.GET.get("pdf"):
        return render_pdf_response(
            request, template, context, download_name(division.season.name, title, teams, extension="pdf")
        )
    return render(request, template, context)


@public_tournaments_required
def division_print(request, pk):
    """The table and the cross table to print or as PDF."""
    division = _division(pk)
    data = division_data(division=division, members=False)
    title = _("Standings")
    context = _context(request, division, "table", data=data, **table_rows.tables(division, data))
    context.update(
        print_context(
            club_name=home_club_name(),
            title=f"{division.season.name} – {division.name}: {title}",
            lines=[
                _("Criteria: %(criteria)s")
                % {"criteria": ", ".join(str(label) for _code, label in context["criteria"])}
            ],
            back_url=reverse("leagues:division", args=[division.pk]),
            pdf_url=reverse("leagues:division_print", args=[division.pk]) + "?pdf=1",
        )
    )
    context["print_qr_url"] = request.build_absolute_uri(reverse("leagues:division", args=[division.pk]))
    template = "leagues/public/print_table.html"
    if request.GET.get("pdf"):
        return render_pdf_response(
            request,
            template,
            context,
            download_name(division.season.name, division.name, title, extension="pdf"),
        )
    return render(request, template, context)


def table_columns(division: Division) -> list[ExportColumn]:
    """The table's export columns: rank, team, club, matches, the match record and every
    criterion of the season."""
    columns = [
        ExportColumn(_("Rank"), lambda r: r.rank, numeric=True),
        ExportColumn(_("Team"), lambda r: r.team.name),
        ExportColumn(_("Club"), lambda r: r.team.club.name),
        ExportColumn(_("Matches"), lambda r: r.played, numeric=True),
        ExportColumn(_("Won"), lambda r: r.won, numeric=True),
        ExportColumn(_("Drawn"), lambda r: r.drawn, numeric=True),
        ExportColumn(_("Lost"), lambda r: r.lost, numeric=True),
    ]
    decimals = {"MP": None, "W": None, "DE": None, "BP": 1, "BW": 1}
    for code, label in _criteria(division):
        columns.append(
            ExportColumn(
                capfirst(str(label)),
                lambda r, code=code: r.criteria.get(code),
                numeric=True,
                decimals=decimals.get(code),
            )
        )
    return columns


@public_tournaments_required
def division_export(request, pk, fmt):
    division = _division(pk)
    if fmt not in EXPORT_FORMATS:
        raise Http404
    data = division_data(division=division, members=False)
    return export_response(
        fmt,
        name=[division.season.name, division.name, _("Standings")],
        sheet=_("Standings"),
        columns=table_columns(division),
        rows=data.table,
    )


@public_tournaments_required
@require_GET
def division_trf(request, pk):
    """The division as a TRF-2026 file with its team records, for the FIDE rating submission."""
    division = _division(pk)
    text = division_export_trf(division=division, shown=trf_shown(request.user))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = attachment(
        download_name(division.season.name, division.name, extension="trf")
    )
    return response
