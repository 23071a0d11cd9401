"""Large member files in the background: the preview (a dry run) and the import itself.

Above ``settings.BACKGROUND_IMPORT_ROWS`` rows both steps run as jobs, because a federation's
member file (10,000 rows) takes longer than a web request may. One member import at a time
(the key ``members-import``). The file travels as the job's upload, deleted when the job ends:
the preview's report stays on its page, the file itself waits in the session until confirmed.
Neither job is started again from its page (the file is gone): the file is uploaded again. A
second import of the same file changes nothing (members are matched, not added again).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import is_official_or_staff
from clubrating.core.preview import dry_run
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start

from .members_import import members_import_csv

KEY = "members-import"


@job_kind(may_run=is_official_or_staff, restartable=False)
def members_preview_run(*, progress: Progress, upload: str, name: str) -> Outcome:
    report = dry_run(lambda: members_import_csv(text=upload, progress=progress).plain())
    return Outcome(
        message=report["preview"],
        report={**report, "file_name": name, "done": False},
        report_template="interchange/_members_job_report.html",
    )


@job_kind(may_run=is_official_or_staff, restartable=False)
def members_import_run(*, progress: Progress, upload: str, name: str) -> Outcome:
    report = members_import_csv(text=upload, progress=progress).plain()
    return Outcome(
        message=report["summary"],
        result_url=reverse("clubs:member_list"),
        report={**report, "file_name": name, "done": True},
        report_template="interchange/_members_job_report.html",
    )


def members_job_start(*, text: str, name: str, preview: bool, user=None) -> Job:
    """The preview (a dry run) or the import of a member file as a job."""
    title = _("Import preview: %(name)s") if preview else _("Member import: %(name)s")
    step = "members_preview_run" if preview else "members_import_run"
    return job_start(
        key=KEY,
        title=title % {"name": name},
        handler=f"clubrating.interchange.jobs.{step}",
        params={"name": name},
        upload=text,
        user=user,
    )
