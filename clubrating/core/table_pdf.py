"""Long tables as PDF, drawn directly with ReportLab (no Django here).

A federation's rating list has tens of thousands of rows. WeasyPrint lays the print page out as
HTML (boxes, CSS cascade, table layout over every row) and needs minutes for 20,000 rows; here
a row is one line high (two where a long name or club wraps), so pages, page numbers and
positions follow from arithmetic and each cell is one text string: seconds for 20,000 rows. The
page looks like the print layout (``static/css/print.css``): A4 portrait, the same margins, the
running header (club, title, list lines) in the top margin of every page, "Page x of y" at the
bottom, a repeated column header, light row lines and striped rows.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color, black
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# DejaVu Sans as in the print stylesheet (every European name); ReportLab's own Bitstream Vera
# (DejaVu's origin) where the system has no DejaVu.
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/local/share/fonts")
_FONTS: tuple[str, str, str] | None = None

MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM, MARGIN_LEFT = 24 * mm, 14 * mm, 16 * mm, 14 * mm
CELL_SIZE, HEAD_SIZE, MARGIN_SIZE = 8, 7.5, 7.5
MIN_SIZE = 6.5  # the smallest font of a long name or club on one line; below, it wraps
LINE = 1.15  # line height of a wrapped cell, in font sizes
ROW_HEIGHT = 4.6 * mm
PAD = 1.0 * mm
STRIPE = Color(0xF3 / 255, 0xF3 / 255, 0xF3 / 255)
RULE = Color(0xBB / 255, 0xBB / 255, 0xBB / 255)
NOTE_HEIGHT = 3 * mm + 8 * 1.3
GREY = Color(0x33 / 255, 0x33 / 255, 0x33 / 255)
WATERMARK = Color(0.8, 0.1, 0.1, alpha=0.22)


class Italic(str):
    """A cell's text printed in italics (a provisional rating)."""

    __slots__ = ()


@dataclass(frozen=True)
class Column:
    header: str
    numeric: bool = False
    # Gives way when the columns are wider than the page; a text wider than the column is then
    # printed in a smaller font or on two lines (its row taller), never cut (the names and clubs
    # of an official list).
    shrinks: bool = False


def fonts() -> tuple[str, str, str]:
    """The names of the regular, bold and oblique fonts, registered once per process."""
    global _FONTS
    if _FONTS is None:
        files = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf")
        folder = next((d for d in _FONT_DIRS if all(os.path.isfile(os.path.join(d, f)) for f in files)), None)
        if folder is None:
            files, folder = ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf"), None
        names = ("ClubRatingSans", "ClubRatingSans-Bold", "ClubRatingSans-Oblique")
        for name, file in zip(names, files, strict=True):
            pdfmetrics.registerFont(TTFont(name, os.path.join(folder, file) if folder else file))
        _FONTS = names
    return _FONTS


def _words_width(text: str, font: str, size: float) -> float:
    """The width of ``text``'s longest word: a column header may wrap between its words."""
    return max((pdfmetrics.stringWidth(word, font, size) for word in text.split()), default=0)


def _widths(columns: Sequence[Column], rows: Sequence[Sequence[str]], width: float) -> list[float]:
    """Each column as wide as its widest text (measured on the longest few texts) and its
    header's longest word (a header wraps between words rather than widen a column of numbers).
    When the whole is wider than the page, the shrinking columns give way: each keeps at least
    the width of its usual texts (the one at nine tenths of the texts, by length), the rest of the
    page is shared by what their longer texts need beyond that, and a text still wider than its
    column is printed smaller or on two lines (``_cell_lines``), never cut. Room to spare goes first to the
    headers (on one line), then to the shrinking columns."""
    regular, bold, _oblique = fonts()
    widths, usual, full = [], [], []
    for index, column in enumerate(columns):
        # Texts of one length in the order of their letters, not of the set: the same widths in
        # every process, whatever its hash seed.
        texts = sorted({row[index] for row in rows}, key=lambda t: (len(t), t))
        text = max((pdfmetrics.stringWidth(t, regular, CELL_SIZE) for t in texts[-8:]), default=0)
        head = _words_width(column.header, bold, HEAD_SIZE)
        widths.append(max(text, head) + 2 * PAD)
        full.append(max(text, pdfmetrics.stringWidth(column.header, bold, HEAD_SIZE)) + 2 * PAD)
        typical = texts[(len(texts) - 1) * 9 // 10] if texts else ""
        usual.append(max(pdfmetrics.stringWidth(typical, regular, CELL_SIZE), head) + 2 * PAD)
    shrinking = [i for i, c in enumerate(columns) if c.shrinks]
    spare = width - sum(widths)
    if spare > 0:
        wanted = sum(full) - sum(widths)
        if wanted > 0:
            given = min(spare, wanted)
            widths = [w + (f - w) * given / wanted for w, f in zip(widths, full, strict=True)]
            spare -= given
        for i in shrinking:  # as a full-width table
            widths[i] += spare / len(shrinking)
    elif spare < 0 and shrinking:
        room = width - sum(w for i, w in enumerate(widths) if i not in shrinking)
        floor = sum(usual[i] for i in shrinking)
        beyond = sum(widths[i] - usual[i] for i in shrinking)
        if room > floor and beyond > 0:  # the usual widths fit: share the rest by what is longer
            for i in shrinking:
                widths[i] = usual[i] + (room - floor) * (widths[i] - usual[i]) / beyond
        else:
            for i in shrinking:
                widths[i] = max(12 * mm, room * usual[i] / floor)
    return widths


def _head_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """A column header in lines no wider than ``width``, broken between words only."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and pdfmetrics.stringWidth(joined, font, size) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def _cell_lines(text: str, text_width: Callable[[str], float], width: float) -> tuple[float, tuple[str, ...]]:
    """A shrinking column's cell in full, never cut: (font size, lines). On one line at CELL_SIZE
    when it fits, else in a smaller font down to MIN_SIZE; a text needing less than that wraps
    onto two lines (between words, or after a hyphen), as large as they fit. ``text_width``
    measures at CELL_SIZE."""
    whole = text_width(text)
    if whole <= width:
        return CELL_SIZE, (text,)
    if CELL_SIZE * width / whole >= MIN_SIZE:
        return CELL_SIZE * width / whole, (text,)
    best: tuple[float, tuple[str, ...]] | None = None
    for index, char in enumerate(text[1:-1], start=1):
        if char == " ":
            parts = (text[:index], text[index + 1:])
        elif char == "-":
            parts = (text[:index + 1], text[index + 1:])
        else:
            continue
        widest = max(text_width(part) for part in parts)
        if best is None or widest < best[0]:
            best = (widest, parts)
    if best is None:  # one word: smaller still
        return CELL_SIZE * width / whole, (text,)
    return min(CELL_SIZE, CELL_SIZE * width / best[0]), best[1]


def _fit(text: str, font: str, size: float, width: float) -> str:
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _wrap(parts: Sequence[str], font: str, size: float, width: float) -> list[str]:
    """``parts`` joined by " · " into lines no wider than ``width`` (a part too long is cut)."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and pdfmetrics.stringWidth(joined, font, size) <= width:
            lines[-1] = joined
        else:
            lines.append(_fit(part, font, size, width))
    return lines


def table_pdf(
    *,
    title: str,
    club: str,
    lines: Sequence[str],
    columns: Sequence[Column],
    rows: Iterable[Sequence[str]],
    note: str = "",
    page_text: str = "Page %(page)d of %(pages)d",
    author: str = "ClubRating",
    watermark: str = "",
) -> bytes:
    """The PDF bytes of a titled table. ``rows`` are the cells' texts (``Italic`` for italics);
    ``page_text`` is the translated "Page %(page)d of %(pages)d"; ``watermark`` is printed large
    and diagonally across every page (a withdrawn list)."""
    regular, bold, oblique = fonts()
    rows = [tuple(row) for row in rows]
    page_width, page_height = A4
    width = page_width - MARGIN_LEFT - MARGIN_RIGHT
    widths = _widths(columns, rows, width)
    lefts = [MARGIN_LEFT + sum(widths[:i]) for i in range(len(widths))]
    heads = [_head_lines(column.header, bold, HEAD_SIZE, w - 2 * PAD)
             for column, w in zip(columns, widths, strict=True)]
    head_height = ROW_HEIGHT + (max(len(h) for h in heads) - 1) * HEAD_SIZE * 1.15
    body_top = page_height - MARGIN_TOP
    lines = [line for line in lines if line]
    title_block = (10 + 15) * 1.25 + 4 + 9 * 1.3 * len(lines) + 6 * mm  # club, title, lines, rule
    usable = body_top - MARGIN_BOTTOM - head_height  # less the column header
    cut = {i for i, c in enumerate(columns) if c.shrinks}
    widths_seen: dict[tuple[str, str], float] = {}

    def width_of(text: str, font: str) -> float:
        key = (text, font)
        if key not in widths_seen:
            widths_seen[key] = pdfmetrics.stringWidth(text, font, CELL_SIZE)
        return widths_seen[key]

    # The cells of the shrinking columns that need a smaller font or two lines, per row (most
    # rows have none), and each row's height: a row with a wrapped cell is taller.
    special: dict[int, dict[int, tuple[float, tuple[str, ...]]]] = {}
    heights = [ROW_HEIGHT] * len(rows)
    for number, row in enumerate(rows):
        for index in cut:
            text = row[index]
            if not text or width_of(text, regular) <= widths[index] - 2 * PAD:
                continue
            font = oblique if isinstance(text, Italic) else regular
            size, parts = _cell_lines(text, lambda t, f=font: width_of(t, f), widths[index] - 2 * PAD)
            special.setdefault(number, {})[index] = (size, parts)
            heights[number] = max(heights[number], ROW_HEIGHT + (len(parts) - 1) * size * LINE)
    # Pages: as many rows as fit (at least one), the first page below the title block.
    chunks: list[tuple[int, int]] = []
    start, used, capacity = 0, 0.0, usable - title_block
    for number, height in enumerate(heights):
        if used + height > capacity and number > start:
            chunks.append((start, number))
            start, used, capacity = number, 0.0, usable
        used += height
    chunks.append((start, len(rows)))
    note_page = bool(note) and capacity - used < NOTE_HEIGHT  # the note on a page of its own
    pages = len(chunks) + int(note_page)

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1, invariant=True)
    canvas.setTitle(f"{title} · {club}")
    canvas.setAuthor(author)
    running = [_fit(f"{club} · {title}", regular, MARGIN_SIZE, width),
               *_wrap(lines, regular, MARGIN_SIZE, width)][:4]
    pieces_seen: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def pieces(text: str, font: str) -> list[tuple[str, str]]:
        """(subset font's PDF name, escaped bytes) of ``text``; a character keeps its subset."""
        key = (text, font)
        if key not in pieces_seen:
            face, document = pdfmetrics.getFont(font), canvas._doc
            pieces_seen[key] = [(face.getSubsetInternalName(subset, document), canvas._escape(part))
                                for subset, part in face.splitString(text, document)]
        return pieces_seen[key]

    def page_frame(number: int) -> None:
        canvas.setFillColor(GREY)
        canvas.setFont(regular, MARGIN_SIZE)
        for index, text in enumerate(running):
            canvas.drawString(MARGIN_LEFT, page_height - MARGIN_TOP + 3 * mm + (len(running) - 1 - index)
                              * MARGIN_SIZE * 1.2, text)
        canvas.drawRightString(page_width - MARGIN_RIGHT, MARGIN_BOTTOM / 2,
                               page_text % {"page": number, "pages": pages})
        if watermark:
            # Across the page, under the table (drawn first), so no copy passes for valid.
            canvas.saveState()
            canvas.setFillColor(WATERMARK)
            canvas.translate(page_width / 2, page_height / 2)
            canvas.rotate(55)
            size = min(96.0, 0.7 * (page_width ** 2 + page_height ** 2) ** 0.5
                       / max(1.0, pdfmetrics.stringWidth(watermark, bold, 1)))
            canvas.setFont(bold, size)
            canvas.drawCentredString(0, -size / 3, watermark)
            canvas.restoreState()
        canvas.setFillColor(black)

    def column_header(top: float) -> float:
        canvas.setFont(bold, HEAD_SIZE)
        bottom = top - head_height
        for head, column, left, w in zip(heads, columns, lefts, widths, strict=True):
            for index, text in enumerate(head):  # bottom-aligned, as the print layout's headers
                base = bottom + 1.3 * mm + (len(head) - 1 - index) * HEAD_SIZE * 1.15
                if column.numeric:
                    canvas.drawRightString(left + w - PAD, base, text)
                else:
                    canvas.drawString(left + PAD, base, text)
        canvas.setLineWidth(1)
        canvas.line(MARGIN_LEFT, bottom, MARGIN_LEFT + sum(widths), bottom)
        return bottom

    def draw_rows(first: int, last: int, top: float) -> float:
        canvas.setLineWidth(0.4)
        canvas.setStrokeColor(RULE)
        y = top
        for number in range(first, last):
            y -= heights[number]
            if number % 2 == 1:
                canvas.setFillColor(STRIPE)
                canvas.rect(MARGIN_LEFT, y, sum(widths), heights[number], stroke=0, fill=1)
                canvas.setFillColor(black)
            canvas.line(MARGIN_LEFT, y, MARGIN_LEFT + sum(widths), y)
        canvas.setStrokeColor(black)
        # One text object per page; each cell is a text matrix and its string. The subset-font
        # form of each distinct text is made once (ratings, years, clubs repeat across rows):
        # ReportLab's drawString formats every number and string anew, 3x slower here.
        text_object = canvas.beginText()
        code = text_object._code
        current = None
        y = top
        for number in range(first, last):
            base = y - ROW_HEIGHT + 1.4 * mm
            y -= heights[number]
            cells = special.get(number, {})
            for index, text in enumerate(rows[number]):
                if not text:
                    continue
                font = oblique if isinstance(text, Italic) else regular
                size, parts = cells.get(index, (CELL_SIZE, (text,)))
                for line, part in enumerate(parts):
                    x = (lefts[index] + widths[index] - PAD - width_of(part, font) * size / CELL_SIZE
                         if columns[index].numeric else lefts[index] + PAD)
                    code.append(f"1 0 0 1 {x:.2f} {base - line * size * LINE:.2f} Tm")
                    for subset_font, escaped in pieces(part, font):
                        if (subset_font, size) != current:
                            code.append(f"{subset_font} {size:.2f} Tf")
                            current = (subset_font, size)
                        code.append(f"({escaped}) Tj")
        canvas.drawText(text_object)
        return y

    # First page: the title block, then as many rows as fit.
    page_frame(1)
    y = body_top
    canvas.setFont(bold, 10)
    canvas.drawString(MARGIN_LEFT, y - 10, club)
    canvas.setFont(bold, 15)
    canvas.drawString(MARGIN_LEFT, y - 10 * 1.25 - 15, _fit(title, bold, 15, width))
    y -= (10 + 15) * 1.25 + 4
    canvas.setFont(regular, 9)
    for line in lines:
        y -= 9 * 1.3
        canvas.drawString(MARGIN_LEFT, y, _fit(line, regular, 9, width))
    y -= 2 * mm
    canvas.setLineWidth(1)
    canvas.line(MARGIN_LEFT, y, page_width - MARGIN_RIGHT, y)
    y -= 4 * mm
    y = draw_rows(*chunks[0], column_header(y))
    number = 1
    for first, last in chunks[1:]:
        canvas.showPage()
        number += 1
        page_frame(number)
        y = draw_rows(first, last, column_header(body_top))
    if note:
        if note_page:
            canvas.showPage()
            page_frame(number + 1)
            y = body_top
        canvas.setFont(regular, 8)
        canvas.setFillColor(GREY)
        canvas.drawString(MARGIN_LEFT, y - 3 * mm - 8, _fit(note, regular, 8, width))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
