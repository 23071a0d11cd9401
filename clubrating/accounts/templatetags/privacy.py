"""Templates ask ``clubrating.clubs.privacy`` through these tags, so that every page that shows
members follows the one rule: ``{% member_link member %}`` links the name only where the reader
may open the member page, ``{% member_shows member "birth_year" as shown %}`` tells whether a
field may be shown."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from html import escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from clubrating.accounts.permissions import audience_for, birth_years_public
from clubrating.clubs import privacy

register = template.Library()


@dataclass(frozen=True)
class Viewer:
    audience: privacy.Audience
    birth_years_public: bool
    user_id: int | None
    today: datetime.date

    def audience_of(self, member) -> privacy.Audience:
        return privacy.row_audience(member, audience=self.audience, user_id=self.user_id)

    def shows(self, member, field: str) -> bool:
        return privacy.may_see(member, field, audience=self.audience_of(member),
                               birth_years_public=self.birth_years_public, today=self.today)

    def club(self, member) -> str:
        """The member's club as this reader may see it ("" where it is not shown)."""
        return privacy.shown_club(member, audience=self.audience_of(member),
                                  birth_years_public=self.birth_years_public, today=self.today)

    def names_in_team(self, member) -> bool:
        """Whether this reader may read the member's name beside his team."""
        return privacy.name_beside_team_visible(member, audience=self.audience_of(member), today=self.today)

    def team_name(self, member) -> str | None:
        """The member's name beside his team as this reader may read it; None: withheld."""
        return member.full_name if self.names_in_team(member) else None

    def links(self, member) -> bool:
        return privacy.member_page_visible(member, audience=self.audience_of(member), today=self.today)


def viewer_of(request) -> Viewer:
    """The reader of this request, worked out once per request."""
    viewer = getattr(request, "_privacy_viewer", None) if request is not None else None
    if viewer is None:
        user = getattr(request, "user", None)
        viewer = Viewer(
            audience=audience_for(user), birth_years_public=birth_years_public(),
            user_id=user.pk if getattr(user, "is_authenticated", False) else None,
            today=datetime.date.today(),
        )
        if request is not None:
            request._privacy_viewer = viewer
    return viewer


# A key no member has: the member page's address is reversed once per request with it, and each
# member's address is that text with his key in its place (``reverse`` per name costs a long table
# a tenth of its time).
_URL_KEY = 987654321987


def _member_url(request, member) -> str:
    if request is None:
        return member.get_absolute_url()
    shapes = getattr(request, "_member_urls", None)
    if shapes is None:
        shapes = request._member_urls = {}
    parts = shapes.get(type(member))
    if parts is None:
        parts = shapes[type(member)] = type(member)(pk=_URL_KEY).get_absolute_url().split(str(_URL_KEY))
    if len(parts) != 2:  # the key is not one plain part of the address
        return member.get_absolute_url()
    return f"{parts[0]}{member.pk}{parts[1]}"


@register.simple_tag(takes_context=True)
def member_link(context, member, text=None):
    """The member's name (or ``text``), linked to his page where this reader may open it."""
    label = member if text is None else text
    if member is None:
        return ""
    request = context.get("request")
    # A page that names a member many times (all rounds' pairings) works his link out once.
    memo = getattr(request, "_member_links", None) if request is not None else None
    key = (member.pk, str(label))
    if memo is not None and key in memo:
        return memo[key]
    # ``format_html``'s escaping without its checks for lazy texts: a long table names hundreds.
    text = label.__html__() if hasattr(label, "__html__") else escape(str(label))
    if viewer_of(request).links(member):
        html = SafeString(f'<a href="{escape(_member_url(request, member))}">{text}</a>')
    else:
        html = SafeString(text)
    if request is not None:
        if memo is None:
            memo = request._member_links = {}
        memo[key] = html
    return html


@register.simple_tag(takes_context=True)
def team_player(context, member, link=True):
    """A player beside his team (a roster, a lineup, a board of a club's team): his name, linked
    where this reader may open his page (not on paper: ``link=False``), or "protected profile"
    where his name would tell his club."""
    if member is None:
        return ""
    if not viewer_of(context.get("request")).names_in_team(member):
        return format_html('<span class="text-muted fst-italic privacy-withheld">{}</span>',
                           privacy.WITHHELD_NAME)
    return member_link(context, member) if link else format_html("{}", member)


@register.simple_tag(takes_context=True)
def board_player_text(context, member) -> str:
    """A board's player as plain text (a page's title and heading): in a team competition
    ("tournament" of the page) his name beside his team as this reader may read it."""
    if member is None:
        return ""
    tournament = context.get("tournament")
    if getattr(tournament, "kind", "") != "team" or viewer_of(context.get("request")).names_in_team(member):
        return str(member)
    return str(privacy.WITHHELD_NAME)


@register.simple_tag(takes_context=True)
def awaited_names(context, members) -> str:
    """The names of the newcomers a game waits for, "; " between them (a name holds a comma); in
    a team competition ("tournament" of the page) a name beside the team as this reader may read
    it (``team_player``)."""
    tournament = context.get("tournament")
    team = getattr(tournament, "kind", "") == "team"
    viewer = viewer_of(context.get("request"))
    return "; ".join(str(member) if not team or viewer.names_in_team(member) else str(privacy.WITHHELD_NAME)
                     for member in members)


@register.simple_tag(takes_context=True)
def member_shows(context, member, field):
    return member is not None and viewer_of(context.get("request")).shows(member, field)


@register.simple_tag(takes_context=True)
def member_club(context, member):
    """The member's club where this reader may see it, else nothing."""
    return "" if member is None else viewer_of(context.get("request")).club(member)


@register.simple_tag(takes_context=True)
def privacy_column(context, field):
    """Whether a list of many members may have a column for ``field`` for this reader."""
    viewer = viewer_of(context.get("request"))
    return privacy.column_visible(field, audience=viewer.audience,
                                  birth_years_public=viewer.birth_years_public)
