"""Long tables as PDF, drawn directly with ReportLab (no Django here).

A federation's rating list has tens of thousands of rows. WeasyPrint lays the print page out as
HTML (boxes, CSS cascade, table layout over every row) and needs minutes for 20,000 rows; here
every row has the same height, so pages, page numbers and positions follow from arithmetic and
each cell is one ``drawString``: seconds for 20,000 rows. The page looks like the print layout
(``static/css/print.css``): A4 portrait, the same margins, the running header (club, title,
list lines) in the top margin of every page, "Page x of y" at the bottom, a repeated column
header, light row lines and striped rows.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
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
    # printed in a smaller font, never cut (the names and clubs of an official list).
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


def _widths(columns: Sequence[Column], rows: Sequence[Sequence[str]], width: float) -> list[float]:
    """Each column as wide as its widest text (measured on the longest few texts), the shrinking
    columns narrowed in proportion when the whole is wider than the page."""
    regular, bold, _oblique = fonts()
    widths = []
    for index, column in enumerate(columns):
        longest = sorted({row[index] for row in rows}, key=len, reverse=True)[:8]
        text = max((pdfmetrics.stringWidth(t, regular, CELL_SIZE) for t in longest), default=0)
        head = pdfmetrics.stringWidth(column.header, bold, HEAD_SIZE)
        widths.append(max(text, head) + 2 * PAD)
    excess = sum(widths) - width
    shrinking = [i for i, c in enumerate(columns) if c.shrinks]
    if excess > 0 and shrinking:
        total = sum(widths[i] for i in shrinking)
        for i in shrinking:
            widths[i] = max(12 * mm, widths[i] - excess * widths[i] / total)
    elif excess < 0 and shrinking:  # room to spare: to the text columns, as a full-width table
        for i in shrinking:
            widths[i] -= excess / len(shrinking)
    return widths


def _fitting_size(text_width: float, width: float) -> float:
    """The font size at which a text ``text_width`` wide at CELL_SIZE fits ``width``."""
    return CELL_SIZE if text_width <= width else CELL_SIZE * width / text_width


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
    body_top = page_height - MARGIN_TOP
    lines = [line for line in lines if line]
    title_block = (10 + 15) * 1.25 + 4 + 9 * 1.3 * len(lines) + 6 * mm  # club, title, lines, rule
    usable = body_top - MARGIN_BOTTOM - ROW_HEIGHT  # less the column header
    per_page = int(usable // ROW_HEIGHT)
    first_page = max(1, int((usable - title_block) // ROW_HEIGHT))
    rest = max(0, len(rows) - first_page)
    pages = 1 + -(-rest // per_page)
    last_rows = (len(rows) if rest == 0 else rest - (pages - 2) * per_page)
    free_rows = (first_page if pages == 1 else per_page) - last_rows
    note_page = bool(note) and free_rows * ROW_HEIGHT < NOTE_HEIGHT  # the note on a page of its own
    pages += int(note_page)

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1, invariant=True)
    canvas.setTitle(f"{title} · {club}")
    canvas.setAuthor(author)
    running = [_fit(f"{club} · {title}", regular, MARGIN_SIZE, width),
               *_wrap(lines, regular, MARGIN_SIZE, width)][:4]
    cut = {i for i, c in enumerate(columns) if c.shrinks}
    widths_seen: dict[tuple[str, str], float] = {}
    pieces_seen: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def width_of(text: str, font: str) -> float:
        key = (text, font)
        if key not in widths_seen:
            widths_seen[key] = pdfmetrics.stringWidth(text, font, CELL_SIZE)
        return widths_seen[key]

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
            size = min(90.0, 0.9 * (page_width ** 2 + page_height ** 2) ** 0.5
                       / max(1.0, pdfmetrics.stringWidth(watermark, bold, 1)))
            canvas.setFont(bold, size)
            canvas.drawCentredString(0, -size / 3, watermark)
            canvas.restoreState()
        canvas.setFillColor(black)

    def column_header(top: float) -> float:
        canvas.setFont(bold, HEAD_SIZE)
        base = top - ROW_HEIGHT + 1.3 * mm
        for column, left, w in zip(columns, lefts, widths, strict=True):
            if column.numeric:
                canvas.drawRightString(left + w - PAD, base, column.header)
            else:
                canvas.drawString(left + PAD, base, column.header)
        canvas.setLineWidth(1)
        canvas.line(MARGIN_LEFT, top - ROW_HEIGHT, MARGIN_LEFT + sum(widths), top - ROW_HEIGHT)
        return top - ROW_HEIGHT

    def draw_rows(chunk: Sequence[Sequence[str]], top: float, first_index: int) -> float:
        canvas.setLineWidth(0.4)
        canvas.setStrokeColor(RULE)
        for offset in range(len(chunk)):
            y = top - (offset + 1) * ROW_HEIGHT
            if (first_index + offset) % 2 == 1:
                canvas.setFillColor(STRIPE)
                canvas.rect(MARGIN_LEFT, y, sum(widths), ROW_HEIGHT, stroke=0, fill=1)
                canvas.setFillColor(black)
            canvas.line(MARGIN_LEFT, y, MARGIN_LEFT + sum(widths), y)
        canvas.setStrokeColor(black)
        # One text object per page; each cell is a text matrix and its string. The subset-font
        # form of each distinct text is made once (ratings, years, clubs repeat across rows):
        # ReportLab's drawString formats every number and string anew, 3x slower here.
        text_object = canvas.beginText()
        code = text_object._code
        current = None
        for offset, row in enumerate(chunk):
            base = top - (offset + 1) * ROW_HEIGHT + 1.4 * mm
            for index, text in enumerate(row):
                if not text:
                    continue
                font = oblique if isinstance(text, Italic) else regular
                size = CELL_SIZE
                if index in cut:  # the whole text, in a smaller font where the column is narrower
                    size = _fitting_size(width_of(text, font), widths[index] - 2 * PAD)
                x = (lefts[index] + widths[index] - PAD - width_of(text, font) * size / CELL_SIZE
                     if columns[index].numeric else lefts[index] + PAD)
                code.append(f"1 0 0 1 {x:.2f} {base:.2f} Tm")
                for subset_font, escaped in pieces(text, font):
                    if (subset_font, size) != current:
                        code.append(f"{subset_font} {size:.2f} Tf")
                        current = (subset_font, size)
                    code.append(f"({escaped}) Tj")
        canvas.drawText(text_object)
        return top - len(chunk) * ROW_HEIGHT

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
    y = draw_rows(rows[:first_page], column_header(y), 0)
    done, number = first_page, 1
    while done < len(rows):
        canvas.showPage()
        number += 1
        page_frame(number)
        chunk = rows[done:done + per_page]
        y = draw_rows(chunk, column_header(body_top), done)
        done += len(chunk)
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
