"""Pool-wide work as background jobs from the rating officer's pages: recalculation always,
closing and reopening above the pool-size threshold (the tests run jobs at once)."""

import datetime

from django.test import override_settings
from django.urls import reverse

from clubrating.jobs.models import Job, JobState
from ratings.models import ListEntry, PeriodState, PublishedList, RatingRecord
from ratings.services.pools import open_period


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
