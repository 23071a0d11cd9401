"""Whether a rating period may be closed, and whether it may be reopened (docs/rules.md §4.3).

One decision each, used by the services (which refuse with its message), the officer's pages
(which offer only what the services allow) and the commands. The decisions read nothing
themselves: callers pass what they loaded, so the periods page decides for every period of
every pool from data read once.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from ratings.models import PeriodState, RatingPeriod


def _day(day: datetime.date) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT")


@dataclass(frozen=True)
class CloseCheck:
    """``refusal``: why the period cannot be closed at all ("" when it can). ``early``: closing
    it now ends it before its last day, which only "close early" with a reason does."""

    refusal: str = ""
    early: bool = False

    @property
    def allowed(self) -> bool:
        return not self.refusal


def period_close_check(period: RatingPeriod, *, today: datetime.date) -> CloseCheck:
    """May ``period`` be closed on ``today``? An open period from its last day on; before that
    only early (its remaining days then belong to the next period); never before it starts."""
    if period.state == PeriodState.WAITING:
        return CloseCheck(_("A waiting period cannot be closed: it opens when the period before it "
                            "is closed again."))
    if period.state != PeriodState.OPEN:
        return CloseCheck(_("This period is already closed."))
    if today < period.start:
        return CloseCheck(_("The period %(start)s – %(end)s has not started yet; it cannot be closed.")
                          % {"start": _day(period.start), "end": _day(period.end)})
    return CloseCheck(early=today < period.end)


def early_close_refusal(period: RatingPeriod, *, early: bool, reason: str) -> str:
    """Why closing ``period`` early (it is open and has started, its last day not reached) is
    refused as asked: the officer must choose "close early" and give a reason; "" when both."""
    if not early:
        return _("The period %(start)s – %(end)s ends on %(end)s. Closing it before its last day "
                 "needs “close early” and a reason.") % {"start": _day(period.start), "end": _day(period.end)}
    if not reason.strip():
        return _("Closing a period early needs a reason.")
    return ""


def period_reopen_refusal(period: RatingPeriod, *, later_closed: bool, later_list: bool) -> str:
    """Why ``period`` cannot be reopened ("" when it can): only the pool's latest closed period
    (``later_closed``: a later period of the pool is closed), and only while its list is the
    pool's latest (``later_list``: a list was published after it, such as a transformation)."""
    if period.state != PeriodState.CLOSED:
        return _("Only a closed period can be reopened.")
    if later_closed or later_list:
        return _("Only the latest closed period can be reopened, and only while no later "
                 "list has been published.")
    return ""
