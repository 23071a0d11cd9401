"""E-mail reminders of a result still missing: the home team's captains enter the result by the
season's deadline (docs/rules.md, "The state federations' league rules": result-entry deadline);
once a match has started and the deadline is near, they are reminded, each match once.

Run from cron (``manage.py league_reminders``, docs/operating.md): safe to run as often as one
likes, since a match is marked reminded in the same transaction that sends its e-mails (a failed
sending rolls the mark back, so that the next run tries again)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from clubrating.leagues.models import Captain, LeagueMatch, MatchStatus
from clubrating.leagues.selectors import season_of

# The reminder goes out this long before the result is due (or at the start, when the season's
# deadline is shorter): time enough to enter it on the evening of the match.
REMIND_BEFORE = datetime.timedelta(hours=6)


def _due_for_reminder(now: datetime.datetime) -> list[LeagueMatch]:
    candidates = LeagueMatch.objects.filter(
        status=MatchStatus.OPEN,
        result_reminded_at__isnull=True,
        starts_at__lte=now,
        match__round__tournament__division__season__result_deadline_hours__isnull=False,
    ).select_related(
        "match__round__tournament__division__season", "match__home_team", "match__away_team"
    ).order_by("starts_at", "pk")
    return [m for m in candidates if now >= m.result_due(season_of(m)) - REMIND_BEFORE]


def _message(match: LeagueMatch) -> tuple[str, str]:
    due = timezone.localtime(match.result_due(season_of(match)))
    values = {
        "home": match.match.home_team.name,
        "away": match.match.away_team.name,
        "date": formats.date_format(due, "SHORT_DATE_FORMAT"),
        "time": formats.time_format(due, "H:i"),
    }
    subject = _("Result missing: %(home)s – %(away)s") % values
    body = _(
        "The result of the match %(home)s – %(away)s has not been entered yet. Please enter it by "
        "%(date)s %(time)s; a result entered later is marked late for the league director."
    ) % values
    return subject, body


def result_reminders_send(*, now: datetime.datetime | None = None) -> int:
    """Remind the home captains of every started match whose result is still missing and due
    within ``REMIND_BEFORE``; returns how many matches were reminded. A match is reminded once."""
    now = now or timezone.now()
    sent = 0
    for candidate in _due_for_reminder(now):
        with transaction.atomic():
            # Claimed under a lock: two runs at once remind a match once.
            claimed = LeagueMatch.objects.select_for_update().filter(
                pk=candidate.pk, status=MatchStatus.OPEN, result_reminded_at__isnull=True
            ).update(result_reminded_at=now)
            if not claimed:
                continue
            emails = sorted({
                email for email in Captain.objects.filter(
                    team__team_id=candidate.match.home_team_id
                ).values_list("user__email", flat=True) if email
            })
            if emails:
                with translation.override(settings.LANGUAGE_CODE):
                    subject, body = _message(candidate)
                send_mail(subject, body, None, emails)
            sent += 1
    return sent
