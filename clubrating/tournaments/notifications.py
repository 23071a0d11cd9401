"""E-mails to players who asked for them (``Member.notify_by_email``): their next round is
paired (board, colour, opponent, date) or their registration is confirmed. Queued in the same
transaction as the pairing or the confirmation, sent afterwards by the background worker through
Django's mail settings; a failed sending is tried again later with growing pauses and never holds
up the pairing."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from clubrating.clubs.models import Member

from .models import Bye, Game, Notification, Round, Tournament

# After this many failed sendings a notification is given up (its row keeps the last error).
MAX_ATTEMPTS = 8


def _retry_pause(attempts: int) -> datetime.timedelta:
    return datetime.timedelta(minutes=min(2 ** attempts, 360))


def _round_text(tournament: Tournament, rnd: Round, member_id: int, games: dict, byes: dict) -> str:
    date = rnd.date.strftime("%d.%m.%Y") if rnd.date else "—"
    game = games.get(member_id)
    if game is not None:
        white = game.white_id == member_id
        opponent = game.black if white else game.white
        values = {"tournament": tournament.name, "round": rnd.number, "date": date, "board": game.board,
                  "opponent": opponent.full_name}
        if white:
            return _("%(tournament)s, round %(round)d on %(date)s: board %(board)d with White against "
                     "%(opponent)s.") % values
        return _("%(tournament)s, round %(round)d on %(date)s: board %(board)d with Black against "
                 "%(opponent)s.") % values
    bye = byes.get(member_id)
    if bye is not None:
        return _("%(tournament)s, round %(round)d on %(date)s: you are not paired (%(bye)s).") % {
            "tournament": tournament.name, "round": rnd.number, "date": date, "bye": bye.get_kind_display()}
    return ""


def notification_queue(*, kind: str, tournament: Tournament, members: list[int], rnd: Round | None = None,
                       email_override: dict[int, str] | None = None) -> list[Notification]:
    """Queue the e-mails of ``kind`` ("round_paired", "entry_confirmed") for those of
    ``members`` who asked for them (or gave an address with their registration), and have the
    worker send them after the commit."""
    email_override = email_override or {}
    wanted = Member.objects.filter(pk__in=members).filter(
        Q(notify_by_email=True) & ~Q(email="") | Q(pk__in=list(email_override)))
    games, byes = {}, {}
    if kind == "round_paired" and rnd is not None:
        for game in Game.objects.filter(round=rnd).select_related("white", "black"):
            games[game.white_id] = games[game.black_id] = game
        byes = {b.member_id: b for b in Bye.objects.filter(round=rnd)}
    rows = []
    with translation.override(settings.LANGUAGE_CODE):
        for member in wanted:
            if kind == "round_paired":
                subject = _("%(tournament)s: round %(round)d is paired") % {
                    "tournament": tournament.name, "round": rnd.number}
                body = _round_text(tournament, rnd, member.pk, games, byes)
                if not body:
                    continue
            else:
                subject = _("%(tournament)s: your registration is confirmed") % {
                    "tournament": tournament.name}
                body = _("You are in the starting list of %(tournament)s (from %(date)s).") % {
                    "tournament": tournament.name, "date": tournament.start_date.strftime("%d.%m.%Y")}
            rows.append(Notification(member=member, email=email_override.get(member.pk) or member.email,
                                     language=settings.LANGUAGE_CODE, subject=subject[:200], body=body))
    created = Notification.objects.bulk_create(rows)
    if created:
        transaction.on_commit(_enqueue)
    return created


def _enqueue() -> None:
    notifications_send_task.enqueue()


def notifications_send(*, now: datetime.datetime | None = None) -> tuple[int, int]:
    """Send every notification that is due. Returns (sent, failed)."""
    now = now or timezone.now()
    due = Notification.objects.filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS).filter(
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
    sent = failed = 0
    for note in due.order_by("pk"):
        try:
            send_mail(note.subject, note.body, None, [note.email])
        except Exception as exc:  # noqa: BLE001 - any failure of the mail server is tried again later
            note.attempts += 1
            note.next_attempt_at = now + _retry_pause(note.attempts)
            note.last_error = f"{type(exc).__name__}: {exc}"[:300]
            note.save(update_fields=["attempts", "next_attempt_at", "last_error"])
            failed += 1
        else:
            note.attempts += 1
            note.sent_at = timezone.now()
            note.save(update_fields=["attempts", "sent_at"])
            sent += 1
    return sent, failed


def notifications_next_retry() -> datetime.datetime | None:
    return (Notification.objects.filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS,
                                        next_attempt_at__isnull=False)
            .order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first())


@task()
def notifications_send_task() -> str:
    """The worker's task: send what is due; while some sending failed, run again at the next
    retry time (where the task backend can defer; otherwise the next queued notification or
    ``manage.py send_notifications`` retries)."""
    sent, failed = notifications_send()
    retry = notifications_next_retry() if failed else None
    if retry is not None and notifications_send_task.get_backend().supports_defer:
        notifications_send_task.using(run_after=retry).enqueue()
    return f"sent {sent}, failed {failed}"
