"""FIDE's list in the background: the preview (nothing saved) and the import, each reading the
whole list (1.8 million players) once. The uploaded list waits in the database between the two
(``services.fide_upload_store``), where a worker on any machine reads it, and is deleted when the
import is done. One at a time (the key ``fide-list``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import is_rating_officer
from clubrating.interchange.errors import ImportRefused
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start

from .services import fide_list_import, fide_upload_delete, fide_upload_file, month_parse

KEY = "fide-list"
REPORT = "federation/_fide_report.html"


def _run(*, progress: Progress, token: str, name: str, month: str, apply: bool, user=None) -> Outcome:
    try:
        with fide_upload_file(token) as path:
            report = fide_list_import(path=path, month=month_parse(month), file_name=name,
                                      apply=apply, user=user, progress=progress)
    except ImportRefused:
        fide_upload_delete(token)  # a list refused once is refused again: it is uploaded anew
        raise
    if apply:
        fide_upload_delete(token)
    plain = report.plain()
    return Outcome(message=plain["summary"], report={**plain, "token": token},
                   result_url=reverse("federation:fide_lookup") if apply else "", report_template=REPORT)


def _upload_page(params: dict) -> str:
    return reverse("federation:fide_import")


@job_kind(may_run=is_rating_officer, restartable=False, again_url=_upload_page)
def fide_preview_run(*, progress: Progress, token: str, name: str, month: str) -> Outcome:
    return _run(progress=progress, token=token, name=name, month=month, apply=False)


@job_kind(may_run=is_rating_officer, restartable=False, takes_user=True, again_url=_upload_page)
def fide_import_run(*, progress: Progress, token: str, name: str, month: str, user=None) -> Outcome:
    return _run(progress=progress, token=token, name=name, month=month, apply=True, user=user)


def fide_job_start(*, token: str, name: str, month: str, preview: bool, user=None) -> Job:
    title = _("FIDE list preview: %(name)s") if preview else _("FIDE list import: %(name)s")
    step = "fide_preview_run" if preview else "fide_import_run"
    return job_start(key=KEY, title=title % {"name": name}, handler=f"clubrating.federation.jobs.{step}",
                     params={"token": token, "name": name, "month": month}, user=user)
