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

from clubrating.accounts.permissions import is_official, is_official_or_staff
from clubrating.core.preview import dry_run
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start

from .members_import import members_file_check, members_import_csv

KEY = "members-import"


def _members_page(params: dict) -> str:
    return reverse("interchange:members_import")


def _pgn_page(params: dict) -> str:
    return reverse("interchange:pgn_import")


@job_kind(may_run=is_official_or_staff, restartable=False, again_url=_members_page)
def members_preview_run(*, progress: Progress, upload: str, name: str) -> Outcome:
    report = dry_run(lambda: members_import_csv(text=upload, progress=progress).plain())
    return Outcome(
        message=report["preview"],
        report={**report, "file_name": name, "done": False},
        report_template="interchange/_members_job_report.html",
    )


@job_kind(may_run=is_official_or_staff, restartable=False, again_url=_members_page)
def members_import_run(*, progress: Progress, upload: str, name: str) -> Outcome:
    report = members_import_csv(text=upload, progress=progress).plain()
    return Outcome(
        message=report["summary"],
        result_url=reverse("clubs:member_list"),
        report={**report, "file_name": name, "done": True},
        report_template="interchange/_members_job_report.html",
    )


def members_job_start(*, text: str, name: str, preview: bool, user=None) -> Job:
    """The preview (a dry run) or the import of a member file as a job. The file is checked
    first, as the import checks it: a file it refuses is refused here, and no job stores it."""
    members_file_check(text=text)
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


# ---- large PGN files
# Above ``settings.BACKGROUND_IMPORT_BYTES`` a PGN file (5 MB: some 30 s of reading and saving) is
# previewed and imported as a job, as a member file is (a tournament's TRF file too, rated in its
# pool: ``ratings.jobs``); the file is the job's upload. One at a time: a second would only wait
# for the locks.

PGN_KEY = "pgn-import"


def pgn_run(*, text: str, tournament_pk: int | None, tournament_name: str, user=None) -> dict:
    """Import a PGN file into the chosen tournament (or a new one of that name, or each game's
    Event); the plain report."""
    from clubrating.tournaments.models import Tournament

    from .errors import ImportRefused
    from .pgn_import import games_import_pgn

    tournament = tournament_name or None
    if tournament_pk is not None:
        tournament = Tournament.objects.filter(pk=tournament_pk).first()
        if tournament is None:
            raise ImportRefused(_("The chosen tournament no longer exists; upload the file again."))
    return games_import_pgn(text=text, tournament=tournament, user=user).plain()


def _pgn_outcome(report: dict, name: str, done: bool) -> Outcome:
    return Outcome(message=report["summary" if done else "preview"],
                   report={**report, "file_name": name, "done": done},
                   report_template="interchange/_pgn_job_report.html")


@job_kind(may_run=is_official, restartable=False, takes_user=True, again_url=_pgn_page)
def pgn_preview_run(*, progress: Progress, upload: str, name: str, tournament: int | None,
                    tournament_name: str, user=None) -> Outcome:
    progress(10, _("Reading the games"))
    report = dry_run(lambda: pgn_run(text=upload, tournament_pk=tournament, tournament_name=tournament_name,
                                     user=user))
    return _pgn_outcome(report, name, done=False)


@job_kind(may_run=is_official, restartable=False, takes_user=True, again_url=_pgn_page)
def pgn_import_run(*, progress: Progress, upload: str, name: str, tournament: int | None,
                   tournament_name: str, user=None) -> Outcome:
    progress(10, _("Reading and saving the games"))
    return _pgn_outcome(pgn_run(text=upload, tournament_pk=tournament, tournament_name=tournament_name,
                                user=user), name, done=True)


def pgn_job_start(*, text: str, name: str, tournament: int | None, tournament_name: str, preview: bool,
                  user=None) -> Job:
    title = _("PGN import preview: %(name)s") if preview else _("PGN import: %(name)s")
    step = "pgn_preview_run" if preview else "pgn_import_run"
    return job_start(key=PGN_KEY, title=title % {"name": name}, handler=f"clubrating.interchange.jobs.{step}",
                     params={"name": name, "tournament": tournament, "tournament_name": tournament_name},
                     upload=text, user=user)
