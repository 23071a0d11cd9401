"""Applying a national list in the background: one transaction, with progress on the job's page.
One national list import at a time (the key ``national-list-import``). The file travels as the
job's upload and is deleted when the job ends; applying it again changes nothing."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import is_rating_officer
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start

from .services import national_file_read, national_list_import

KEY = "national-list-import"
REPORT_TEMPLATE = "national_list/_report.html"


@job_kind(may_run=is_rating_officer, restartable=False, takes_user=True)
def national_list_apply_run(*, progress: Progress, upload: str, name: str, columns: dict,
                            list_date: str, user=None) -> Outcome:
    report = national_list_import(
        text=upload, columns=columns, list_date=datetime.date.fromisoformat(list_date), file_name=name,
        user=user, progress=progress).plain()
    return Outcome(
        message=report["summary"],
        result_url=reverse("national_list:index"),
        report={**report, "file_name": name, "done": True},
        report_template=REPORT_TEMPLATE,
    )


def national_list_job_start(*, text: str, name: str, columns: dict, list_date: datetime.date,
                            user=None) -> Job:
    """Apply the list as a job. The file is read first, as the import reads it: a file it
    refuses is refused here, and no job stores it."""
    national_file_read(text=text, columns=columns)
    return job_start(
        key=KEY,
        title=_("National list of %(day)s: %(name)s")
        % {"day": date_format(list_date, "SHORT_DATE_FORMAT"), "name": name},
        handler="clubrating.national_list.jobs.national_list_apply_run",
        params={"name": name, "columns": columns, "list_date": list_date.isoformat()},
        upload=text,
        user=user,
    )
