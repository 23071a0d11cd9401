"""A background job's page: state, progress (polled by htmx every 2 s while it runs), who
started it, and its result, report, file or translated error."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from clubrating.core.pdf import safe_filename
from clubrating.core.permissions import can_view_ratings, is_official, is_rating_officer

from .models import Job


def _job_for(request, pk: int) -> Job:
    job = get_object_or_404(Job.objects.select_related("started_by").defer("output"), pk=pk)
    user = request.user
    if job.public and can_view_ratings(user):
        return job
    if not user.is_authenticated:
        raise _LoginFirst
    if not (job.started_by_id == user.pk or user.is_staff or is_rating_officer(user) or is_official(user)):
        raise PermissionDenied
    return job


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
    return render(request, "jobs/detail.html", {"job": _job_for(request, pk)})


@_guarded
def job_status(request, pk):
    """The status block alone, for htmx polling; it stops polling once the job has finished."""
    return render(request, "jobs/_status.html", {"job": _job_for(request, pk)})


@_guarded
def job_output(request, pk):
    job = _job_for(request, pk)
    output = Job.objects.filter(pk=job.pk).values_list("output", flat=True).first()
    if output is None:
        raise Http404
    response = HttpResponse(bytes(output), content_type=job.output_type or "application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(job.output_name)}"'
    return response
