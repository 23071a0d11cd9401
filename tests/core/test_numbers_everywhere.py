"""Numbers reach the pages through the project's ``numbers`` filters only (one format: decimals
by the reader's language, ratings and years never grouped, board points always with their
decimal), never through Django's ``floatformat``, which drops a whole number's decimal ("4" on
one page, "4,0" on another)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_formats_numbers_by_itself():
    found = [str(path.relative_to(ROOT)) for path in (ROOT / "templates").rglob("*.html")
             if "floatformat" in path.read_text()]
    assert found == []
