"""All rounds' pairings (the pairings page) drawn from plain rows.

A 300-player Swiss of nine rounds has some 1,350 boards; building a game object per board and
drawing each through the template's tags cost the page seconds right after every save (when its
cached copy is stale). Here the boards are plain rows (``values_list``), each member's link is
worked out once (``member_link``, the privacy rule's one tag) and each row's cells are formatted
in Python as ``_games.html`` prints them. A fixed number of queries whatever the number of
players or rounds: rounds, games, byes (when a round has any), players with their members,
members who play without a registration, and the points before each round
(``_pairings.points_before``); the rounds, boards and players are the rows the tournament's
version was read from (``rounds.version_rows``).
"""

from __future__ import annotations

from collections import defaultdict
from html import escape

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from clubrating.accounts.templatetags.privacy import member_link

from ..models import Bye, ByeKind, Result
from ..selectors.plain import plain_members
from ..selectors.rounds import version_rows
from ._pairings import points_before
from ._texts import Texts

_BYE_ROW = (
    '\n    <tr class="text-muted"><td></td>'
    '\n      <td class="num d-none d-md-table-cell">{start}</td>'
    '\n      <td class="player">{name}</td>'
    '\n      <td class="num d-none d-sm-table-cell">{rating}</td>'
    '\n      <td class="num d-none d-sm-table-cell">{points}</td>'
    '\n      <td class="text-center" colspan="5">{kind}</td></tr>\n  '
)
_KEY = 987654321987  # a key no game has: the game page's address is reversed once, not per board
_ROWS_MARK = "ROWS7f3e9a1c5b"  # where a round's rows go in the table's frame (``round_tables``)


def pairing_rounds(request, tournament, *, hidden: set[int] | frozenset[int] = frozenset(),
                   number: int | None = None) -> list[dict]:
    """Every round of ``tournament`` (by number; only round ``number`` if given): {"number",
    "date", "url", "rows_html"}, its boards and then its byes as ``_games.html`` prints them
    (without the officials' buttons). ``hidden``: games left out (a league's boards whose lineups
    are not public yet)."""
    # The rounds, boards and players are the rows the tournament's version was read from (the
    # page is drawn under it: ``version_rows``); only the byes are read again, in their order.
    version = version_rows(tournament)
    rounds = sorted((row for row in version["rounds"] if number is None or row[1] == number),
                    key=lambda row: row[1])
    round_ids = [row[0] for row in rounds]
    games: dict[int, list[tuple]] = defaultdict(list)
    wanted_rounds = set(round_ids)
    for pk, round_id, board, white, black, result, *_rest in version["games"]:
        if round_id in wanted_rounds and pk not in hidden:
            games[round_id].append((pk, board, white, black, result))
    for boards in games.values():
        boards.sort(key=lambda row: (row[1], row[0]))  # by board, then key
    byes: dict[int, list[tuple]] = defaultdict(list)
    # Only rounds that have byes ask for them again, in the order the round's table prints them
    # (by kind, then name: the database's collation).
    with_byes = {row[1] for row in version["byes"] if row[1] in wanted_rounds}
    for round_id, member_id, kind in (Bye.objects.filter(round_id__in=sorted(with_byes))
                                      .order_by("kind", "member__last_name", "pk")
                                      .values_list("round_id", "member_id", "kind") if with_byes else ()):
        byes[round_id].append((member_id, kind))
    players = {row[1]: (row[2], row[3]) for row in version["players"]}  # member: (start rank, rating)
    wanted = {m for rows in games.values() for row in rows for m in row[2:4]}
    wanted |= {member_id for rows in byes.values() for member_id, _kind in rows}
    members = plain_members(wanted)
    before = points_before(tournament, shared=True)
    texts = Texts()
    context = {"request": request}

    # A player's number, link and rating are the same in every round: his cells left and right of
    # the result are drawn once (as White and as Black).
    fixed: dict[int, tuple[str, str]] = {}
    left: dict[int, str] = {}
    right: dict[int, str] = {}
    for member_id in wanted:
        start, rating = players.get(member_id, (None, None))
        start, rating = fixed[member_id] = (escape(texts.rating(start)), escape(texts.rating(rating)))
        start = f'\n      <td class="num d-none d-md-table-cell">{start}</td>'
        name = f'\n      <td class="player">{member_link(context, members[member_id])}</td>'
        rating = f'\n      <td class="num d-none d-sm-table-cell">{rating}</td>'
        left[member_id] = start + name + rating  # White's: start rating, name, rating
        right[member_id] = name + rating + start  # Black's: right of the result, mirrored

    href, href_end = reverse("tournaments:game", args=[_KEY]).split(str(_KEY))
    results = {value: escape(str(label)) for value, label in Result.choices}
    kinds = {value: escape(str(label)) for value, label in ByeKind.choices}
    cell = '\n      <td class="num d-none d-sm-table-cell">'
    scores: dict[float, str] = {}  # the points take a few values (half steps), each drawn once
    out = []
    for pk, round_number, date in rounds:
        points = before.get(round_number, {})
        score: dict[int, str] = {}
        for member_id in wanted:
            value = points.get(member_id, 0.0)
            text = scores.get(value)
            if text is None:
                text = scores[value] = f"{cell}{escape(texts.points(value))}</td>"
            score[member_id] = text
        html = []
        for game_pk, board, white, black, result in games.get(pk, ()):
            shown = results.get(result) if result else "–"
            if shown is None:
                shown = escape(result)
            html.append(
                f'\n    <tr><td class="num">{board}</td>{left[white]}{score[white]}'
                f'\n      <td class="text-center text-nowrap result"><a href="{href}{game_pk}{href_end}">'
                f'{shown}</a></td>{score[black]}{right[black]}\n      </tr>\n  ')
        for member_id, kind in byes.get(pk, ()):
            start, rating = fixed[member_id]
            html.append(_BYE_ROW.format(start=start, name=escape(str(members[member_id])), rating=rating,
                                        points=escape(texts.points(points.get(member_id, 0.0))),
                                        kind=kinds.get(kind, escape(kind))))
        url = reverse("tournaments:round", args=[tournament.pk, round_number])
        out.append({"number": round_number, "date": date, "url": url, "rows_html": _safe("".join(html))})
    return out


def round_tables(request, rounds: list[dict], national_label: str) -> None:
    """Each round's table as ``_round_table.html`` prints it (``table_html``), its rows those of
    ``pairing_rounds``: the table's frame (its head of translated columns) is drawn once for the
    page, not once per round."""
    frame = render_to_string("tournaments/_round_table.html", {
        "rows_html": _ROWS_MARK, "national_label": national_label}, request=request)
    head, tail = frame.split(_ROWS_MARK)
    for rnd in rounds:
        if rnd["rows_html"]:
            rnd["table_html"] = _safe(f"{head}{rnd['rows_html']}{tail}")  # the frame drawn by the template
        else:  # no boards: the table says so
            rnd["table_html"] = _safe(render_to_string("tournaments/_round_table.html", {
                "rows_html": "", "national_label": national_label}, request=request))


def _safe(html: str) -> SafeString:
    return mark_safe(html)  # every text above is escaped; the links are member_link's own HTML
