"""Previews: run the very service that confirming runs, then roll everything back.

What a preview shows is then exactly what confirming saves. The result must be plain data (the
services' reports are), since the rows it was read from are gone after the rollback.

Every import page follows the same three steps, implemented once in ``upload_preview_confirm``:
upload (the form), preview (a dry run, the file waiting in the session), confirm (the real run,
or a background job for a large file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

__all__ = ["Background", "dry_run", "upload_preview_confirm"]

T = TypeVar("T")


class _RollBack(Exception):
    """Raised to roll a preview's transaction back."""


def dry_run(action: Callable[[], T]) -> T:
    """Run ``action()`` in a transaction that is rolled back; returns its result."""
    outcome = None
    try:
        with transaction.atomic():
            outcome = action()
            raise _RollBack
    except _RollBack:
        pass
    return outcome


@dataclass(frozen=True)
class Background:
    """Large files are previewed and imported as jobs: ``wanted(pending)`` says whether, the two
    callables start the jobs (``(pending, user) -> Job``)."""

    wanted: Callable[[dict], bool]
    preview: Callable[[dict, Any], Any]
    run: Callable[[dict, Any], Any]


def upload_preview_confirm(
    request, *, form, session_key: str, pending: Callable[[Any], dict], run: Callable[[dict], dict],
    form_template: str, report_template: str, restart_url: str, context: dict | None = None,
    background: Background | None = None, announce: bool = False,
):
    """The upload → preview → confirm page of an import.

    ``form`` is the bound upload form (unbound on GET); ``pending(form)`` is what waits in the
    session between preview and confirmation (JSON-able, with the file's ``name`` and ``text``);
    ``run(pending)`` imports it and returns the plain report, raising ``Refused``. The report page
    gets ``report`` and ``done`` (False in the preview; also ``report.done``, as a background
    job's report carries it); ``announce`` also shows the summary as a
    message after confirming."""
    context = dict(context or {})
    if request.method == "POST" and request.POST.get("confirm"):
        waiting = request.session.get(session_key)
        if not waiting:
            messages.error(request, _("Nothing to import: upload the file again."))
            return redirect(restart_url)
        try:
            if background is not None and background.wanted(waiting):
                job = background.run(waiting, request.user)
                del request.session[session_key]
                return redirect("jobs:detail", job.pk)
            report = run(waiting)
        except Refused as error:
            del request.session[session_key]  # the data changed since the preview: start again
            messages.error(request, str(error))
            return redirect(restart_url)
        del request.session[session_key]
        if announce:
            messages.success(request, report["summary"])
        return render(request, report_template, {**context, "report": {**report, "done": True}, "done": True})
    if request.method == "POST" and form.is_valid():
        waiting = pending(form)
        try:
            if background is not None and background.wanted(waiting):
                job = background.preview(waiting, request.user)
                request.session[session_key] = waiting
                return redirect("jobs:detail", job.pk)
            report = dry_run(lambda: run(waiting))
        except Refused as error:
            form.add_error("file", str(error))
        else:
            request.session[session_key] = waiting
            return render(request, report_template, {
                **context, "report": {**report, "done": False}, "done": False,
                "file_name": waiting.get("name", ""),
            })
    return render(request, form_template, {**context, "form": form})
