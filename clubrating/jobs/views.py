"""A background job's page: state, progress (polled by htmx every 2 s while it runs), who
started it, and its result, report, file or translated error."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from clubrating.core.pdf import safe_filename
from clubrating.core.permissions import is_official, is_rating_officer

from .models import Job


def _job_for(request, pk: int) -> Job:
    job = get_object_or_404(Job.objects.select_related("started_by").defer("output"), pk=pk)
    user = request.user
    if not (job.started_by_id == user.pk or user.is_staff or is_rating_officer(user) or is_official(user)):
        raise PermissionDenied
    return job


@login_required
def job_detail(request, pk):
    return render(request, "jobs/detail.html", {"job": _job_for(request, pk)})


@login_required
def job_status(request, pk):
    """The status block alone, for htmx polling; it stops polling once the job has finished."""
    return render(request, "jobs/_status.html", {"job": _job_for(request, pk)})


@login_required
def job_output(request, pk):
    job = _job_for(request, pk)
    output = Job.objects.filter(pk=job.pk).values_list("output", flat=True).first()
    if output is None:
        raise Http404
    response = HttpResponse(bytes(output), content_type=job.output_type or "application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(job.output_name)}"'
    return response
