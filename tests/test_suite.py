"""The test suite's own rules: CI runs the whole suite on PostgreSQL and only the tests marked
``db_specific`` on SQLite too (.ci/run), so a test module that asks which database runs, or starts
worker processes on the test database, must carry the marker."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Helpers whose behaviour depends on the database: worker processes on the test database.
DATABASE_HELPERS = {"tests.jobs.workers", "tests.jobs.handlers"}


def asks_the_database(source: str) -> bool:
    """Whether a module asks ``connection.vendor`` or uses a helper that depends on the database."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "vendor":
            return True
        if isinstance(node, ast.ImportFrom) and node.module in DATABASE_HELPERS:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                node.value.startswith(helper + ".") for helper in DATABASE_HELPERS):
            return True
    return False


def test_every_module_that_depends_on_the_database_is_marked():
    unmarked = sorted(
        str(path.relative_to(TESTS)) for path in TESTS.rglob("test_*.py")
        if asks_the_database(source := path.read_text(encoding="utf-8"))
        and "pytest.mark.db_specific" not in source
    )
    assert unmarked == []


def test_the_check_finds_a_vendor_test_a_worker_and_a_handler():
    assert asks_the_database("if connection.vendor == 'sqlite':\n    pass\n")
    assert asks_the_database("from tests.jobs.workers import worker\n")
    assert asks_the_database("job_start(handler='tests.jobs.handlers.look')\n")
    assert not asks_the_database("from tests.factories import MemberFactory\nvendor = 1\n")


def test_every_script_that_chooses_by_width_follows_a_resize():
    """The crawl (tests/crawl.py) loads a page once and resizes it to each width: a script that reads
    the width when the page loads must follow its change too, or the narrow visit would check a
    page no phone shows."""
    scripts = sorted((TESTS.parent / "static" / "js").glob("*.js"))
    assert scripts
    reads = {path.name for path in scripts
             if any(word in path.read_text(encoding="utf-8") for word in ("matchMedia", "innerWidth"))}
    follow = {path.name for path in scripts
              if 'addEventListener("change"' in (text := path.read_text(encoding="utf-8"))
              or 'addEventListener("resize"' in text}
    assert reads == {"site.js", "result-entry.js"}
    assert reads <= follow, reads - follow
