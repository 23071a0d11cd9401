"""Checking the pairings of a TRF file against the rules, for ``pair_trf --check`` and the officials' page.

Both run ``trf_pairing.check_trf`` (each round re-paired from the rounds before it, the reason for a
difference from ``trf_reasons``) and word its results here, in the active language. On the page the
check runs as a background job: a tournament of 150 players and nine rounds takes minutes. The
uploaded file is the job's upload (in the database, so any worker can run it) and is deleted when
the job ends; the report stays with the job. The check only reads: running it twice gives the same
report and changes nothing.
"""

from __future__ import annotations

import hashlib

from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.accounts.permissions import is_official
from clubrating.core.formatting import points_text
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start
from clubrating.tournaments.pairing import trf_reasons as r
from clubrating.tournaments.pairing.trf_pairing import (
    EDITION_2017,
    EDITION_2026,
    RoundCheck,
    TrfPairingError,
    check_trf,
    file_edition,
)

from .errors import ImportRefused
from .formats.trf import TrfError, TrfTournament, parse_trf
from .refusals import trf_message

__all__ = ["check_report", "pairing_error_message", "reason_text", "rules_label", "trf_check_read",
           "trf_check_run", "trf_check_start"]


def rules_label(edition: str) -> str:
    if edition == EDITION_2017:
        return _("FIDE Dutch system until 31 January 2026")
    return _("FIDE Dutch system from 1 February 2026")


def pairing_error_message(error: TrfPairingError | RoundCheck) -> str:
    """Why a round cannot be paired from the file (a refused ``pair_trf`` or a checked round)."""
    if isinstance(error, RoundCheck):
        code, text, params = error.error_code, error.error, {}
    else:
        code, text, params = error.code, str(error), error.params
    if code == "complete":
        return _("All %(rounds)d rounds of the tournament are paired.") % params
    if code == "unpairable":
        return _("The round cannot be paired: no pairing satisfies the absolute criteria.")
    return _("The file is inconsistent: %(error)s") % {"error": text.split(": ", 1)[-1]}


def _points(tenths: int) -> str:
    return points_text(tenths / 10)


def _scores(values: tuple[int, ...]) -> str:
    return ", ".join(_points(v) for v in values) if values else "–"


def _floaters(value: tuple[int, ...]) -> str:
    count, differences = value[0], value[1:]
    if not count:
        return _("no pair of unequal scores")
    return ngettext("%(count)d pair of unequal scores (difference %(differences)s)",
                    "%(count)d pairs of unequal scores (differences %(differences)s)", count) % {
        "count": count, "differences": _scores(differences)}


# The quality criteria of C.04.3 (2026) by reason code: (criterion, what is compared).
def _criterion(code: str) -> str:
    return {
        r.PAB_SCORE: _("C.04.1: the pairing-allocated bye goes to a player of the lowest score"),
        r.FLOATERS: _("C.5–C.7: the fewest downfloaters, with the smallest score differences"),
        r.PAB_UNPLAYED: _("the PAB to the player with the fewest unplayed games"),
        r.TOPSCORER_DIFFERENCE: _("C.8: topscorers or their opponents with a colour difference above 2"),
        r.TOPSCORER_THREE: _("C.9: topscorers or their opponents with the same colour three times in a row"),
        r.COLOUR_PREFERENCE: _("C.10: players who do not get their colour preference"),
        r.STRONG_PREFERENCE: _("C.11: players who do not get their strong colour preference"),
        r.DOWNFLOAT_AGAIN: _("C.12: players who get a downfloat as in the previous round"),
        r.UPFLOAT_AGAIN: _("C.13: players who get an upfloat as in the previous round"),
        r.DOWNFLOAT_TWO_BEFORE: _("C.14: players who get a downfloat as two rounds before"),
        r.UPFLOAT_TWO_BEFORE: _("C.15: players who get an upfloat as two rounds before"),
        r.DOWNFLOAT_AGAIN_SCORES: _("C.16: scores of players who get a downfloat as in the previous round"),
        r.UPFLOAT_AGAIN_SCORES: _("C.17: scores of the opponents of players who get an upfloat as in the "
                                  "previous round"),
        r.DOWNFLOAT_TWO_BEFORE_SCORES: _("C.18: scores of players who get a downfloat as two rounds before"),
        r.UPFLOAT_TWO_BEFORE_SCORES: _("C.19: scores of the opponents of players who get an upfloat as two "
                                       "rounds before"),
    }[code]


def _value(code: str, value: tuple[int, ...]) -> str:
    if code == r.FLOATERS:
        return _floaters(value)
    if code in (r.PAB_SCORE, r.DOWNFLOAT_AGAIN_SCORES, r.UPFLOAT_AGAIN_SCORES,
                r.DOWNFLOAT_TWO_BEFORE_SCORES, r.UPFLOAT_TWO_BEFORE_SCORES):
        return _("points %(scores)s") % {"scores": _scores(value)} if value else _("none")
    return str(value[0]) if value else _("none")


def reason_text(reason: r.Reason) -> str:
    """Why the file's round is not the rules' round, in words (active language)."""
    p = reason.players
    if reason.code == r.INCOMPLETE:
        return _("The file's pairing is incomplete or names players who are not to be paired in this "
                 "round (players %(players)s).") % {"players": ", ".join(str(n) for n in p)}
    if reason.code == r.MET_BEFORE:
        return _("Absolute criterion C.1 broken: players %(a)d and %(b)d already met in round %(round)d.") % {
            "a": p[0], "b": p[1], "round": reason.rounds[0]}
    if reason.code == r.PAB_INELIGIBLE:
        return _("Absolute criterion C.2 broken: player %(player)d gets the pairing-allocated bye but has "
                 "already had it or already scored a win without playing.") % {"player": p[0]}
    if reason.code == r.ABSOLUTE_COLOUR:
        return _("Absolute criterion C.3 broken: players %(a)d and %(b)d, neither a topscorer, have the "
                 "same absolute colour preference.") % {"a": p[0], "b": p[1]}
    if reason.code == r.COLOUR_ALLOCATION:
        return _("Same pairs, other colours: by colour rule E.%(rule)d player %(white)d gets White "
                 "against %(black)d.") % {"rule": reason.rule, "white": p[0], "black": p[1]}
    if reason.code == r.ORDER:
        return _("Both pairings are equal on every quality criterion; the rules choose the one that comes "
                 "first in the order of transpositions and exchanges.")
    return _("First quality criterion on which they differ: %(criterion)s. The file: %(file)s; by the "
             "rules: %(rules)s.") % {"criterion": _criterion(reason.code),
                                     "file": _value(reason.code, reason.file_value),
                                     "rules": _value(reason.code, reason.rules_value)}


def trf_check_read(text: str) -> TrfTournament:
    """The file, or a translated refusal that says why it cannot be checked."""
    try:
        trf = parse_trf(text)
    except TrfError as error:
        raise ImportRefused(trf_message(error)) from None
    if not [p for p in trf.players if not p.is_dummy]:
        raise ImportRefused(_("The file has no players."))
    return trf


def _board(pair: tuple[int, int], names: dict[int, str]) -> dict:
    white, black = pair
    return {"white": white, "white_name": names.get(white, ""), "black": black,
            "black_name": names.get(black, "") if black else ""}


def check_report(trf: TrfTournament, *, edition: str, progress: Progress | None = None) -> dict:
    """The check as plain data (stored with the job): per round identical or its boards side by side
    (a board published that the rules do not give is marked) and the reason in words."""
    names = {p.start_rank: p.name for p in trf.players}

    def step(done: int, total: int) -> None:
        if progress is not None:
            progress(int(100 * done / max(total, 1)), _("Round %(round)d of %(total)d checked") % {
                "round": done, "total": total})

    rounds = []
    for check in check_trf(trf, edition=edition, progress=step):
        row = {"round": check.round, "identical": check.matches}
        if not check.matches:
            expected = set(check.expected or [])
            played = set(check.played)
            row["file"] = [{**_board(pair, names), "differs": pair not in expected} for pair in check.played]
            row["rules"] = [{**_board(pair, names), "differs": pair not in played}
                            for pair in check.expected or []]
            row["reason"] = reason_text(check.reason) if check.reason else pairing_error_message(check)
        rounds.append(row)
    same = sum(1 for row in rounds if row["identical"])
    return {"rules": rules_label(edition), "rounds": rounds, "same": same, "total": len(rounds),
            "summary": _("%(same)d of %(total)d rounds paired as the rules give (%(rules)s).") % {
                "same": same, "total": len(rounds), "rules": rules_label(edition)}}


def _page(params: dict) -> str:
    return reverse("interchange:trf_check")


@job_kind(may_run=is_official, restartable=False, again_url=_page)
def trf_check_run(*, progress: Progress, upload: str, name: str, rules: str) -> Outcome:
    trf = trf_check_read(upload)
    edition = {"2017": EDITION_2017, "2026": EDITION_2026}.get(rules, "") or file_edition(trf)
    progress(0, _("Reading the file"))
    report = check_report(trf, edition=edition, progress=progress)
    return Outcome(message=report["summary"], report={**report, "file_name": name},
                   report_template="interchange/_trf_check_report.html")


def trf_check_start(*, text: str, name: str, rules: str, user) -> Job:
    """Check the file's pairings in the background. The file is read first: a file that cannot be
    read is refused here and no job is stored. One check of the same file per official at a time."""
    if not is_official(user):
        raise PermissionDenied
    trf_check_read(text)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return job_start(key=f"trf-check:{user.pk}:{digest}", title=_("Pairing check: %(name)s") % {"name": name},
                     handler="clubrating.interchange.trf_check.trf_check_run",
                     params={"name": name, "rules": rules}, upload=text, user=user)
