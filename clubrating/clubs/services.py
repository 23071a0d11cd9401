"""Changes to members and clubs."""

from __future__ import annotations

from django.db import transaction

from .models import Member


@transaction.atomic
def member_set_profile_restricted(*, member: Member, restricted: bool) -> Member:
    """The member's own choice (``clubrating.clubs.privacy``): a restricted profile shows only
    his name to visitors and other members. Saving bumps ``changed_at``, which the cached pages
    that show members carry in their keys."""
    member.profile_restricted = restricted
    member.save(update_fields=["profile_restricted", "changed_at"])
    return member


@transaction.atomic
def member_set_notify_by_email(*, member: Member, notify: bool) -> Member:
    """The member's own opt-in (``clubrating.tournaments.notifications``): an e-mail when his
    next round is paired and when his registration is confirmed."""
    member.notify_by_email = notify
    member.save(update_fields=["notify_by_email", "changed_at"])
    return member
