"""A worker killed (SIGKILL) after a period's close committed, before it marked the job done;
the job is started again: exactly one period closed, one list published, and the task queue's
rows of both jobs end in a final state. Real worker processes on the test database."""

import datetime

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from clubrating.jobs.models import Job, JobState
from ratings.models import PeriodState, PublishedList, RatingPeriod
from ratings.services.pools import open_period
from tests.jobs.workers import DATABASE_QUEUE, KILLED_AFTER_THE_WORK, worker
from tests.ratings.factories import set_today

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.db_specific]

AFTER_THE_PERIOD = datetime.date(2027, 1, 4)


def _closed(pool) -> list[datetime.date]:
    return list(RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).order_by("start")
                .values_list("start", flat=True))


@override_settings(TASKS=DATABASE_QUEUE, BACKGROUND_POOL_MEMBERS=3)
def test_a_close_job_whose_worker_was_killed_after_the_close_closes_once(client, rated_club, officer,
                                                                        monkeypatch):
    set_today(monkeypatch, AFTER_THE_PERIOD)  # the period 1.7.–31.12.2026 has ended
    pool = rated_club["pool"]
    period = open_period(pool)
    lists = PublishedList.objects.count()
    client.force_login(officer)
    client.post(reverse("ratings:period_close", args=[period.pk]))
    job = Job.objects.get()
    assert job.state == JobState.QUEUED

    killed = worker(script=KILLED_AFTER_THE_WORK, today=AFTER_THE_PERIOD)
    output = killed.communicate(timeout=120)[0].decode()
    assert killed.returncode == -9, output
    job.refresh_from_db()
    assert job.state == JobState.RUNNING  # the close committed, the job was not marked done
    assert _closed(pool) == [datetime.date(2026, 1, 1), datetime.date(2026, 7, 1)]
    assert DBTaskResult.objects.get().status == TaskResultStatus.RUNNING

    # Its sign of life stops; once silent long enough, the job is shown failed and started again.
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=long_ago)
    response = client.post(reverse("jobs:restart", args=[job.pk]))
    again = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:detail", args=[again.pk])
    finishing = worker(today=AFTER_THE_PERIOD)
    output = finishing.communicate(timeout=120)[0].decode()
    assert finishing.returncode == 0, output

    again.refresh_from_db()
    job.refresh_from_db()
    assert (job.state, again.state, again.restart_of) == (JobState.FAILED, JobState.DONE, job)
    assert again.message == (
        "Die Periode Standard: 01.07.2026–31.12.2026 war bereits abgeschlossen; nichts wurde geändert.")
    assert _closed(pool) == [datetime.date(2026, 1, 1), datetime.date(2026, 7, 1)]
    assert PublishedList.objects.count() == lists + 1
    plist = PublishedList.objects.latest("pk")
    assert (plist.period_id, again.result_url) == (period.pk, reverse("ratings:list", args=[plist.pk]))
    assert open_period(pool).start == datetime.date(2027, 1, 1)
    rows = {row.args_kwargs["args"][0]: row.status for row in DBTaskResult.objects.all()}
    assert rows == {job.pk: TaskResultStatus.FAILED, again.pk: TaskResultStatus.SUCCESSFUL}
