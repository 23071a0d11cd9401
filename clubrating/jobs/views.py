"""A background job's page: state, progress (polled by htmx every 2 s while it runs), who
started it, and its result, report, file or translated error."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubrating.core.downloads import attachment
from clubrating.core.errors import Refused
from clubrating.core.permissions import can_view_ratings, is_official, is_rating_officer

from .models import Job, JobState
from .services import job_start, jobs_fail_stale


def _may_manage(user, job: Job) -> bool:
    return user.is_authenticated and (
        job.started_by_id == user.pk or user.is_staff or is_rating_officer(user) or is_official(user)
    )


def _job_for(request, pk: int) -> Job:
    job = get_object_or_404(Job.objects.select_related("started_by").defer("output"), pk=pk)
    if job.state == JobState.RUNNING and jobs_fail_stale(key=job.key):
        job.refresh_from_db()  # its worker died: shown as failed, to be started again
    user = request.user
    if job.public and can_view_ratings(user):
        return job
    if not user.is_authenticated:
        raise _LoginFirst
    if not _may_manage(user, job):
        raise PermissionDenied
    return job


def _context(request, job: Job) -> dict:
    return {"job": job, "may_restart": job.state == JobState.FAILED and _may_manage(request.user, job)}


class _LoginFirst(Exception):
    pass


def _guarded(view):
    """Visitors who may not see a job are sent to the login page (they may have an account)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _LoginFirst:
            return redirect_to_login(request.get_full_path())

    return wrapped


@_guarded
def job_detail(request, pk):
    return render(request, "jobs/detail.html", _context(request, _job_for(request, pk)))


@_guarded
def job_status(request, pk):
    """The status block alone, for htmx polling; it stops polling once the job has finished."""
    return render(request, "jobs/_status.html", _context(request, _job_for(request, pk)))


@_guarded
def job_output(request, pk):
    job = _job_for(request, pk)
    output = Job.objects.filter(pk=job.pk).values_list("output", flat=True).first()
    if output is None:
        raise Http404
    response = HttpResponse(bytes(output), content_type=job.output_type or "application/octet-stream")
    response["Content-Disposition"] = attachment(job.output_name)
    return response


@require_POST
@_guarded
def job_restart(request, pk):
    """Start a failed job again with the same work (for example after its worker died)."""
    job = _job_for(request, pk)
    if not (job.state == JobState.FAILED and _may_manage(request.user, job)):
        raise PermissionDenied
    try:
        again = job_start(key=job.key, title=job.title, handler=job.handler, params=job.params,
                          user=request.user, public=job.public)
    except Refused as refusal:
        messages.error(request, str(refusal))
        return redirect("jobs:detail", job.pk)
    return redirect("jobs:detail", again.pk)
