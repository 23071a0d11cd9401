"""The one task of the queue: run a ``Job`` (Django's task framework through the ``django-tasks``
backport; on Django 6 the import becomes ``django.tasks``)."""

from django_tasks import task

from .runner import job_execute


@task()
def job_run(job_id: int) -> str:
    return job_execute(job_id)
