"""The member register kept in the browser: a member added or changed on the site's pages, each
save recorded in his history (``MemberChange``). Duplicates are found by name and birth date, as
the member import finds them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

from .matching import name_key
from .models import Member, MemberChange

# The fields the register form edits, in the order of the form.
EDITED = (
    "last_name",
    "first_name",
    "sex",
    "birth_date",
    "birth_year",
    "club",
    "national_id",
    "fide_id",
    "fide_rating",
    "fide_title",
    "active",
    "email",
    "phone",
)
# Personal data: the history names them when they change, but keeps no value (see MemberChange).
PERSONAL = frozenset(
    {"last_name", "first_name", "sex", "birth_date", "birth_year", "email", "phone"}
)


class MemberRefused(Refused):
    """A member the register will not save as given."""


def _text(value) -> str | None:
    if value is None or value == "":
        return None
    return value.name if hasattr(value, "name") else str(value)


def member_duplicates(
    *, last_name: str, first_name: str, birth_date, exclude: int | None = None
) -> list[Member]:
    """Members with the same name (case and accents folded, ``name_key``) and birth date."""
    if birth_date is None:
        return []
    key = name_key(last_name, first_name)
    found = Member.objects.filter(birth_date=birth_date).exclude(pk=exclude)
    return [m for m in found if name_key(m.last_name, m.first_name) == key]


# Called, in the save's transaction, with ``member_id`` when a member's name changes: apps that
# order by name keep what they store in that order (registered when they are loaded).
_renamed_hooks: list = []


def member_renamed_register(hook) -> None:
    _renamed_hooks.append(hook)


def member_renamed_notify(*, member_id: int) -> None:
    """Tell the apps that order by name that the member's name changed (in the transaction that
    changed it): every path that renames a member calls this once the new name is saved."""
    for renamed in _renamed_hooks:  # (the ratings app: the member's place among his ties)
        renamed(member_id=member_id)


# Called, in the save's transaction, with ``member_id`` when a member's year of birth changes:
# apps whose calculations read it (the ratings: a junior's factor) evaluate them again.
_born_hooks: list = []


def member_born_register(hook) -> None:
    _born_hooks.append(hook)


def member_born_notify(*, member_id: int) -> None:
    """Tell the apps that the member's year of birth changed (in the transaction that changed
    it): every path that corrects a birth date or year calls this once the new one is saved."""
    for born in _born_hooks:  # (the ratings app: his live values where juniors have their factor)
        born(member_id=member_id)


# Called, in the deletion's transaction and before it, with ``member_ids`` when members are
# deleted: apps that store a place among members close the gap the members leave.
_removed_hooks: list = []


def member_removed_register(hook) -> None:
    _removed_hooks.append(hook)


def member_removing_notify(*, member_ids: list[int]) -> None:
    """Tell the apps that the members are about to be deleted (every path that deletes members
    calls this first, in the same transaction)."""
    if member_ids:
        for removing in _removed_hooks:  # (the ratings app: the ranks below them on live lists)
            removing(member_ids=list(member_ids))


@transaction.atomic
def member_save(*, member: Member, values: dict, user, allow_duplicate: bool = False) -> Member:
    """Save ``values`` (fields of ``EDITED``) on ``member`` (new when it has no pk) and record
    which fields changed. A new member with the name and birth date of another is refused
    unless ``allow_duplicate`` (two people can share both)."""
    created = member.pk is None
    if created and not allow_duplicate:
        twins = member_duplicates(
            last_name=values.get("last_name", ""),
            first_name=values.get("first_name", ""),
            birth_date=values.get("birth_date"),
        )
        if twins:
            raise MemberRefused(
                _("%(member)s with this birth date is already a member.") % {"member": twins[0]},
                field="last_name",
            )
    born = member.year_of_birth
    changes = []
    for name in EDITED:
        if name not in values:
            continue
        old, new = getattr(member, name), values[name]
        if created or _text(old) != _text(new):
            if not created or new not in (None, ""):
                personal = name in PERSONAL
                changes.append(
                    {
                        "field": name,
                        "old": None if personal or created else _text(old),
                        "new": None if personal else _text(new),
                    }
                )
            setattr(member, name, new)
    if member.birth_date:
        member.birth_year = None
    try:
        member.full_clean(exclude=["user", "search_name"])
    except ValidationError as error:
        raise MemberRefused(" ".join(error.messages)) from None
    if not changes and not created:
        return member
    member.save()
    if not created and any(change["field"] in ("last_name", "first_name") for change in changes):
        member_renamed_notify(member_id=member.pk)
    if not created and member.year_of_birth != born:
        member_born_notify(member_id=member.pk)
    MemberChange.objects.create(
        member=member,
        changed_by=user if getattr(user, "pk", None) else None,
        created=created,
        fields=changes,
    )
    return member
