"""A background job's page: state, progress (polled by htmx every 5 s while it runs), who
started it, and its result, report, file or translated error.

The pages only read: a running job whose worker died is shown as failed as it is read
(``Job.stale``), and the worker marks it so (``jobs_fail_stale``). Only starting a job again
(POST) writes, and only for who may run its work."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubrating.accounts.permissions import can_view_ratings, is_official, is_rating_officer
from clubrating.core.downloads import attachment
from clubrating.core.errors import Refused

from . import services
from .models import Job
from .services import job_kind_of, job_may_restart, job_stale_message


def _may_manage(user, job: Job) -> bool:
    return user.is_authenticated and (
        job.started_by_id == user.pk or user.is_staff or is_rating_officer(user) or is_official(user)
    )


def _job_for(request, pk: int) -> Job:
    job = get_object_or_404(
        Job.objects.select_related("started_by", "restart_of__started_by").defer("output", "upload"), pk=pk
    )
    user = request.user
    if job.public and can_view_ratings(user):
        return job
    if not user.is_authenticated:
        raise _LoginFirst
    if not _may_manage(user, job):
        raise PermissionDenied
    return job


def _context(request, job: Job) -> dict:
    may_restart = job.failed and job_may_restart(job=job, user=request.user)
    kind = job_kind_of(job) if job.failed and not may_restart else None
    return {
        "job": job,
        "may_restart": may_restart,
        "failure": job_stale_message(job) if job.stale else job.message,
        # A failed job that cannot be started again (its file is gone): the page to upload it anew.
        "again_url": kind.again_url(job.params) if kind is not None and kind.again_url else "",
    }


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
    """Start a failed job again with the same work (for example after its worker died), as a
    new job started by who pressed the button; refused (403) to who may not run that work."""
    job = _job_for(request, pk)
    try:
        again = services.job_restart(job=job, user=request.user)
    except Refused as refusal:
        messages.error(request, str(refusal))
        return redirect("jobs:detail", job.pk)
    return redirect("jobs:detail", again.pk)
