"""The round-robin crosstable (player against player) from one query for games and one for byes.

The progress table of a Swiss (player by round) is ``selectors.tournament_crosstable``; a round
robin is printed as a matrix of opponents, which that selector does not lay out.
"""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from ..models import RESULT_SYMBOLS, Game
from ..selectors import points_by_round, tiebreak_specs, tournament_tables
from ..tiebreaks import UnknownTiebreak
from ._standings import unknown_message
from ._texts import Texts


@dataclass
class Cell:
    """One opponent of one player: the result symbols of their games ("1 ½" in a double one)."""

    symbol: str = ""
    opponent_rank: int | None = None


@dataclass
class PlayerLine:
    player: object  # TournamentPlayer
    points: float = 0.0
    cells: list[Cell] = field(default_factory=list)


def _players(tournament):
    return list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))


def crosstable(tournament) -> list[PlayerLine]:
    """Round robin: one cell per opponent in starting-rank order (two symbols in a double one)."""
    players = _players(tournament)
    games = Game.objects.filter(round__tournament=tournament).order_by("round__number", "board")
    index = {p.member_id: i for i, p in enumerate(players)}
    symbols: dict[tuple[int, int], list[str]] = defaultdict(list)
    for white_id, black_id, result in games.values_list("white_id", "black_id", "result"):
        white, black = RESULT_SYMBOLS[result]
        symbols[(white_id, black_id)].append(white or "·")
        symbols[(black_id, white_id)].append(black or "·")
    points = points_by_round(tournament=tournament)
    lines = []
    for player in players:
        line = PlayerLine(player=player, points=sum(points.get(player.member_id, {}).values()))
        for other in players:
            if other.member_id == player.member_id:
                line.cells.append(Cell(symbol="×"))
            else:
                line.cells.append(Cell(symbol=" ".join(symbols.get((player.member_id, other.member_id), [])),
                                       opponent_rank=index[other.member_id] + 1))
        lines.append(line)
    return lines


# --- the final crosstable ("Endstand-Kreuztabelle") and the progress table ------------------------


@dataclass
class RankedCell:
    """One round (Swiss) or one opponent (round robin) of a ranked line."""

    text: str = ""
    opponent: int | None = None  # the opponent's rank
    colour: str = ""
    code: str = ""
    own: bool = False  # the diagonal of a round robin


@dataclass
class RankedLine:
    rank: int
    player: object  # TournamentPlayer
    points: float
    tiebreaks: list
    cells: list[RankedCell] = field(default_factory=list)
    progress: list[float | None] = field(default_factory=list)  # points after each round
    # The line as the page prints it: each cell's text formatted once (views/_texts.py).
    texts: dict = field(default_factory=dict)


@dataclass
class RankedTable:
    codes: list[str]
    error: str
    rounds: list[int]
    lines: list[RankedLine]
    # With a ``link`` (``ranked_crosstable``) every line's row as one string: the page prints the
    # table's rows as one text, not through a template loop over 300 lines.
    rows_html: str = ""
    progress_rows_html: str = ""


def _tables(tournament, plain: bool):
    """(tie-break codes, standings, crosstable rows, message): an unusable tie-break list (a typo
    in the tournament's settings) gives points only and says so (as ``_standings.standings``)."""
    try:
        codes = [spec.label for spec in tiebreak_specs(tournament=tournament)]
        return (codes, *tournament_tables(tournament=tournament, codes=codes, plain=plain), "")
    except UnknownTiebreak as error:
        return ([], *tournament_tables(tournament=tournament, codes=[], plain=plain),
                unknown_message(tournament, error))


def ranked_crosstable(tournament, *, round_robin: bool, club_of: Callable[[object], str],
                      cells: bool = True, plain: bool = False,
                      link: Callable[[object], str] | None = None) -> RankedTable:
    """chess-results' "Endstand-Kreuztabelle": players in rank order with points and tie-breaks;
    a Swiss names each round's opponent by rank (and colour, result), a round robin has one column
    per rank. Every kind gets the points after each round (the progress table); without ``cells``
    the lines have no crosstable cells (the progress table alone does not show them). ``club_of``:
    a member's club as the reader may see it (``Viewer.club``, ``clubrating.clubs.privacy``);
    ``plain``: the lines' players as plain rows (``selectors.plain``), for the pages; ``link``: a
    member's name as HTML (``member_link``, the privacy rule's), to lay out whole rows."""
    if link is not None and cells and not round_robin:  # a Swiss' crosstable page
        return _swiss_page_table(tournament, club_of=club_of, link=link)
    codes, rows, progress_rows, error = _tables(tournament, plain)
    progress_only = link is not None and not cells  # the progress page: only its own rows
    # The page (a ``link``) prints its rows as HTML: a Swiss' lines then keep no cell objects of
    # their own (the exports and the API read them), only each cell's HTML, drawn once per text.
    swiss_cells = cells and not round_robin
    cell_objects = link is None
    by_round = {line.player.pk: line for line in progress_rows}
    rank_of_start = {row.player.start_rank: row.rank for row in rows}
    position_of_member = {row.player.member_id: i for i, row in enumerate(rows)}
    matrix = {line.player.member_id: line for line in crosstable(tournament)} if round_robin and cells else {}
    start_index = {line.player.member_id: i for i, line in enumerate(matrix.values())}
    rounds = [cell.round for cell in next(iter(by_round.values())).cells] if by_round else []
    texts = Texts()
    colours = {"w": pgettext("colour white", "w"), "b": pgettext("colour black", "b")}
    td = '<td class="text-center text-nowrap">'
    swiss_html: dict[tuple, str] = {}  # a Swiss cell's HTML by (opponent's rank, colour, code)
    progress_html: dict[float | None, str] = {}  # a progress cell's HTML by the points
    lines = []
    for row in rows:
        line = RankedLine(rank=row.rank, player=row.player, points=row.points, tiebreaks=row.tiebreaks)
        progress = by_round.get(row.player.pk)
        html = []
        after = []
        total = 0.0
        for cell in progress.cells if progress else ():
            if cell.points is not None:
                total += cell.points
                shown = total
            else:
                shown = None
            line.progress.append(shown)
            piece = progress_html.get(shown)
            if piece is None:
                piece = progress_html[shown] = texts.cell(texts.points(shown), "num")
            after.append(piece)
            if swiss_cells:
                opponent = rank_of_start.get(cell.opponent) if cell.opponent is not None else None
                key = (opponent, cell.colour, cell.code) if opponent else (None, "", cell.code)
                if cell_objects:
                    text = f"{opponent}{colours.get(cell.colour, '')}{cell.code}" if opponent else cell.code
                    line.cells.append(RankedCell(text=text, opponent=opponent, colour=cell.colour,
                                                 code=cell.code))
                piece = swiss_html.get(key)
                if piece is None:
                    # The opponent's rank is a number; the colour and the code are escaped.
                    colour = texts.escaped(colours.get(key[1], ""))
                    code = texts.escaped(cell.code)
                    piece = swiss_html[key] = (f"{td}{opponent}{colour}{code}</td>" if opponent
                                               else f"{td}{colour}{code}</td>")
                html.append(piece)
        if cells and round_robin:
            own = matrix.get(row.player.member_id)
            for other in rows:
                if other.player.member_id == row.player.member_id:
                    line.cells.append(RankedCell(text="×", own=True))
                elif own is not None:
                    symbol = own.cells[start_index[other.player.member_id]].symbol
                    position = position_of_member[other.player.member_id] + 1
                    line.cells.append(RankedCell(text=symbol, opponent=position))
        player = row.player
        progress_cells = SafeString("".join(after))  # each text escaped (``Texts.cell``)
        if progress_only:  # the progress page prints no club, tie-breaks or crosstable cells
            line.texts = {"rank": texts.rating(row.rank), "rating": texts.rating(player.rating),
                          "fide": texts.rating(player.fide_rating), "points": texts.points(row.points)}
            line.texts.update(_progress_html(line.texts, texts, progress_cells))
            lines.append(line)
            continue
        line.texts = {
            "rank": texts.rating(row.rank), "start": texts.rating(player.start_rank, ""),
            "rating": texts.rating(player.rating), "fide": texts.rating(player.fide_rating),
            "club": club_of(player.member), "points": texts.points(row.points),
            "tiebreaks": texts.tiebreaks(row.tiebreaks, codes),
        }
        if cells and round_robin:
            html = [texts.cell(cell.text, "text-center text-nowrap table-secondary" if cell.own
                               else "text-center text-nowrap") for cell in line.cells]
        line.texts.update(_row_html(line.texts, texts, "".join(html), progress_cells))
        lines.append(line)
    table = RankedTable(codes=codes, error=error, rounds=rounds, lines=lines)
    if link is not None:
        e = texts.escaped
        # Each part escaped: _row_html, member_link.
        table.rows_html = "" if progress_only else mark_safe("".join(
            f'<tr>{t["head_html"]}<td class="player">{link(line.player.member)}</td>{t["tail_html"]}</tr>'
            for line in lines for t in (line.texts,)))
        table.progress_rows_html = mark_safe("".join(
            f'<tr>{t["progress_head_html"]}<td class="player">{e(str(line.player.member))}</td>'
            f'{t["progress_tail_html"]}</tr>' for line in lines for t in (line.texts,)))
    return table


def _row_html(t: dict, texts: Texts, cells: str, progress: str) -> dict:
    """A line's cells around the player's name as _crosstable.html and _progress.html print them:
    a 300-player page renders three template variables a row, not one per cell. Every text is
    escaped (the club's name is typed by users); ``cells`` and ``progress`` (the points after each
    round) are escaped HTML already."""
    e = texts.escaped
    tiebreaks = texts.cells(t["tiebreaks"], "num d-none d-md-table-cell")
    return {
        "head_html": SafeString(  # escaped: see the docstring
            f'\n    <td class="num">{e(t["rank"])}</td>\n    <td class="num d-none d-md-table-cell">'
            f'{e(t["start"])}</td>\n    '),
        "tail_html": SafeString(
            f'\n    <td class="num d-none d-sm-table-cell">{e(t["rating"])}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{e(t["fide"])}</td>'
            f'\n    <td class="d-none d-lg-table-cell">{e(t["club"])}</td>'
            f'\n    {cells}'
            f'\n    <td class="num fw-bold col-pin-end">{e(t["points"])}</td>'
            f'\n    {tiebreaks}\n  '),
        **_progress_html(t, texts, progress),
    }


def _progress_html(t: dict, texts: Texts, progress: str) -> dict:
    """A line's cells around the player's name as _progress.html prints them (``_row_html``);
    ``progress``: the points after each round, escaped HTML already."""
    e = texts.escaped
    return {
        "progress_head_html": SafeString(f'\n    <td class="num">{e(t["rank"])}</td>'),  # escaped here
        "progress_tail_html": SafeString(
            f'\n    <td class="num d-none d-sm-table-cell">{e(t["rating"])}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{e(t["fide"])}</td>'
            f'\n    {progress}'
            f'\n    <td class="num fw-bold col-pin-end">{e(t["points"])}</td>\n  '),
    }


# --- a Swiss' crosstable page, its rows written in one pass ---------------------------------------

_TD = '<td class="text-center text-nowrap">'
_TIEBREAK = '<td class="num d-none d-md-table-cell">'


def _swiss_page_table(tournament, *, club_of: Callable[[object], str],
                      link: Callable[[object], str]) -> RankedTable:
    """The crosstable page's table of a Swiss: its ``rows_html`` and ``progress_rows_html`` as
    ``ranked_crosstable`` lays them out, written in one pass from the standings and crosstable
    rows, without a line object, a cell object or a dictionary of texts per player (2,700 cells
    in each table of a 300-player Swiss of nine rounds); no ``lines``: the page prints the rows,
    and a table without players has none. Every distinct text is formatted and escaped once."""
    codes, rows, progress_rows, error = _tables(tournament, True)
    by_player = {line.player.pk: line.cells for line in progress_rows}
    rounds = [cell.round for cell in next(iter(by_player.values()))] if by_player else []
    rank_of_start = {row.player.start_rank: row.rank for row in rows}
    texts = Texts()
    points_text = texts.points
    colours = {"w": escape(pgettext("colour white", "w")), "b": escape(pgettext("colour black", "b"))}
    # Each distinct piece of HTML once: a number by its value, a cell's code and colour by theirs.
    progress_html: dict[float | None, str] = {}
    codes_html: dict[str, str] = {}
    tiebreak_html: dict[tuple, str] = {}
    numbers: dict[object, str] = {}
    points_html: dict[float, str] = {}
    clubs: dict[str, str] = {}
    crosstable, progress = [], []
    for row in rows:
        player = row.player
        cells = []
        after = []
        total = 0.0
        for cell in by_player.get(player.pk, ()):
            points = cell.points
            if points is not None:
                total += points
                piece = progress_html.get(total)
                if piece is None:
                    piece = progress_html[total] = f'<td class="num">{escape(points_text(total))}</td>'
            else:
                piece = progress_html.get(None)
                if piece is None:
                    piece = progress_html[None] = f'<td class="num">{escape(points_text(None))}</td>'
            after.append(piece)
            code = codes_html.get(cell.code)
            if code is None:
                code = codes_html[cell.code] = escape(cell.code)
            # The opponent by his rank (a number), with the colour (escaped above) and the code.
            opponent = cell.opponent
            if opponent is not None and (opponent := rank_of_start.get(opponent)):
                cells.append(f"{_TD}{opponent}{colours.get(cell.colour, '')}{code}</td>")
            else:
                cells.append(f"{_TD}{code}</td>")
        rank = _number(numbers, texts, row.rank)
        rating = _number(numbers, texts, player.rating)
        fide = _number(numbers, texts, player.fide_rating)
        points = points_html.get(row.points)
        if points is None:
            points = points_html[row.points] = escape(points_text(row.points))
        start = escape(texts.rating(player.start_rank, ""))
        member = player.member
        club = club_of(member)
        club_html = clubs.get(club)
        if club_html is None:
            club_html = clubs[club] = escape(str(club))
        values = tuple(row.tiebreaks)
        tiebreaks = tiebreak_html.get(values)
        if tiebreaks is None:
            tiebreaks = tiebreak_html[values] = "".join(
                f"{_TIEBREAK}{escape(text)}</td>" for text in texts.tiebreaks(row.tiebreaks, codes))
        crosstable.append(
            f'<tr>\n    <td class="num">{rank}</td>\n    <td class="num d-none d-md-table-cell">{start}</td>'
            f'\n    <td class="player">{link(member)}</td>'
            f'\n    <td class="num d-none d-sm-table-cell">{rating}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{fide}</td>'
            f'\n    <td class="d-none d-lg-table-cell">{club_html}</td>'
            f'\n    {"".join(cells)}'
            f'\n    <td class="num fw-bold col-pin-end">{points}</td>'
            f'\n    {tiebreaks}\n  </tr>')
        progress.append(
            f'<tr>\n    <td class="num">{rank}</td><td class="player">{escape(str(member))}</td>'
            f'\n    <td class="num d-none d-sm-table-cell">{rating}</td>'
            f'\n    <td class="num d-none d-md-table-cell">{fide}</td>'
            f'\n    {"".join(after)}'
            f'\n    <td class="num fw-bold col-pin-end">{points}</td>\n  </tr>')
    # Each part escaped above (the club's and the member's names are typed by users); the names'
    # links are member_link's own HTML.
    return RankedTable(codes=codes, error=error, rounds=rounds, lines=[],
                       rows_html=mark_safe("".join(crosstable)),
                       progress_rows_html=mark_safe("".join(progress)))


def _number(memo: dict, texts: Texts, value) -> str:
    """A rank's or rating's text, escaped, once per value."""
    html = memo.get(value)
    if html is None:
        html = memo[value] = escape(texts.rating(value))
    return html
