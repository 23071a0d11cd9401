"""Pool-wide work as background jobs from the rating officer's pages: recalculation always,
closing and reopening above the pool-size threshold (the tests run jobs at once)."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from clubrating.jobs.models import Job, JobState
from ratings.models import ListEntry, PeriodState, PublishedList, RatingPeriod, RatingRecord
from ratings.services import period_close, period_reopen
from ratings.services.pools import open_period
from tests.ratings.factories import set_today


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared


@pytest.fixture(autouse=True)
def after_the_period(monkeypatch):
    """The open period 1.7.–31.12.2026 has ended: closing it is a regular close."""
    set_today(monkeypatch, datetime.date(2027, 1, 4))


def _job_page(client, response) -> tuple[Job, str]:
    job = Job.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[job.pk])
    return job, client.get(response["Location"]).content.decode()


def test_recalculation_runs_as_a_job_and_shows_who_started_it(client, rated_club, officer):
    client.force_login(officer)
    pool = rated_club["pool"]
    before = sorted(RatingRecord.objects.filter(pool=pool).values_list("member_id", "change"))
    job, html = _job_page(client, client.post(reverse("ratings:recalculate", args=[pool.pk])))
    assert (job.state, job.key, job.started_by) == (JobState.DONE, f"pool:{pool.pk}", officer)
    assert job.message == "4 Wertungsdatensätze von „Standard“ neu berechnet."
    assert sorted(RatingRecord.objects.filter(pool=pool).values_list("member_id", "change")) == before
    assert "Neuberechnung von „Standard“" in html and "Gestartet von officer" in html
    assert f'href="{reverse("ratings:live", args=[pool.pk])}"' in html
    home = client.get(reverse("ratings:officer")).content.decode()
    link = reverse("jobs:detail", args=[job.pk])
    assert f'<a href="{link}">Neuberechnung von „Standard“</a>: erledigt' in home


def test_a_second_pool_job_is_refused_while_one_runs(client, rated_club, officer):
    client.force_login(officer)
    pool = rated_club["pool"]
    Job.objects.create(key=f"pool:{pool.pk}", title="Abschluss", handler="x", started_by=officer)
    response = client.post(reverse("ratings:recalculate", args=[pool.pk]), follow=True)
    assert "„Abschluss“ wartet oder läuft bereits (gestartet von officer, " in response.content.decode()
    assert Job.objects.count() == 1


@override_settings(BACKGROUND_POOL_MEMBERS=3)
def test_closing_and_reopening_a_large_pool_run_as_jobs(client, rated_club, officer, period_ended):
    client.force_login(officer)
    pool = rated_club["pool"]
    period = open_period(pool)
    job, html = _job_page(client, client.post(reverse("ratings:period_close", args=[period.pk])))
    plist = PublishedList.objects.filter(pool=pool).latest("pk")
    assert (job.state, job.result_url) == (JobState.DONE, reverse("ratings:list", args=[plist.pk]))
    assert "Die Periode ist abgeschlossen und die neue Liste veröffentlicht." in html
    assert ListEntry.objects.get(list=plist, member=rated_club["anna"]).rating == 1843
    assert open_period(pool).start == datetime.date(2027, 1, 1)

    response = client.post(reverse("ratings:period_reopen", args=[period.pk]), {"reason": "Tippfehler"})
    job, html = _job_page(client, response)
    period.refresh_from_db()
    assert (job.state, period.state) == (JobState.DONE, PeriodState.OPEN)
    assert period.reopenings.get().reopened_by == officer


@override_settings(BACKGROUND_POOL_MEMBERS=3)
def test_a_refused_close_shows_the_translated_error_on_the_job_page(client, rated_club, officer):
    client.force_login(officer)
    period = open_period(rated_club["pool"])
    # reopening needs a closed period: the service refuses, the job keeps its message
    response = client.post(reverse("ratings:period_reopen", args=[period.pk]), {"reason": "x"})
    job, html = _job_page(client, response)
    refusal = "Nur eine abgeschlossene Periode kann wieder geöffnet werden."
    assert (job.state, job.message) == (JobState.FAILED, refusal)
    assert refusal in html


AN_HOUR_AGO = datetime.timedelta(hours=1)
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _died(handler: str, user, **params) -> Job:
    """A job whose worker died: running, silent for an hour."""
    long_ago = timezone.now() - AN_HOUR_AGO
    return Job.objects.create(
        key=params.pop("key"), title="Abschluss", handler=handler, params=params, started_by=user,
        state=JobState.RUNNING, started_at=long_ago, heartbeat_at=long_ago,
    )


def _closed(pool) -> list[datetime.date]:
    return list(RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).order_by("start")
                .values_list("start", flat=True))


def test_a_close_job_started_again_after_its_close_committed_closes_nothing_more(client, rated_club, officer):
    """The worker died after the close committed, before it marked the job done: started again,
    the job finds its period closed and ends as done; the next period stays open."""
    pool = rated_club["pool"]
    period = open_period(pool)
    job = _died("ratings.jobs.period_close_run", officer, key=f"pool:{pool.pk}", period_id=period.pk)
    plist = period_close(pool=pool, user=officer)  # what the job's worker committed before dying
    lists = PublishedList.objects.count()
    client.force_login(officer)
    again, html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
    assert (again.state, again.restart_of, again.result_url) == (
        JobState.DONE, job, reverse("ratings:list", args=[plist.pk]))
    assert again.message == (
        "Die Periode Standard: 01.07.2026–31.12.2026 war bereits abgeschlossen; nichts wurde geändert.")
    assert _closed(pool) == [datetime.date(2026, 1, 1), datetime.date(2026, 7, 1)]
    assert PublishedList.objects.count() == lists
    assert open_period(pool).start == datetime.date(2027, 1, 1)
    job.refresh_from_db()
    assert job.state == JobState.FAILED


def test_a_close_job_started_again_closes_its_period_as_who_restarted_it(client, rated_club, officer):
    pool = rated_club["pool"]
    period = open_period(pool)
    job = _died("ratings.jobs.period_close_run", officer, key=f"pool:{pool.pk}", period_id=period.pk)
    second = User.objects.create_user("second", password="pw")
    second.groups.add(Group.objects.get(name=settings.RATING_OFFICERS_GROUP))
    client.force_login(second)
    again, html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
    period.refresh_from_db()
    assert (again.state, again.started_by, period.state, period.closed_by) == (
        JobState.DONE, second, PeriodState.CLOSED, second)
    assert PublishedList.objects.filter(period=period).get().published_by == second
    assert "Gestartet von second, " in html and "Startet den Auftrag erneut, den officer am " in html


def test_officials_may_not_start_a_close_job_again(client, rated_club, officer, official):
    pool = rated_club["pool"]
    period = open_period(pool)
    job = _died("ratings.jobs.period_close_run", officer, key=f"pool:{pool.pk}", period_id=period.pk)
    lists = PublishedList.objects.count()
    client.force_login(official)
    html = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert "hx-trigger" not in html and 'id="job-restart"' not in html
    assert client.post(reverse("jobs:restart", args=[job.pk])).status_code == 403
    assert (Job.objects.count(), PublishedList.objects.count()) == (1, lists)
    period.refresh_from_db()
    assert period.state == PeriodState.OPEN


def test_a_close_job_for_a_period_no_longer_open_is_refused(client, rated_club, officer):
    pool = rated_club["pool"]
    period = open_period(pool)
    job = _died("ratings.jobs.period_close_run", officer, key=f"pool:{pool.pk}", period_id=period.pk)
    RatingPeriod.objects.filter(pk=period.pk).update(state=PeriodState.WAITING)
    client.force_login(officer)
    again, html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
    assert (again.state, again.message) == (
        JobState.FAILED,
        "Die Periode Standard: 01.07.2026–31.12.2026 ist nicht offen; nur die offene Periode kann "
        "abgeschlossen werden.")
    assert _closed(pool) == [datetime.date(2026, 1, 1)]


@override_settings(BACKGROUND_POOL_MEMBERS=3)
def test_a_reopen_job_started_again_after_its_reopening_committed_reopens_nothing(
    client, rated_club, officer
):
    pool = rated_club["pool"]
    period = RatingPeriod.objects.get(pool=pool, start=datetime.date(2026, 1, 1))
    client.force_login(officer)
    with override_settings(TASKS=DATABASE_QUEUE):  # queued; its worker will die after reopening
        client.post(reverse("ratings:period_reopen", args=[period.pk]), {"reason": "Tippfehler"})
    job = Job.objects.get()
    period_reopen(period=period, reason="Tippfehler", user=officer)  # what its worker committed
    Job.objects.filter(pk=job.pk).update(state=JobState.RUNNING, started_at=timezone.now() - AN_HOUR_AGO,
                                         heartbeat_at=timezone.now() - AN_HOUR_AGO)
    again, html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
    assert (again.state, again.message) == (
        JobState.DONE,
        "Die Periode Standard: 01.01.2026–30.06.2026 war bereits wieder geöffnet; nichts wurde geändert.")
    assert period.reopenings.count() == 1
    period.refresh_from_db()
    assert period.state == PeriodState.OPEN


def test_a_recalculation_started_again_after_its_worker_died_rebuilds_the_same_records(
    client, rated_club, officer
):
    pool = rated_club["pool"]
    before = sorted(RatingRecord.objects.filter(pool=pool).values_list("member_id", "period_id", "change"))
    job = _died("ratings.jobs.pool_recalculate_run", officer, key=f"pool:{pool.pk}", pool_id=pool.pk)
    client.force_login(officer)
    for _time in range(2):
        again, _html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
        assert (again.state, again.restart_of) == (JobState.DONE, job)
        Job.objects.filter(pk=again.pk).update(state=JobState.FAILED)
    after = sorted(RatingRecord.objects.filter(pool=pool).values_list("member_id", "period_id", "change"))
    assert after == before


def test_a_close_job_queued_with_its_starters_id_still_runs(client, rated_club, officer):
    pool = rated_club["pool"]
    period = open_period(pool)
    job = _died("ratings.jobs.period_close_run", officer, key=f"pool:{pool.pk}", period_id=period.pk,
                user_id=officer.pk)
    client.force_login(officer)
    again, _html = _job_page(client, client.post(reverse("jobs:restart", args=[job.pk])))
    period.refresh_from_db()
    assert (again.state, period.state, period.closed_by) == (JobState.DONE, PeriodState.CLOSED, officer)
