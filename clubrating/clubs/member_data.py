"""A member's own data, for his copy of everything the site holds about him (DSGVO Art. 15 and
20), and his erasure (Art. 17).

Each app that keeps rows naming a member registers its part here (``member_data_register``,
from its ``AppConfig.ready``): what goes into the copy, what goes on erasure, and which models the
part covers. The copy and the erasure walk the registry, so no app is asked by hand; a test walks
every model with a foreign key to ``Member`` and requires a part to cover it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from .models import Erasure, ErasureCause, Member, MemberChange
from .register import member_renamed_notify

# The name an erased member keeps in games, standings and published lists: the word and his
# record number, so that two erased players of one game stay apart.
PSEUDONYM = "Anonym"


def iso(value):
    """A date or time as ISO 8601 text (the member data file's one format); anything else as is."""
    return value.isoformat() if isinstance(value, (datetime.date, datetime.datetime)) else value


_iso = iso

FORMAT_VERSION = 2


@dataclass(frozen=True)
class MemberDataPart:
    """One app's part of a member's data.

    ``key``: its section in the copy; ``export(member)``: the section's plain JSON values;
    ``models``: the models (``"app_label.Model"``) whose rows naming the member it covers;
    ``erase(member)``: deletes what goes on erasure, run while the member still has his data
    (before the pseudonym); ``keeps_birth_year(member)``: the app needs the birth year kept to
    rate the member's past games again.

    Merging a duplicate into the member kept (``clubrating.clubs.merge``):
    ``merge_refusals(keep, duplicate, user)``: why the part cannot move the duplicate's rows to
    ``keep`` (translated sentences; empty when it can); ``merge(keep, duplicate, user)``: moves
    them, returning sentences for the user (what follows, e.g. a recalculation started)."""

    key: str
    export: Callable[[Member], object]
    models: tuple[str, ...]
    erase: Callable[[Member], object] | None = None
    keeps_birth_year: Callable[[Member], bool] | None = None
    merge: Callable[[Member, Member, object], list[str] | None] | None = None
    merge_refusals: Callable[[Member, Member, object], list[str]] | None = None


_PARTS: dict[str, MemberDataPart] = {}


def member_data_register(part: MemberDataPart) -> None:
    """Add an app's part (once per key: a module imported twice registers the same part again)."""
    _PARTS[part.key] = part


def member_data_parts() -> list[MemberDataPart]:
    """The registered parts in the order the apps were loaded (``INSTALLED_APPS``)."""
    return list(_PARTS.values())


def member_data_export(*, member: Member) -> dict:
    """The member's copy of his data: every registered part's section."""
    return {
        "format": "clubrating-member-data", "version": FORMAT_VERSION,
        "exported_at": iso(datetime.datetime.now(datetime.UTC).replace(microsecond=0)),
        **{part.key: part.export(member) for part in member_data_parts()},
    }


@transaction.atomic
def member_erase(*, member: Member, by, cause: str) -> Erasure:
    """Erase the member: every part deletes what goes (while his IDs are still known), then his
    personal data go and his name becomes a pseudonym; his games, rating records and published
    lists stay (sporting records), unchanged but for the name. Logged in ``Erasure`` without the
    erased data. A second erasure changes nothing."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    existing = Erasure.objects.filter(member=member).first()
    if existing is not None:
        return existing
    parts = member_data_parts()
    keep_birth_year = any(part.keeps_birth_year(member) for part in parts if part.keeps_birth_year)
    for part in parts:
        if part.erase is not None:
            part.erase(member)
    return member_pseudonymise(member=member, keep_birth_year=keep_birth_year, by=by, cause=cause)


def member_personal_data(*, member: Member) -> dict:
    """The member record and his login, as plain JSON values (the sections "member", "account")."""
    return {"member": _member_section(member), "account": _account_section(member)}


def _member_section(member: Member) -> dict:
    return {
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


def _account_section(member: Member) -> dict | None:
    user = member.user
    account = None
    if user is not None:
        account = {
            "username": user.username, "email": user.email, "first_name": user.first_name,
            "last_name": user.last_name, "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login), "groups": sorted(user.groups.values_list("name", flat=True)),
            "logins": _logins(user.username),
        }
    return account


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
    member_renamed_notify(member_id=member.pk)  # the pseudonym takes his place among his ties
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


def _erasures(member: Member) -> list[dict]:
    return [{"at": iso(e.erased_at), "cause": e.cause} for e in Erasure.objects.filter(member=member)]


def _changes(member: Member) -> list[dict]:
    """The saves of his record on the site's pages: when, whether it created the record, and which
    fields changed (values only of fields that are no personal data, ``MemberChange``)."""
    return [{"at": iso(change.changed_at), "created": change.created, "fields": change.fields}
            for change in MemberChange.objects.filter(member=member).order_by("changed_at", "pk")]


def _erasures_refused(keep: Member, duplicate: Member, user) -> list[str]:
    if Erasure.objects.filter(member__in=(keep, duplicate)).exists():
        return [_("An erased member is not merged.")]
    return []


def _changes_merge(keep: Member, duplicate: Member, user) -> None:
    MemberChange.objects.filter(member=duplicate).update(member=keep)


def register_parts() -> None:
    # The record itself and its login are merged by ``clubrating.clubs.merge`` (the values the
    # kept member lacks); an erased member is never merged, so no erasure row moves.
    member_data_register(MemberDataPart(
        key="member", export=_member_section,
        models=("clubs.Member",), merge=lambda keep, duplicate, user: None))
    member_data_register(MemberDataPart(
        key="account", export=_account_section, models=()))
    member_data_register(MemberDataPart(key="erasures", export=_erasures, models=("clubs.Erasure",),
                                        merge=lambda keep, duplicate, user: None,
                                        merge_refusals=_erasures_refused))
    member_data_register(MemberDataPart(key="changes", export=_changes, models=("clubs.MemberChange",),
                                        merge=_changes_merge))
