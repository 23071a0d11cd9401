"""A member's own data, for his copy of everything the site holds about him (DSGVO Art. 15 and
20), and the club side of his erasure (Art. 17)."""

from __future__ import annotations

import datetime

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.db.models.functions import Coalesce

from .models import Erasure, ErasureCause, Member

# The name an erased member keeps in games, standings and published lists: the word and his
# record number, so that two erased players of one game stay apart.
PSEUDONYM = "Anonym"


def iso(value):
    """A date or time as ISO 8601 text (the member data file's one format); anything else as is."""
    return value.isoformat() if isinstance(value, (datetime.date, datetime.datetime)) else value


_iso = iso


def member_personal_data(*, member: Member) -> dict:
    """The member record and his login, as plain JSON values."""
    data = {
        "id": member.pk,
        "last_name": member.last_name, "first_name": member.first_name,
        "sex": member.sex, "birth_date": _iso(member.birth_date), "birth_year": member.birth_year,
        "club": member.club.name if member.club_id else None,
        "federation": member.federation, "national_id": member.national_id, "fide_id": member.fide_id,
        "fide_rating": member.fide_rating, "title": member.fide_title, "active": member.active,
        "email": member.email, "phone": member.phone,
        "profile_restricted": member.profile_restricted,
        "guardian_consent_on": _iso(member.guardian_consent_on),
        "changed_at": _iso(member.changed_at),
    }
    user = member.user
    account = None
    if user is not None:
        account = {
            "username": user.username, "email": user.email, "first_name": user.first_name,
            "last_name": user.last_name, "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login), "groups": sorted(user.groups.values_list("name", flat=True)),
            "logins": _logins(user.username),
        }
    return {"member": data, "account": account}


def _logins(username: str) -> list[dict]:
    """The log-ins and failed attempts the login lockout (django-axes) keeps for the username."""
    rows = [{"kind": "login", "at": _iso(log.attempt_time), "address": log.ip_address,
             "browser": log.user_agent, "logout_at": _iso(log.logout_time)}
            for log in AccessLog.objects.filter(username=username).order_by("attempt_time")]
    rows += [{"kind": "failed", "at": _iso(a.attempt_time), "address": a.ip_address,
              "browser": a.user_agent, "failures": a.failures_since_start}
             for a in AccessAttempt.objects.filter(username=username).order_by("attempt_time")]
    return rows


@transaction.atomic
def member_pseudonymise(*, member: Member, keep_birth_year: bool, by, cause: str) -> Erasure:
    """Remove the member's personal data and give him a pseudonym; his login is closed and
    anonymised (kept as a row, so that what he did as an official still points somewhere), its
    log-in records deleted. ``keep_birth_year``: the year stays where rating rules need it to
    rate his past games again (FIDE's K for juniors). Erasing twice changes nothing."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    existing = Erasure.objects.filter(member=member).first()
    if existing is not None:
        return existing
    year = member.year_of_birth if keep_birth_year else None
    user = member.user
    member.last_name, member.first_name = PSEUDONYM, str(member.pk)
    member.sex = member.email = member.phone = member.national_id = member.fide_title = ""
    member.federation = ""
    member.birth_date, member.birth_year, member.fide_id, member.fide_rating = None, year, None, None
    member.club, member.active, member.user = None, False, None
    member.profile_restricted, member.guardian_consent_on = True, None
    member.erased_on = datetime.date.today()
    member.save()
    if user is not None:
        for model in (AccessAttempt, AccessLog, AccessFailureLog):
            model.objects.filter(username=user.username).delete()
        user.username = f"erased-{member.pk}"
        user.email = user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        user.groups.clear()
    return Erasure.objects.create(member=member, erased_by=by if getattr(by, "pk", None) else None,
                                  cause=ErasureCause(cause))


def accounts_past_retention(*, years: int, today: datetime.date) -> list[Member]:
    """Members with a login that has not logged in (or, never having logged in, was not
    created) for ``years`` years and who are not erased yet."""
    cutoff = today.replace(year=today.year - years) if not (today.month == 2 and today.day == 29) \
        else today.replace(year=today.year - years, day=28)
    # Read in SQL: the last log-in (or the account's creation) before the cutoff day began (UTC).
    before = datetime.datetime.combine(cutoff, datetime.time.min, tzinfo=datetime.UTC)
    return list(Member.objects.filter(user__isnull=False, erased_on__isnull=True)
                .alias(last_seen=Coalesce("user__last_login", "user__date_joined"))
                .filter(last_seen__lt=before).order_by("pk"))
