"""Merging a duplicate member (the same name and birth date, as the product's duplicate detection
finds them) into the member kept: everything the site holds under the duplicate moves to the
member kept, through the member-data registry (``member_data``), so that no app is forgotten.

Every part first says what it cannot move (both played in one round, both are on one published
list, ...); one refusal and nothing changes. Then every part moves its rows, the kept member
takes the values he lacks and the login, the duplicate is deleted and the kept member's history
records the merge, with who and when: all in one transaction. Merging again, once the duplicate
is gone into the same member, changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .member_data import member_data_parts
from .models import Member, MemberChange
from .register import EDITED, MemberRefused, member_duplicates, member_removing_notify, member_save

# What a duplicate may bring into the member it is merged into: the values the kept member lacks.
MERGED = (
    "sex",
    "birth_date",
    "club",
    "national_id",
    "fide_id",
    "fide_rating",
    "fide_title",
    "email",
    "phone",
)

# Who keeps the member register is the accounts app's to say (its roles): it registers the check
# from its ``AppConfig.ready``, as the apps register their parts. Without one, nobody merges.
_REGISTER_KEEPERS: list[Callable[[object], bool]] = []


def member_merge_permission_register(check: Callable[[object], bool]) -> None:
    if check not in _REGISTER_KEEPERS:
        _REGISTER_KEEPERS.append(check)


def _identifiers() -> dict[str, str]:
    """Numbers that name one person at a federation: two different ones are two people."""
    return {
        "national_id": _("They have two different national IDs (%(keep)s and %(duplicate)s): two people, "
                         "not a duplicate."),
        "fide_id": _("They have two different FIDE IDs (%(keep)s and %(duplicate)s): two people, "
                     "not a duplicate."),
    }


@dataclass
class Merged:
    """The member kept and what follows from the merge, in sentences for the user."""

    member: Member
    notes: list[str] = field(default_factory=list)
    again: bool = False  # the duplicate was merged into him already; nothing changed


def _record_refusals(keep: Member, duplicate: Member) -> list[str]:
    reasons = []
    for name, sentence in _identifiers().items():
        mine, theirs = getattr(keep, name), getattr(duplicate, name)
        if mine not in (None, "") and theirs not in (None, "") and str(mine) != str(theirs):
            reasons.append(sentence % {"keep": mine, "duplicate": theirs})
    if duplicate.user_id and keep.user_id:
        reasons.append(_("Both members have a login; unlink one on the Rollen page first."))
    return reasons


def _merged_before(keep: Member, number: int) -> bool:
    return any(
        item.get("field") == "merged" and item.get("old") == str(number)
        for change in MemberChange.objects.filter(member=keep)
        for item in change.fields
    )


def member_merge_refusals(*, keep: Member, duplicate: Member, user) -> list[str]:
    """Why ``duplicate`` cannot be merged into ``keep`` (translated sentences; none: it can)."""
    if keep.pk == duplicate.pk:
        return [_("A member cannot be merged into himself.")]
    twins = member_duplicates(
        last_name=keep.last_name, first_name=keep.first_name, birth_date=keep.birth_date, exclude=keep.pk
    )
    if duplicate not in twins:
        return [_("Only members with the same name and birth date are merged.")]
    reasons = _record_refusals(keep, duplicate)
    for part in member_data_parts():
        if part.merge_refusals is not None:
            reasons += part.merge_refusals(keep, duplicate, user)
    return list(dict.fromkeys(reasons))


@transaction.atomic
def member_merge(*, keep: Member, duplicate_id: int, user) -> Merged:
    """Merge the member ``duplicate_id`` into ``keep`` (see the module). Officials, rating officers,
    club administrators and staff keep the register; a part may ask for more (the ratings: a rating
    officer, as the recalculation is his). Refused with every reason at once."""
    if not any(check(user) for check in _REGISTER_KEEPERS):
        raise MemberRefused(_("Only those who keep the member register merge members."))
    keep = Member.objects.select_for_update().get(pk=keep.pk)
    duplicate = Member.objects.select_for_update().filter(pk=duplicate_id).first()
    if duplicate is None:
        if _merged_before(keep, duplicate_id):
            return Merged(keep, [_("This duplicate was merged already; nothing was changed.")], again=True)
        raise MemberRefused(_("The duplicate no longer exists."))
    reasons = member_merge_refusals(keep=keep, duplicate=duplicate, user=user)
    if reasons:
        raise MemberRefused(
            _("%(member)s cannot be merged: %(reasons)s")
            % {"member": duplicate, "reasons": " ".join(reasons)}
        )
    notes: list[str] = []
    for part in member_data_parts():
        if part.merge is not None:
            notes += part.merge(keep, duplicate, user) or []
    taken = {
        name: getattr(duplicate, name)
        for name in MERGED
        if getattr(keep, name) in (None, "") and getattr(duplicate, name) not in (None, "")
    }
    login = duplicate.user if duplicate.user_id and not keep.user_id else None
    number = str(duplicate.pk)  # the merged record, by its number (no personal data)
    member_removing_notify(member_ids=[duplicate.pk])
    duplicate.delete()  # first: its national and FIDE IDs are unique
    member_save(member=keep, values={**{n: getattr(keep, n) for n in EDITED}, **taken}, user=user)
    if login is not None:
        keep.user = login
        keep.save(update_fields=["user", "changed_at"])
    MemberChange.objects.create(
        member=keep,
        changed_by=user if getattr(user, "pk", None) else None,
        fields=[{"field": "merged", "old": number, "new": None}],
    )
    return Merged(keep, notes)


def member_holdings(*, member: Member) -> list[tuple[str, int]]:
    """(kind, count) of the rows naming ``member`` in every registered part, as merging would
    move them: what the merge page lists before the merge."""
    found = []
    for part in member_data_parts():
        for label in part.models:
            model = apps.get_model(label)
            if model is Member:
                continue
            names = [f.name for f in model._meta.get_fields()
                     if f.concrete and f.is_relation and f.related_model is Member]
            if not names:
                continue
            query = Q()
            for name in names:
                query |= Q(**{name: member})
            count = model._base_manager.filter(query).count()
            if count:
                found.append((str(model._meta.verbose_name_plural), count))
    return found
