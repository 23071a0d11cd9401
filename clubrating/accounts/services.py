"""Account services: what happens around a login beyond Django's own views."""

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubrating.accounts.roles import ROLE_NAMES
from clubrating.clubs.models import Member
from clubrating.clubs.selectors import home_club
from clubrating.core.errors import Refused


def login_lockout_clear(*, username: str) -> int:
    """Forgets the failed logins recorded for ``username``; returns how many records went.

    Called once the owner has proved control of the account by a password reset link: the new
    password must work at once, not only after the cool-off of the lockout.
    """
    return axes_reset(username=username)


# --- roles and logins -----------------------------------------------------------------------------


class RoleRefused(Refused):
    """A change of roles or logins the Rollen page may not make."""


def _groups(names) -> list[Group]:
    unknown = set(names) - set(ROLE_NAMES)
    if unknown:
        raise RoleRefused(_("Unknown role."))
    return [Group.objects.get_or_create(name=name)[0] for name in names]


@transaction.atomic
def user_roles_set(*, user: User, roles: list[str], by: User) -> User:
    """Give ``user`` exactly ``roles`` (group names of ``ROLES``); other groups stay. A club
    administrator cannot change a superuser's roles, nor take his own administration away (the
    club would be left without one who gives roles)."""
    wanted = _groups(roles)
    if user.is_superuser and not by.is_superuser:
        raise RoleRefused(_("Only a superuser changes the roles of a superuser."))
    if user.pk == by.pk and not by.is_superuser and settings.CLUB_ADMINS_GROUP not in roles:
        raise RoleRefused(_("You cannot take your own role of club administrator away."))
    keep = user.groups.exclude(name__in=ROLE_NAMES)
    user.groups.set([*keep, *wanted])
    return user


@transaction.atomic
def member_login_set(*, member: Member, user: User | None) -> Member:
    """Link ``member`` to the login ``user`` (his own page, his ratings), or to none. A login
    belongs to one member: linked here, it leaves any other."""
    if user is not None:
        Member.objects.filter(user=user).exclude(pk=member.pk).update(user=None)
    member.user = user
    member.save(update_fields=["user", "changed_at"])
    return member


def _username_for(member: Member) -> str:
    base = ".".join(part for part in (slugify(member.first_name), slugify(member.last_name)) if part)
    base = base[:140] or "member"
    name, number = base, 1
    while User.objects.filter(username__iexact=name).exists():
        number += 1
        name = f"{base}{number}"
    return name


@transaction.atomic
def member_invite(*, member: Member, email: str, roles: list[str], by: User, link_base: str) -> User:
    """A login for ``member``: without a password, with ``roles``; an e-mail with a link (Django's
    password-reset token: valid once, for PASSWORD_RESET_TIMEOUT) lets him set his own password.
    ``link_base`` is the site's address (``request.build_absolute_uri("/")``)."""
    email = (email or "").strip()
    if not email:
        raise RoleRefused(_("An invitation needs an e-mail address."), field="email")
    if member.user_id is not None:
        raise RoleRefused(_("%(member)s already has a login.") % {"member": member})
    user = User(username=_username_for(member), email=email, first_name=member.first_name[:150],
                last_name=member.last_name[:150])
    user.set_unusable_password()
    user.save()
    user_roles_set(user=user, roles=roles, by=by)
    member_login_set(member=member, user=user)
    if not member.email:
        member.email = email
        member.save(update_fields=["email", "changed_at"])
    invitation_send(user=user, link_base=link_base)
    return user


def invitation_send(*, user: User, link_base: str) -> None:
    """The mail with the link to set a password (sent again, it makes the earlier link invalid
    only once the password is set: Django's token covers the password and the last login)."""
    path = reverse("password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(user.pk)),
                                                   default_token_generator.make_token(user)])
    club = home_club()
    context = {"user": user, "link": link_base.rstrip("/") + path,
               "club": club.name if club else "ClubRating"}
    subject = render_to_string("registration/invitation_subject.txt", context).strip()
    send_mail(subject, render_to_string("registration/invitation_email.txt", context), None, [user.email])
