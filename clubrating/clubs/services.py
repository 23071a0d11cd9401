"""Changes to members and clubs."""

from __future__ import annotations

from django.db import transaction

from .models import Club, Member


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


@transaction.atomic
def member_create(
    *, last_name: str, first_name: str = "", sex: str = "", birth_year: int | None = None,
    federation: str = "AUT", fide_id: int | None = None, fide_rating: int | None = None,
    fide_title: str = "", club: Club | None = None,
) -> Member:
    """A new member of ``club`` (a guest without one). The database refuses a FIDE ID that
    another member has (``IntegrityError``)."""
    return Member.objects.create(
        last_name=last_name, first_name=first_name, sex=sex, birth_year=birth_year,
        federation=federation, fide_id=fide_id, fide_rating=fide_rating, fide_title=fide_title, club=club,
    )


@transaction.atomic
def home_club_save(*, club: Club) -> Club:
    """Save ``club`` (new, or changed by the setup page) as the own club: the one that runs this
    installation (its members are the club's, its public settings apply to visitors). Another
    club that was the own club stops being it."""
    Club.objects.filter(is_home=True).exclude(pk=club.pk).update(is_home=False)
    club.is_home = True
    club.save()
    return club
