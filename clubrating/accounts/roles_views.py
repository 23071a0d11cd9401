"""The Rollen page: who has which role, which login belongs to which member, and invitations by
e-mail that let a member set his own password."""

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubrating.accounts.forms import InviteForm, LinkForm, RolesForm
from clubrating.accounts.permissions import club_admin_required
from clubrating.accounts.roles import ROLE_NAMES, ROLES
from clubrating.accounts.services import member_invite, member_login_set, user_roles_set
from clubrating.clubs.models import Member
from clubrating.clubs.search import name_words_q
from clubrating.core.errors import Refused

SEARCH_LIMIT = 20


def _users():
    role_groups = Prefetch("groups", to_attr="role_groups")
    users = User.objects.filter(is_active=True).select_related("member").prefetch_related(role_groups)
    rows = []
    for user in users.order_by("username"):
        roles = [g.name for g in user.role_groups if g.name in ROLE_NAMES]
        rows.append({"user": user, "member": getattr(user, "member", None),
                     "form": RolesForm(initial={"roles": roles}, prefix=f"u{user.pk}")})
    return rows


def _members(query: str):
    words = name_words_q(query)
    if not words:
        return []
    members = Member.objects.select_related("club", "user")
    for word in words:
        members = members.filter(word)
    return [{"member": m, "invite": InviteForm(initial={"email": m.email}, prefix=f"m{m.pk}"),
             "link": LinkForm(initial={"user": m.user_id}, member=m, prefix=f"l{m.pk}")}
            for m in members.order_by("last_name", "first_name")[:SEARCH_LIMIT]]


@club_admin_required
@require_http_methods(["GET", "POST"])
def roles_page(request):
    query = (request.GET.get("q") or request.POST.get("q") or "").strip()
    if request.method == "POST":
        done = _act(request)
        if done:
            return redirect(f"{request.path}?q={query}" if query else request.path)
    return render(request, "accounts/roles.html", {
        "roles": ROLES, "users": _users(), "query": query, "members": _members(query),
        "search_limit": SEARCH_LIMIT,
    })


def _act(request) -> bool:
    """Carry out the posted action; True when it was done (a message says what)."""
    action = request.POST.get("action")
    try:
        if action == "roles":
            user = get_object_or_404(User, pk=request.POST.get("user"))
            form = RolesForm(request.POST, prefix=f"u{user.pk}")
            if form.is_valid():
                user_roles_set(user=user, roles=form.cleaned_data["roles"], by=request.user)
                messages.success(request, _("The roles of %(user)s are saved.") % {"user": user})
                return True
        elif action == "link":
            member = get_object_or_404(Member, pk=request.POST.get("member"))
            form = LinkForm(request.POST, member=member, prefix=f"l{member.pk}")
            if form.is_valid():
                user = form.cleaned_data["user"]
                member_login_set(member=member, user=user)
                if user is None:
                    messages.success(request, _("%(member)s has no login now.") % {"member": member})
                else:
                    messages.success(request, _("%(user)s is now the login of %(member)s.") % {
                        "user": user, "member": member})
                return True
        elif action == "invite":
            member = get_object_or_404(Member, pk=request.POST.get("member"))
            form = InviteForm(request.POST, prefix=f"m{member.pk}")
            if form.is_valid():
                user = member_invite(member=member, email=form.cleaned_data["email"],
                                     roles=form.cleaned_data["roles"], by=request.user,
                                     link_base=request.build_absolute_uri("/"))
                messages.success(request, _("%(member)s is invited: the e-mail to %(email)s holds the link "
                                            "to set a password (username %(user)s).") % {
                    "member": member, "email": user.email, "user": user.get_username()})
                return True
        else:
            return False
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    except Refused as error:
        messages.error(request, error.message)
    return False
