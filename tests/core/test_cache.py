"""The file cache (clubrating/core/cache.py): Django's file cache with zlib's fastest level, each
reading what the other wrote."""

import pickle
import zlib

from django.core.cache.backends.filebased import FileBasedCache

from clubrating.core.cache import LEVEL, FastFileCache
from tests.core.test_settings import _settings

PAGE = "".join(f'<tr><td>{n}</td><td><a href="/members/{n}/">Name {n}</a></td></tr>\n' for n in range(3000))


def _caches(tmp_path):
    return FastFileCache(str(tmp_path), {}), FileBasedCache(str(tmp_path), {})


def test_a_value_is_written_at_the_fast_level_and_read_back(tmp_path):
    fast, _django = _caches(tmp_path)
    fast.set("page", {"html": PAGE}, 60)
    [path] = list(tmp_path.glob("*.djcache"))
    with open(path, "rb") as f:
        pickle.load(f)  # the expiry
        stored = f.read()
    assert stored == zlib.compress(pickle.dumps({"html": PAGE}, pickle.HIGHEST_PROTOCOL), 1)
    assert LEVEL == 1
    assert len(stored) < len(PAGE) // 5
    assert fast.get("page") == {"html": PAGE}


def test_entries_of_either_backend_are_read_by_both(tmp_path):
    fast, django = _caches(tmp_path)
    django.set("old", "written by Django's backend", 60)
    fast.set("new", "written by ours", 60)
    assert fast.get("old") == "written by Django's backend"
    assert django.get("new") == "written by ours"


def test_the_settings_use_it_for_the_file_cache(tmp_path):
    settings = _settings(CLUBRATING_CACHE="file", CLUBRATING_CACHE_DIR=str(tmp_path), DJANGO_DEBUG="1")
    assert settings.CACHES["default"]["BACKEND"] == "clubrating.core.cache.FastFileCache"
    assert settings.CACHES["default"]["LOCATION"] == str(tmp_path)
