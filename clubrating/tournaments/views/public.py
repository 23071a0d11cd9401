"""Pages every visitor may read if the home club makes tournaments public."""

import hashlib

from django.db.models import F, Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from clubrating.accounts.permissions import is_official, public_tournaments_required
from clubrating.accounts.templatetags.privacy import member_link, viewer_of
from clubrating.core.empty import empty_list_html
from clubrating.leagues.selectors import hidden_games
from ratings.selectors import (
    game_rating_changes,
    tournament_evaluation_summary,
)
from ratings.selectors import tournament_evaluation as rating_evaluation

from .. import selectors
from ..forms import CorrectionForm, RoundDateForm
from ..models import Bye, Game, Result, Round, Tournament, TournamentKind
from ..selectors.rounds import version_rows
from ..tables import TournamentTable
from . import _evaluation_html, _pairings, _pairings_html, _standings, _tables
from ._cache import PageVersion, pools_version, rating_pools
from ._league import league_division, league_pages
from ._texts import Texts


def games_queryset():
    return Game.objects.select_related("white", "black").order_by("board")


def rounds_with_pairings(tournament: Tournament, **filters):
    """Rounds with their games and byes prefetched, each with its chess-results rows (``rows``).
    A league division's games whose lineups are not public yet are left out (``hidden_games``)."""
    hidden = (hidden_games(tournament_id=tournament.pk, now=timezone.now())
              if tournament.kind == TournamentKind.TEAM else set())
    rounds = list(tournament.rounds.filter(**filters).prefetch_related(
        # The players come with the tournament's players (``pairing_rows``): joining the members
        # to a round's games leads PostgreSQL to read all members of a big federation.
        Prefetch("games", queryset=Game.objects.exclude(pk__in=hidden).order_by("board")),
        Prefetch("byes", queryset=Bye.objects.select_related("member").order_by("kind", "member__last_name")),
    ))
    rows = _pairings.pairing_rows(tournament, rounds)
    for rnd in rounds:
        rnd.rows = rows[rnd.pk]
    return rounds


def national_label(tournament: Tournament) -> str:
    """The heading of the national rating column: the name of the pool that rates the tournament
    (its registered ratings are that pool's); FIDE has a column of its own."""
    pools = rating_pools(tournament)
    return pools[0][1] if pools else gettext("National")


def tournament_context(request, tournament: Tournament, tab: str, **extra) -> dict:
    """What the tournament's tab bar needs on every page, and the rating columns' heading. A
    league division's tournament offers officials none of its own actions: the league's pages
    change it (``_league``)."""
    division = league_division(tournament.pk) if tournament.kind == TournamentKind.TEAM else None
    return {
        "tournament": tournament, "tab": tab, "official": is_official(request.user) and division is None,
        "league_division": division,
        "national_label": national_label(tournament),
        "round_numbers": _round_numbers(tournament),
        "is_round_robin": tournament.kind == TournamentKind.ROUND_ROBIN,
        **extra,
    }


def _round_numbers(tournament: Tournament) -> list[int]:
    """The tournament's round numbers in order: from the rows its version was read from when the
    page read them already (``selectors.rounds.version_rows``), else one query."""
    rows = getattr(tournament, "_version_rows", None)
    if rows is not None:
        return sorted(number for _pk, number, _date in rows["rounds"])
    return list(tournament.rounds.values_list("number", flat=True))


def live_check(request, *, tournament: Tournament, round_number: int | None = None, also: str = ""):
    """Spectators' pages of a running round poll their table (htmx, every few seconds): the
    fragment comes back only when the pairings or results changed; otherwise 204, which htmx
    leaves alone (or 304 to a browser that sends the ETag). Returns (context entries, response
    for an unchanged poll or None), before the page does any work of its own. ``also``: more
    state the page shows (a league's match states), folded into the version."""
    version, running = selectors.pairings_version(tournament=tournament, round_number=round_number)
    if also:
        version = hashlib.sha1(f"{version}:{also}".encode()).hexdigest()[:16]
    extra = {"live_version": version, "live": running}
    if request.GET.get("fragment"):
        if request.GET.get("v") == version:
            return extra, HttpResponse(status=204)
        if request.headers.get("If-None-Match") == f'"{version}"':
            return extra, HttpResponse(status=304)
    return extra, None


def live_render(request, page: str, fragment: str, context: dict):
    """The whole page, or only its live fragment (with its ETag) for a poll."""
    if not request.GET.get("fragment"):
        return render(request, page, context)
    response = render(request, fragment, context)
    response["ETag"] = f'"{context["live_version"]}"'
    response["Cache-Control"] = "no-cache"
    return response


@public_tournaments_required
def tournament_list(request):
    # Paged in SQL; the page's 50 get their state and counts afterwards (``TournamentTable.paginate``).
    table = TournamentTable(Tournament.objects.all())
    table.empty_text = empty_list_html(gettext("No tournaments yet."), reverse("tournaments:create"),
                                       gettext("Create a tournament"), show=is_official(request.user))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "tournaments/tournament_list.html",
                  {"table": table, "official": is_official(request.user)})


@public_tournaments_required
@league_pages("leagues:division")
def tournament_detail(request, pk):
    """Overview: the facts, the starting list and the latest round."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer_club"), pk=pk)
    players = list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))
    # The round being played: the first with a game still without result (a round robin is
    # paired whole in advance), else the last.
    latest_number = (
        tournament.rounds.filter(games__result=Result.NOT_PLAYED).order_by("number")
        .values_list("number", flat=True).first()
        or tournament.rounds.order_by("-number").values_list("number", flat=True).first())
    latest = rounds_with_pairings(tournament, number=latest_number)[0] if latest_number else None
    counts = {
        "players": len(players),
        "rounds": selectors.last_paired_round_number(tournament=tournament),
        "rounds_total": selectors.rounds_planned(tournament),
        "finished": selectors.tournament_finished(tournament=tournament),
        "games": Game.objects.filter(round__tournament=tournament).exclude(result="").count(),
    }
    return render(request, "tournaments/tournament_detail.html", tournament_context(
        request, tournament, "overview", counts=counts, players=players, latest=latest,
        rows=latest.rows if latest else [],
    ))


# The participant lists: by starting number, alphabetical, by rating (FIDE first, as start numbers).
PLAYER_ORDERS = {
    "start": ("start_rank", "pk"),
    "name": ("member__last_name", "member__first_name", "start_rank"),
    "rating": (F("fide_rating").desc(nulls_last=True), F("rating").desc(nulls_last=True),
               "member__last_name", "member__first_name"),
}


@public_tournaments_required
@league_pages("leagues:division_players")
def tournament_players(request, pk):
    """The participants by starting number, alphabetically or by rating (chess-results' lists)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    order = request.GET.get("order", "")
    if order not in PLAYER_ORDERS:
        order = "start"
    players = tournament.players.select_related("member", "member__club").order_by(*PLAYER_ORDERS[order])
    return render(request, "tournaments/players.html",
                  tournament_context(request, tournament, "players", players=players, order=order))


@public_tournaments_required
@league_pages("leagues:division_rounds")
def tournament_pairings(request, pk):
    """All rounds' pairings on one page."""
    tournament = get_object_or_404(Tournament, pk=pk)
    # A league division's boards stay hidden until their lineups are public (``hidden_games``).
    hidden = (sorted(hidden_games(tournament_id=tournament.pk, now=timezone.now()))
              if tournament.kind == TournamentKind.TEAM else [])
    def build(context: dict) -> dict:
        rounds = _pairings_html.pairing_rounds(request, tournament, hidden=set(hidden))
        _pairings_html.round_tables(request, rounds, context["national_label"])
        return {"rounds": rounds}

    return _cached_page(request, tournament, "pairings", "tournaments/pairings.html", build, hidden)


@public_tournaments_required
@league_pages("leagues:division_rounds")
def round_detail(request, pk, number):
    tournament = get_object_or_404(Tournament, pk=pk)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    reader = not is_official(request.user) and tournament.kind != TournamentKind.TEAM
    if reader and not request.GET.get("fragment"):
        # The page's version reads the tournament's rows; the live check takes the round's from them.
        selectors.tournament_version(tournament=tournament)
    extra, unchanged = live_check(request, tournament=tournament, round_number=rnd.number)
    if unchanged:
        return unchanged
    if reader:
        return _reader_round(request, tournament, rnd, extra)
    rnd = rounds_with_pairings(tournament, pk=rnd.pk)[0]
    games = list(rnd.games.all())
    context = tournament_context(request, tournament, "pairings", round=rnd, rows=rnd.rows, games=games,
                                 **extra)
    # A pairing can be changed by hand only before the round has any result.
    context["edit_pairing"] = context["official"] and not any(g.result for g in games)
    if context["official"]:
        day = rnd.date or rnd.tournament.scheduled_date(number)
        context["date_form"] = RoundDateForm(initial={"date": day})
    return live_render(request, "tournaments/round_detail.html", "tournaments/_live_pairings.html", context)


def _reader_round(request, tournament, rnd, extra: dict):
    """A round's page for a reader who changes nothing (no pairing or date to edit): its table
    drawn from plain rows (``_pairings_html``, as the pairings page draws every round) once per
    version of the tournament, with its validator."""
    rnd.tournament = tournament  # the page's title names it
    version = PageVersion(request, tournament, f"round:{rnd.number}")
    fragment = bool(request.GET.get("fragment"))
    if not fragment and (response := version.not_modified()):
        return response
    context = tournament_context(request, tournament, "pairings", round=rnd, **extra)

    def build() -> dict:
        rows = _pairings_html.pairing_rounds(request, tournament, number=rnd.number)[0]["rows_html"]
        return {"html": render_to_string("tournaments/_round_table.html", {
            "rows_html": rows, "national_label": context["national_label"]}, request=request)}

    context["games_html"] = mark_safe(version.cached("round", build)["html"])  # escaped when drawn
    response = live_render(request, "tournaments/round_detail.html", "tournaments/_live_pairings.html",
                           context)
    return response if fragment else version.validated(response)


@public_tournaments_required
@league_pages("leagues:division")
def tournament_standings(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    extra, unchanged = live_check(request, tournament=tournament)
    if unchanged:
        return unchanged
    version = PageVersion(request, tournament, "standings")
    if not request.GET.get("fragment") and (response := version.not_modified()):
        return response
    context = tournament_context(request, tournament, "standings", **extra)

    def build() -> dict:
        codes, rows, error = _standings.standings(tournament, plain=True)
        lines = _standings.standing_lines(rows, codes, club_of=viewer_of(request).club)
        html = render_to_string("tournaments/_standings_table.html", {
            "codes": codes, "lines": lines, "rows_html": _standings.rows_html(lines, _link(request)),
            "national_label": context["national_label"]}, request=request)
        return {"codes": codes, "error": error, "table_html": html}

    table = version.cached("standings", build)
    context.update(codes=table["codes"], error=table["error"], table_html=mark_safe(table["table_html"]))
    response = live_render(request, "tournaments/standings.html", "tournaments/_live_standings.html", context)
    return response if request.GET.get("fragment") else version.validated(response)


@public_tournaments_required
@league_pages("leagues:division")
def tournament_crosstable(request, pk):
    """The crosstable in rank order (opponents by rank) and the progress table."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_robin = tournament.kind == TournamentKind.ROUND_ROBIN
    return _cached_page(request, tournament, "crosstable", "tournaments/crosstable.html",
                        lambda _context: {"table": _tables.ranked_crosstable(
                            tournament, round_robin=round_robin, plain=True,
                            club_of=viewer_of(request).club, link=_link(request))})


@public_tournaments_required
@league_pages("leagues:division")
def tournament_progress(request, pk):
    """The progress table alone: the points after each round, in rank order (the crosstable page
    shows it below the crosstable)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_robin = tournament.kind == TournamentKind.ROUND_ROBIN
    return _cached_page(
        request, tournament, "progress", "tournaments/progress.html",
        lambda _context: {"table": _tables.ranked_crosstable(tournament, round_robin=round_robin, cells=False,
                                                    plain=True, club_of=viewer_of(request).club,
                                                    link=_link(request))},
        tab="crosstable")


def _link(request):
    """A member's name as HTML for this reader: linked where the privacy rule lets him open the
    member's page (``member_link``, the rule's one tag)."""
    context = {"request": request}
    return lambda member: member_link(context, member)


def _player_id(request) -> int | None:
    value = request.GET.get("player", "")
    return int(value) if value.isdecimal() else None


# Up to this many players per pool the evaluation carries every player's calculation of every game
# (folded; printable as it is); a bigger tournament's page brings a player's calculation when
# it is opened, so that its size follows the players, not players × rounds.
EVALUATION_INLINE_PLAYERS = 40


def evaluation_lines(evaluations, *, player: int | None, show_all: bool) -> list[dict]:
    """Per pool its rows, each with the texts the table prints formatted once (``Texts``), not
    through a filter per cell: a 300-player evaluation stays quick. A line is ``open`` (its
    calculation shown) for ``player`` or with ``show_all``. A line without its calculation has
    its rows' HTML (``html``, ``_evaluation_html``); when every line of a pool has, the pool has
    them as one text (``rows_html``), which the page prints instead of a loop over its lines."""
    texts = Texts()
    draw = _evaluation_html.RowDrawer()
    pools = []
    for p, evaluation in enumerate(evaluations, start=1):
        lines = []
        pool_id = str(evaluation.pool.pk)
        for n, row in enumerate(evaluation.rows, start=1):
            new = row.own_rating is None
            line = {
                "row": row, "target": f"calc-{p}-{n}", "member_id": str(row.member.pk),
                "pool_id": pool_id, "open": show_all or row.member.pk == player, "new": new,
                "start": texts.rating(row.start_rank, ""), "games": str(row.games),
                "rating": "" if new else texts.rating(row.own_rating), "points": texts.points(row.points),
                "pending_points": texts.decimal(row.pending_points, 1) if row.pending else "",
                "average": texts.rating(row.average_opponent, ""), "expected": texts.decimal(row.expected, 2),
                "surplus": texts.signed(row.points_over_expected, 2),
                "factor": texts.decimal(row.factor, 2), "change": texts.game_change(row.change),
                "rounded": "" if new else texts.signed(row.change_rounded, 0),
            }
            if not row.records:
                line["html"] = draw(line)
            lines.append(line)
        drawn = all("html" in line for line in lines)
        pools.append({"pool": evaluation.pool, "lines": lines,  # each part escaped (RowDrawer)
                      "rows_html": mark_safe("".join(line["html"] for line in lines)) if drawn else ""})
    return pools


@public_tournaments_required
def tournament_evaluation(request, pk):
    """Per player the rating figures and the calculation of every game. In a big tournament the
    calculation comes on demand: htmx asks for ``?player=<member>&pool=<pool>`` when a name is
    opened; without JavaScript the name's link opens the page with that player's calculation
    shown (``?player=``), and ``?all=1`` shows every player's (to print)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    player = _player_id(request)
    if request.htmx and player is not None:
        pool = request.GET.get("pool", "")
        records = next((row.records for evaluation in rating_evaluation(tournament, member=player)
                        if str(evaluation.pool.pk) == pool for row in evaluation.rows), [])
        return render(request, "tournaments/_evaluation_games.html", {"records": records})
    show_all = bool(request.GET.get("all"))
    if player is None and not show_all:  # the page every spectator opens: cached
        def build(_context: dict) -> dict:
            return {"evaluations": _evaluations(tournament, None, False, shared=True), "show_all": False}

        return _cached_page(request, tournament, "evaluation", "tournaments/evaluation.html", build,
                            pools_version(tournament))
    context = tournament_context(request, tournament, "evaluation",
                                 evaluations=_evaluations(tournament, player, show_all), show_all=show_all)
    context["body_html"] = render_to_string("tournaments/_evaluation_body.html", context, request=request)
    return render(request, "tournaments/evaluation.html", context)


def _evaluations(tournament, player: int | None, show_all: bool, *, shared: bool = False) -> list[dict]:
    """The evaluation page's tables (``evaluation_lines``): with every player's calculation for a
    small tournament or ``show_all``, else with ``player``'s only. ``shared``: the page is drawn
    under the tournament's version, whose rows give the games' order (``version_rows``)."""
    games = ranks = None
    if shared:
        rows = version_rows(tournament)
        number_of = {pk: number for pk, number, _date in rows["rounds"]}
        games = {game[0]: (number_of[game[1]], game[2]) for game in rows["games"]}
        ranks = {player[1]: player[2] for player in rows["players"]}  # (``PLAYER_FIELDS``)
    evaluations = tournament_evaluation_summary(tournament, games=games, ranks=ranks)
    if show_all or max((len(e.rows) for e in evaluations), default=0) <= EVALUATION_INLINE_PLAYERS:
        evaluations = rating_evaluation(tournament)
    elif player is not None:
        # The player asked for gets his rows with their records: his calculation shown open.
        own = {e.pool.pk: e.rows[0] for e in rating_evaluation(tournament, member=player)}
        for evaluation in evaluations:
            evaluation.rows = [own.get(evaluation.pool.pk, row) if row.member.pk == player else row
                               for row in evaluation.rows]
    return evaluation_lines(evaluations, player=player, show_all=show_all)


def _cached_page(request, tournament, face: str, page: str, build, *parts, tab: str = ""):
    """``page`` (a tournament's tabs above its body, ``_<name>_body.html``) whose body is drawn by
    ``build(context)``'s context (given the page's) once per version of what it shows
    (``_cache.PageVersion``), with its validator; ``parts``: what else the body shows."""
    version = PageVersion(request, tournament, face, *parts)
    if response := version.not_modified():
        return response
    context = tournament_context(request, tournament, tab or face)
    body = page.replace("tournaments/", "tournaments/_").replace(".html", "_body.html")
    context["body_html"] = version.body(body, lambda: {**context, **build(context)})
    return version.validated(render(request, page, context))


@public_tournaments_required
def game_detail(request, pk):
    game = get_object_or_404(Game.objects.select_related("white", "black", "round__tournament"), pk=pk)
    if game.round.tournament.kind == TournamentKind.TEAM and game.pk in hidden_games(
            tournament_id=game.round.tournament_id, now=timezone.now()):
        raise Http404  # a league board whose lineups are not public yet
    official = is_official(request.user)
    context = {
        "game": game, "tournament": game.round.tournament, "official": official,
        "changes": game_rating_changes([game.pk]).get(game.pk, []),
    }
    if official:
        context["history"] = game.history.select_related("changed_by").order_by("-changed_at", "-pk")
        context["form"] = CorrectionForm(game=game)
    return render(request, "tournaments/game_detail.html", context)
