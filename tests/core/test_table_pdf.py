"""Long tables drawn as PDF by ReportLab: pages, running header, page numbers, cut cells."""

import io

from pypdf import PdfReader

from clubrating.core.table_pdf import Column, Italic, table_pdf

COLUMNS = [Column("Rang", numeric=True), Column("Name", shrinks=True), Column("Wertung", numeric=True)]


def _pages(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def _pdf(rows, **kwargs) -> bytes:
    return table_pdf(title="Wertungsliste: Standard", club="Schachklub Donaustadt",
                     lines=["Gültig ab 01.07.2026", "", "Verein: SV Gäste"], columns=COLUMNS, rows=rows,
                     page_text="Seite %(page)d von %(pages)d", **kwargs)


def test_every_page_carries_the_running_header_and_its_number():
    rows = [[str(i), f"Spieler {i:03d}, Anna", str(2000 - i)] for i in range(1, 121)]
    pages = _pages(_pdf(rows))
    assert len(pages) == 3
    for number, text in enumerate(pages, start=1):
        assert "Schachklub Donaustadt · Wertungsliste: Standard" in text
        assert "Gültig ab 01.07.2026 · Verein: SV Gäste" in text
        assert f"Seite {number} von 3" in text
        assert "Rang" in text and "Wertung" in text  # the column header repeats
    every = "\n".join(pages)
    assert all(f"Spieler {i:03d}, Anna" in every for i in range(1, 121))
    assert pages[0].index("Spieler 001") < pages[0].index("Spieler 002")
    assert "Spieler 120" in pages[2] and "Spieler 120" not in pages[1]


def test_names_outside_latin_1_and_italic_cells_are_written():
    pages = _pages(_pdf([["1", "Ivančić, Łukasz", Italic("1830")]], note="Live-Wertungen sind vorläufig."))
    assert len(pages) == 1
    assert "Ivančić, Łukasz" in pages[0] and "1830" in pages[0]
    assert "Live-Wertungen sind vorläufig." in pages[0]


def test_a_text_wider_than_its_column_is_printed_in_full_never_cut():
    """The published list's names and clubs are official: a smaller font, then two lines."""
    columns = [Column("Rang", numeric=True), Column("Name", shrinks=True), Column("Verein", shrinks=True),
               *(Column(f"Spalte {i}", numeric=True) for i in range(8))]
    name, club = "Egger-Hochleitner, Maximilian Alexander", "Schachklub Donaustadt-Floridsdorf 1923"
    rows = [["1", name, club, *["1500"] * 8]] + [[str(i), "Berger, Anna", "SK Donaustadt", *["1500"] * 8]
                                                for i in range(2, 80)]
    pages = _pages(table_pdf(title="T", club="C", lines=[], columns=columns, rows=rows))
    text = " ".join("\n".join(pages).split())
    assert "…" not in text
    # The club wraps after its hyphen (read back with a space there); the name fits smaller.
    assert (f"1 {name} Schachklub Donaustadt- Floridsdorf 1923 {' '.join(['1500'] * 8)} "
            "2 Berger, Anna SK Donaustadt") in text
    assert club.replace("-", "- ") in text
    # A text too long for even two lines of its column is printed smaller still, whole.
    long_name = "Sehr-Langer-Doppelname " * 20
    text = " ".join(_pages(_pdf([["1", long_name, "1500"]]))[0].split())
    assert "…" not in text and long_name.strip() in text


def test_an_empty_table_is_one_page_with_its_header():
    pages = _pages(_pdf([]))
    assert len(pages) == 1 and "Seite 1 von 1" in pages[0] and "Rang" in pages[0]


def test_the_note_gets_a_page_of_its_own_when_the_last_page_is_full():
    full = [[str(i), f"Spieler {i}", "1500"] for i in range(1, 200)]

    def pages_for(n: int) -> list[str]:
        return _pages(_pdf(full[:n], note="NOTIZ"))

    counts = set()
    for wanted in (2, 3):
        # The fewest rows that, with the note, need ``wanted`` pages (the count grows with the
        # rows): one row less fills the page before exactly, the note included.
        low, high = 40, 120
        while low < high:
            middle = (low + high) // 2
            low, high = (middle + 1, high) if len(pages_for(middle)) < wanted else (low, middle)
        for n in (low - 1, low):
            pages = pages_for(n)
            assert f"Seite {len(pages)} von {len(pages)}" in pages[-1] and "NOTIZ" in pages[-1]
            counts.add(len(pages))
    assert counts == {1, 2, 3}


WIDTHS_IN_A_PROCESS = """
from clubrating.core.table_pdf import Column, _widths
names = [f"{a}{b}{c}er, Max" for a in "WiMl" for b in "aoWi" for c in "lmnW"]
rows = [[str(i), name, "SK " + name[:3], "1800"] for i, name in enumerate(names, start=1)]
print(_widths([Column("Rang", numeric=True), Column("Name", shrinks=True), Column("Verein", shrinks=True),
               Column("Wertung", numeric=True)], rows, 200.0))
"""


def test_the_columns_are_as_wide_in_every_process():
    """Many names of one length sharing the room of two columns that give way: the widths do not
    follow the order Python happens to keep a set in (its hash seed differs from process to
    process), so a list prints alike every time."""
    import os
    import subprocess
    import sys

    widths = {
        subprocess.run([sys.executable, "-c", WIDTHS_IN_A_PROCESS], capture_output=True, text=True,
                       check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
        for seed in (1, 2, 3, 4, 5)
    }
    assert len(widths) == 1, widths
