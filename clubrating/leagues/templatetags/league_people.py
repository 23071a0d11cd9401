"""How the league's pages name a user: ``{{ user|person }}``."""

from django import template

register = template.Library()


@register.filter
def person(user) -> str:
    """A user's member's name, else his account's name, else his login: a match's history and a
    roster's changes are read by both clubs, who know people, not logins."""
    if user is None:
        return ""
    member = getattr(user, "member", None)
    return (member.full_name if member else "") or user.get_full_name() or user.get_username()
