import os

# Settings read these at import time; tests never need a real secret.
os.environ.setdefault("CLUBRATING_TESTING", "1")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache: cached pages must not leak between tests."""
    from django.core.cache import cache

    cache.clear()
    yield
