import os

import pytest

# Settings read these at import time; tests never need a real secret.
os.environ.setdefault("CLUBRATING_TESTING", "1")


def pytest_collection_modifyitems(items):
    """Tests marked ``slow`` run first: in a parallel run (pytest-xdist) a long test then overlaps the
    many short ones on the other workers instead of starting last and leaving them idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_terminal_summary(terminalreporter):
    """How many pages each crawl checked (tests/browser/test_site_crawl.py), so that a change that
    makes the crawl reach fewer pages shows."""
    counts = sorted((report.nodeid.rsplit("[", 1)[-1].rstrip("]"), value)
                    for report in terminalreporter.stats.get("passed", [])
                    for name, value in getattr(report, "user_properties", ()) if name == "crawled_pages")
    if counts:
        terminalreporter.write_line("Pages crawled: " + ", ".join(f"{name} {value}" for name, value in counts)
                                    + f"; {sum(value for _name, value in counts)} in all")


def pytest_sessionfinish(session):
    """Django removes an SQLite test database file but not its WAL and shared-memory files (the
    database runs in WAL mode, see settings); remove them too, unless the database is kept."""
    from django.conf import settings

    if not settings.configured:
        return
    database = settings.DATABASES["default"]
    name = database.get("TEST", {}).get("NAME")
    if database["ENGINE"] != "django.db.backends.sqlite3" or not name or os.path.exists(name):
        return
    for suffix in ("-wal", "-shm", "-journal"):
        if os.path.exists(name + suffix):
            os.remove(name + suffix)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: cached pages must not leak between tests."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _site_language():
    """Every test starts in the site's default language (German). A request made with the English
    language cookie leaves English active in the thread that served it (the middleware keeps it
    for streamed responses), and the next test on the same worker would otherwise inherit it."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
