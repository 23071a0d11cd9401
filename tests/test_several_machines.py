"""Two machines on one PostgreSQL: two web servers (gunicorn) and two job workers, each machine
with its own temporary and cache folders, all with the one setting the README gives for several
machines (``CLUBRATING_CACHE=database``). What one machine does, the other shows at once.

PostgreSQL only (several machines cannot share a SQLite file): it runs in the PostgreSQL stage of
``.ci/run`` (``DATABASE_URL`` names a PostgreSQL database) and is skipped on SQLite.
"""

from __future__ import annotations

import datetime
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from clubrating.clubs.models import Club
from clubrating.jobs.models import Job, JobState
from clubrating.jobs.services import job_start
from clubrating.tournaments.models import Result
from ratings.models import PublishedList
from ratings.services import game_record_result, period_close
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.jobs.workers import ROOT, _database_url
from tests.paths import FIDE_DIR
from tests.ratings.factories import make_pool, publish_start_list

POSTGRESQL = (os.environ.get("DATABASE_URL") or "").startswith(("postgres://", "postgresql://"))
pytestmark = [
    pytest.mark.slow,
    pytest.mark.db_specific,
    pytest.mark.skipif(not POSTGRESQL, reason="several machines share one PostgreSQL database: "
                                               "runs where DATABASE_URL names one (.ci/run)"),
    pytest.mark.django_db(transaction=True),
]

DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                              "LOCATION": "clubrating_cache"}}
RATE_LIMIT = 6
LOCKOUT_AFTER = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Machine:
    """One machine: a web server and a worker with folders of their own."""

    def __init__(self, name: str, folder):
        self.name, self.port = name, _free_port()
        (folder / "tmp").mkdir(parents=True)
        self.env = {
            **os.environ, "DATABASE_URL": _database_url(), "DJANGO_SETTINGS_MODULE": "clubrating.settings",
            "CLUBRATING_TESTING": "1", "CLUBRATING_CACHE": "database", "CLUBRATING_TASK_BACKEND": "database",
            "CLUBRATING_CACHE_DIR": str(folder / "cache"), "TMPDIR": str(folder / "tmp"),
            "CLUBRATING_API_RATE_LIMIT": f"{RATE_LIMIT}/min", "DJANGO_AXES_FAILURE_LIMIT": str(LOCKOUT_AFTER),
            "DATABASE_CONN_MAX_AGE": "0",
        }
        self.processes: list[subprocess.Popen] = []
        self.log = folder / "log"

    def _start(self, *command) -> subprocess.Popen:
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=self.log.open("ab"),
                                   stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def serve(self) -> None:
        self._start(sys.executable, "-m", "gunicorn", "clubrating.wsgi", "--bind", f"127.0.0.1:{self.port}",
                    "--workers", "1", "--timeout", "120")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.3)
        raise AssertionError(f"{self.name}'s server did not start: {self.log.read_text()[-2000:]}")

    def work(self) -> None:
        self._start(sys.executable, "manage.py", "jobs_worker", "--interval", "0.2", "--no-startup-delay",
                    "--no-reload", "--worker-id", f"worker-{self.name}")

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class Browser:
    """A visitor's browser: cookies (session, CSRF) per site, as a browser keeps them."""

    def __init__(self, machine: Machine):
        self.base = f"http://127.0.0.1:{machine.port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  _NoRedirect())

    def on(self, machine: Machine) -> Browser:
        """The same visitor on the other machine (behind one proxy: one site, one cookie jar)."""
        other = Browser(machine)
        for cookie in self.jar:
            other.jar.set_cookie(cookie)
        return other

    def request(self, path, data=None, headers=None, content_type=None):
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        if content_type:
            request.add_header("Content-Type", content_type)
        if data is not None:
            request.add_header("X-CSRFToken", self._csrf())
            request.add_header("Referer", self.base + path)
        try:
            response = self.opener.open(request, timeout=60)
        except urllib.error.HTTPError as error:
            response = error
        body = response.read()
        return response.status, response.headers, body.decode("utf-8", "replace")

    def get(self, path, **headers):
        return self.request(path, headers=headers)

    def post(self, path, fields: dict, files: dict | None = None):
        self.get(path)  # the form page sets the CSRF cookie
        fields = {**fields, "csrfmiddlewaretoken": self._csrf()}
        if not files:
            return self.request(path, urllib.parse.urlencode(fields).encode(),
                                content_type="application/x-www-form-urlencoded")
        boundary = uuid.uuid4().hex
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                 for k, v in fields.items()]
        for name, (file_name, content) in files.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                         f'filename="{file_name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
                         + content + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        return self.request(path, b"".join(parts), content_type=f"multipart/form-data; boundary={boundary}")

    def login(self, username, password):
        return self.post("/accounts/login/", {"username": username, "password": password})

    def _csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == settings.CSRF_COOKIE_NAME), "")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _user(username, group):
    user = User.objects.create_user(username, password=f"pw-{username}")
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def _wait(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.3)
    raise AssertionError("not within a minute")


@pytest.fixture
def club():
    """A club with a published list, an open period with a played game and one without result."""
    with override_settings(CACHES=DATABASE_CACHE):
        call_command("createcachetable")
    home = Club.objects.create(name="Schachklub Donaustadt", short_name="SK Donaustadt", is_home=True,
                               public_ratings=True)
    anna = MemberFactory(first_name="Anna", last_name="Berger", club=home)
    bernd = MemberFactory(first_name="Bernd", last_name="Huber", club=home)
    pool = make_pool(name="Standard", start=datetime.date(2026, 1, 1))
    publish_start_list(pool, {anna: (1830, 10), bernd: (1980, 50)})
    spring = TournamentFactory(name="Frühjahrsturnier 2026", start_date=datetime.date(2026, 3, 1))
    game = GameFactory(round=RoundFactory(tournament=spring, number=1), board=1, white=anna, black=bernd,
                       result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.DRAW)
    plist = period_close(pool=pool)
    autumn = TournamentFactory(name="Herbstturnier 2026", start_date=datetime.date(2026, 9, 1))
    open_game = GameFactory(round=RoundFactory(tournament=autumn, number=1), board=1, white=anna, black=bernd,
                            result=Result.NOT_PLAYED)
    _user("official", settings.OFFICIALS_GROUP)
    _user("officer", settings.RATING_OFFICERS_GROUP)
    return {"pool": pool, "list": plist, "game": open_game, "anna": anna}


@pytest.fixture
def machines(tmp_path):
    pair = [Machine("a", tmp_path / "a"), Machine("b", tmp_path / "b")]
    try:
        yield pair
    finally:
        for machine in pair:
            machine.stop()
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM clubrating_cache")


def _live_row(body: str, name: str) -> str:
    row = next(r for r in re.findall(r"<tr.*?</tr>", body, re.S) if name in r)
    return re.sub(r"<[^>]+>|\s+", " ", row).strip()


def test_two_machines_share_saves_uploads_withdrawals_limits_and_jobs(club, machines):
    a, b = machines
    a.serve()
    b.serve()
    b.work()  # only B's worker for now: the upload on A must be read there

    # A save on A shows on B at once (B had the live list in its cache).
    live = f"/ratings/pools/{club['pool'].pk}/live/"
    official_a = Browser(a)
    official_a.login("official", "pw-official")
    status, _headers, before = official_a.on(b).get(live)
    assert status == 200 and "Berger, Anna" in before
    game = club["game"]
    status, _headers, _body = official_a.post(
        f"/tournaments/{game.round.tournament_id}/round/1/results/{game.pk}/", {"result": "1-0", "seen": ""})
    assert status in (200, 302)
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS
    status, _headers, after = official_a.on(b).get(live)
    assert _live_row(after, "Berger, Anna") != _live_row(before, "Berger, Anna")
    assert "+" in _live_row(after, "Berger, Anna")

    # An upload on A is read by B's worker (A's temporary folder is not B's).
    officer_a = Browser(a)
    officer_a.login("officer", "pw-officer")
    status, headers, _body = officer_a.post(
        "/federation/fide/import/", {"month": "2026-11"},
        files={"file": ("players_list_foa.txt", (FIDE_DIR / "players_list_foa.txt").read_bytes())})
    assert status == 302, _body[:500]
    job = Job.objects.get(key="fide-list")
    _wait(lambda: Job.objects.get(pk=job.pk).state in (JobState.DONE, JobState.FAILED))
    job.refresh_from_db()
    assert (job.state, job.message.split(":")[0]) == (JobState.DONE, "FIDE-Liste 2026-11"), job.message
    assert DBTaskResult.objects.get(args_kwargs__args=[job.pk]).worker_ids == ["worker-b"]

    # A reopening on A withdraws the list on B, also for a browser that kept it from B.
    url = f"/ratings/lists/{club['list'].pk}/"
    status, kept, body = officer_a.on(b).get(url)
    assert status == 200 and "Zurückgezogen" not in body
    status, _headers, _body = officer_a.post(f"/ratings/officer/periods/{club['list'].period_id}/reopen/",
                                             {"reason": "Korrektur"})
    assert status == 302
    assert PublishedList.objects.get(pk=club["list"].pk).withdrawn
    status, _headers, body = officer_a.on(b).get(url, **{"If-None-Match": kept["ETag"],
                                                         "If-Modified-Since": kept["Last-Modified"]})
    assert status == 200
    assert "Zurückgezogen: Die Periode wurde wieder geöffnet; diese Liste ist nicht gültig." in body

    # The API's rate limit counts the requests to both machines.
    visitor = {a.name: Browser(a), b.name: Browser(b)}
    statuses = [visitor[m.name].get("/api/v1/pools")[0] for m in (a, b) * RATE_LIMIT]
    assert statuses == [200] * RATE_LIMIT + [429] * RATE_LIMIT

    # So does the login lockout: wrong passwords on A and on B lock the login on both.
    # (The attempt that reaches the limit is answered with the lockout already.)
    statuses = [Browser(machine).login("official", "wrong")[0] for machine in (a, b, a)]
    assert statuses == [200] * (LOCKOUT_AFTER - 1) + [429]
    for machine in (a, b):
        status, _headers, body = Browser(machine).login("official", "pw-official")
        assert status == 429 and "Anmeldung gesperrt" in body, machine.name

    # Each job runs once, with both workers taking jobs from the one queue.
    a.work()
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        jobs = [job_start(key=f"mark-{i}", title=f"Mark {i}", handler="tests.jobs.handlers.mark",
                          params={"name": f"Markierung {i}"}) for i in range(12)]
    _wait(lambda: Job.objects.filter(pk__in=[j.pk for j in jobs], state=JobState.DONE).count() == 12)
    marks = Club.objects.filter(name__startswith="Markierung ").values_list("name", flat=True)
    assert sorted(marks) == sorted(f"Markierung {i}" for i in range(12))
    rows = DBTaskResult.objects.filter(args_kwargs__args__0__in=[j.pk for j in jobs])
    runs = [row.worker_ids for row in rows]
    assert len(runs) == 12 and all(len(ids) == 1 for ids in runs)  # no job was taken twice
