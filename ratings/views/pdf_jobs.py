"""PDFs of long rating lists as background jobs (a federation's list takes seconds, longer
than a page should keep its reader waiting).

Above ``settings.BACKGROUND_PDF_ROWS`` rows the PDF link leads to a job; the job draws the very
PDF the synchronous link gives (``ratings.lists.faces.list_pdf``), from the same list, filters
and language. One job per distinct PDF (list version, filters, language): a second visitor
asking for the same PDF is sent to the running or finished job and downloads its file, so it is
drawn once.
"""

from __future__ import annotations

from django.http import QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import can_view_ratings
from clubrating.core.errors import Refused
from clubrating.jobs.models import Job, JobState
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start, jobs_fail_stale
from ratings.lists.faces import ListPrivacy, list_pdf, list_source

PDF = "application/pdf"


def pdf_key(etag: str) -> str:
    return "pdf:" + etag.strip('"')


# Draws a file from the list it names, changing nothing: as often as it runs, the same PDF.
@job_kind(may_run=can_view_ratings)
def list_pdf_run(*, progress: Progress, face: str, pk: int, path: str, query: str, full: bool = False,
                 birth_years: bool = False) -> Outcome:
    """``full``, ``birth_years``: what the reader who asked may see (``ratings.lists.faces.ListPrivacy``;
    a job queued without them draws what any visitor may see)."""
    source = list_source(pk, live=face == "live_pdf")
    progress(5, _("Drawing the PDF"))
    name = f"{source.file_stem}.pdf"
    pdf = list_pdf(source, QueryDict(query), ListPrivacy(full=full, birth_years=birth_years))
    return Outcome(message=_("The PDF is ready."), output=pdf, output_name=name, output_type=PDF)


def list_pdf_job(request, *, face: str, pk: int, etag: str, title: str, privacy: ListPrivacy):
    """Redirect to the job drawing this PDF: an existing one (waiting, running or done), else a new one."""
    key = pdf_key(etag)
    jobs_fail_stale(key=key)  # a job whose worker died is drawn anew
    existing = Job.objects.filter(key=key).exclude(state=JobState.FAILED).order_by("-pk").first()
    if existing is None:
        try:
            existing = job_start(
                key=key,
                title=_("PDF: %(title)s") % {"title": title},
                handler="ratings.views.pdf_jobs.list_pdf_run",
                params={"face": face, "pk": pk, "path": request.path, "query": request.GET.urlencode(),
                        "full": privacy.full, "birth_years": privacy.birth_years},
                user=request.user,
                public=True,
            )
        except Refused:  # another visitor started it a moment ago
            existing = Job.objects.filter(key=key).order_by("-pk").first()
    return redirect("jobs:detail", existing.pk)
