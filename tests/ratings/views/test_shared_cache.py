"""The shared caches of the settings (file and database): a result saved in one server process
invalidates the live list another process has cached. Each process has its own cache client;
here two clients on one location stand for two gunicorn workers. The save commits (as a
request's does): its bump reaches the shared cache when it commits."""

from unittest import mock

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.factories import GameFactory, RoundFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _backends(tmp_path):
    return {
        "file": {"BACKEND": "clubrating.core.cache.FastFileCache",
                 "LOCATION": str(tmp_path / "cache")},
        "database": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                     "LOCATION": "clubrating_cache_test"},
    }


@pytest.mark.parametrize("backend", ["file", "database"])
def test_a_result_saved_by_another_process_invalidates_the_cached_live_list(client, rated_club, tmp_path,
                                                                            backend):
    config = _backends(tmp_path)[backend]
    with override_settings(CACHES={"default": config, "worker2": config}):
        if backend == "database":
            call_command("createcachetable", verbosity=0)
        url = reverse("ratings:live", args=[rated_club["pool"].pk])
        first = client.get(url)  # worker 1 caches the table and the pool's version
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        worker2 = caches["worker2"]
        assert worker2 is not caches["default"]
        game = GameFactory(round=RoundFactory(tournament=rated_club["autumn"], number=2), board=1,
                           white=rated_club["bernd"], black=rated_club["dora"], result=Result.NOT_PLAYED)
        with mock.patch("ratings.services.cache.cache", worker2):
            game_record_result(game=game, result=Result.BLACK_WINS)  # saved in worker 2
        changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])  # read in worker 1
        assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
        assert "−" in changed.content.decode().split("Huber, Bernd", 1)[1].split("</tr>", 1)[0]


def test_a_cache_of_its_own_per_client_would_not_see_the_change(client, rated_club):
    """The control: two separate memory caches (one per process) keep the stale page."""
    memory = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    separate = {"default": {**memory, "LOCATION": "a"}, "worker2": {**memory, "LOCATION": "b"}}
    with override_settings(CACHES=separate):
        url = reverse("ratings:live", args=[rated_club["pool"].pk])
        first = client.get(url)
        game = GameFactory(round=RoundFactory(tournament=rated_club["autumn"], number=2), board=1,
                           white=rated_club["bernd"], black=rated_club["dora"], result=Result.NOT_PLAYED)
        with mock.patch("ratings.services.cache.cache", caches["worker2"]):
            game_record_result(game=game, result=Result.BLACK_WINS)
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
