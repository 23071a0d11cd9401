import datetime
import hashlib

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import LazyPaginator, RequestConfig

from clubrating.accounts.permissions import (
    audience_for,
    birth_years_public,
    is_official_or_staff,
    is_rating_officer,
    member_page_allowed,
    public_ratings_required,
    register_keepers_required,
    sees_personal_data,
)
from clubrating.accounts.templatetags.privacy import board_player_text, member_link, team_player, viewer_of
from clubrating.clubs.member_data import member_data_export, member_erase
from clubrating.clubs.member_data_page import member_data_page
from clubrating.clubs.member_games import member_game_rows, member_performance_rows
from clubrating.core.charts import Series, rating_history_svg
from clubrating.core.empty import empty_list_html
from clubrating.core.formatting import rating_text
from clubrating.federation.selectors import fide_history
from clubrating.national_list.selectors import member_national_ratings
from ratings.selectors import PoolBlock, member_half_rating, member_rating_blocks
from ratings.services.cache import ratings_cache_version

from . import privacy
from .forms import MemberForm
from .merge import member_holdings, member_merge, member_merge_refusals
from .models import ErasureCause, Member
from .register import EDITED, MemberRefused, member_duplicates, member_save
from .search import search_text
from .selectors import club_data_version, home_club, member_search
from .services import member_set_notify_by_email, member_set_profile_restricted
from .tables import MemberTable

RATINGS_CACHE_SECONDS = 3600
# The member list counts its rows up to this many (its pages numbered to the last); a larger
# register (a federation's hundred thousand) is paged without a total: counting it read every
# member for each page, and a reader finds a member by searching, not by the last page's number.
COUNTED_MEMBERS = 2000


def _paginator_class(members) -> type[Paginator]:
    """A paginator that knows the count read here (at most ``COUNTED_MEMBERS + 1`` rows), or one
    that needs no count when there are more."""
    counted = members.order_by()[:COUNTED_MEMBERS + 1].count()
    if counted > COUNTED_MEMBERS:
        return LazyPaginator
    return type("CountedPaginator", (Paginator,), {"count": counted})


@public_ratings_required
def member_list(request):
    query = search_text(request.GET.get("q", ""))
    audience = audience_for(request.user)
    members = member_search(query=query, active_only=request.GET.get("active") == "1",
                            private=audience < privacy.Audience.OFFICIAL)
    table = MemberTable(
        members,
        audience=audience, birth_years_public=birth_years_public(),
        user_id=request.user.pk if request.user.is_authenticated else None,
    )
    if query:
        table.empty_text = _("No members found for “%(query)s”.") % {"query": query}
    elif request.GET.get("active") != "1":
        table.empty_text = empty_list_html(
            _("No members yet."), reverse("clubs:member_add"), _("Add a member"),
            reverse("interchange:members_import") if is_official_or_staff(request.user) else "",
            _("Import a CSV file"), show=sees_personal_data(request.user))
    paginate = {"per_page": 50, "paginator_class": _paginator_class(members)}
    RequestConfig(request, paginate=paginate).configure(table)
    return render(request, "clubs/member_list.html", {"table": table, "query": query})


def _history_chart(member: Member, blocks: list[PoolBlock]) -> str:
    """The member's published values per pool over time, the live value last (provisional)."""
    series = []
    for block in blocks:
        points = [(e.list.valid_from, e.rating) for e in block.history]
        titles = [
            _("%(pool)s, list of %(date)s: %(rating)s") % {
                "pool": block.pool.name, "date": formats.date_format(e.list.valid_from, "SHORT_DATE_FORMAT"),
                "rating": rating_text(e.rating)}
            for e in block.history
        ]
        provisional = False
        state = block.state
        if block.provisional and state.live_rating is not None:
            today = datetime.date.today()
            if not points or today > points[-1][0]:
                points.append((today, state.live_rating))
                titles.append(_("%(pool)s, live (provisional): %(rating)s") % {
                    "pool": block.pool.name, "rating": rating_text(state.live_rating)})
                provisional = True
        series.append(Series(block.pool.name, points, provisional_last=provisional, point_titles=titles))
    return rating_history_svg(
        series, title=_("Rating history of %(name)s") % {"name": member.full_name},
        x_label=_("Date"), y_label=_("Rating"),
    )


def _game_rows(request, records) -> str:
    """A pool's rated games as rows, each opponent named as this reader may read him (as the
    ``member_link``, ``team_player`` and ``board_player_text`` tags do in templates)."""
    context = {"request": request}

    def link(opponent, tournament):
        if tournament.kind == "team":
            return team_player(context, opponent)
        return member_link(context, opponent, opponent.full_name)

    def name(opponent, tournament):
        return board_player_text({"request": request, "tournament": tournament}, opponent)

    return member_game_rows(records, opponent_link=link, opponent_name=name)


def _ratings_html(request, member: Member) -> str:
    """The member's ratings, chart, half rating and games as HTML: cached until any pool's
    ratings change (``ratings.services.cache``), for this language and day (the chart's live
    point is dated today), the member's own FIDE rating (the half rating is shown only without
    one) and the reader as ``clubs.privacy`` sees him (an opponent in a team competition is named
    only where his name beside his team may be read)."""
    viewer = viewer_of(request)
    key = "clubs:member-ratings:" + hashlib.sha256("|".join([
        str(member.pk), str(member.fide_rating), translation.get_language() or "",
        str(int(viewer.audience)), str(viewer.user_id or ""),
        datetime.date.today().isoformat(), ratings_cache_version(), club_data_version(),
    ]).encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        blocks = member_rating_blocks(member)
        html = render_to_string("clubs/_member_ratings.html", request=request, context={
            "blocks": blocks,
            "games": [(block, member_performance_rows(block.performances), _game_rows(request, block.records))
                      for block in blocks],
            "chart": _history_chart(member, blocks),
            "half_rating": member_half_rating(member, blocks),
        })
        cache.set(key, html, RATINGS_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template above, escaped there


def member_detail(request, pk):
    """A member's page: his ratings in every pool, the history chart, his rated games with their
    calculation, the performance per tournament and the half rating."""
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not member_page_allowed(request.user, member):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    audience = audience_for(request.user, member)
    return render(request, "clubs/member_detail.html", {
        "member": member,
        "shown": privacy.visible_fields(member, audience=audience, birth_years_public=birth_years_public()),
        "restricted": privacy.profile_restricted(member),
        "is_self": audience == privacy.Audience.SELF,
        "is_official": audience == privacy.Audience.OFFICIAL,
        "ratings_html": _ratings_html(request, member),
        "national_ratings": member_national_ratings(member=member),
        "user_is_rating_officer": is_rating_officer(request.user),
        "fide_history": fide_history(fide_id=member.fide_id),
    })


def _refused_unless(request, allowed: bool):
    """None where ``allowed``; else the login page for a visitor (he may have an account), 403."""
    if allowed:
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


@require_POST
def member_privacy(request, pk):
    """The member himself restricts his profile or opens it again."""
    member = get_object_or_404(Member, pk=pk)
    refused = _refused_unless(request, audience_for(request.user, member) == privacy.Audience.SELF)
    if refused is not None:
        return refused
    restrict = request.POST.get("restrict") == "1"
    with transaction.atomic():
        member_set_profile_restricted(member=member, restricted=restrict)
    messages.success(request, _("Your profile is now restricted: visitors and other members see only your "
                                "name in lists and standings.") if restrict else
                     _("Your profile is now visible like every member's."))
    return redirect(member.get_absolute_url())


@require_POST
def member_notifications(request, pk):
    """The member himself asks for e-mails (his next round paired, his registration confirmed)
    or stops them."""
    member = get_object_or_404(Member, pk=pk)
    refused = _refused_unless(request, audience_for(request.user, member) == privacy.Audience.SELF)
    if refused is not None:
        return refused
    notify = request.POST.get("notify") == "1"
    if notify and not member.email:
        messages.error(request, _("No e-mail address is recorded for you; ask an official to add it."))
        return redirect(member.get_absolute_url())
    member_set_notify_by_email(member=member, notify=notify)
    messages.success(request, _("You will get an e-mail when your next round is paired and when a "
                                "registration is confirmed.") if notify else
                     _("You will get no more e-mails from tournaments."))
    return redirect(member.get_absolute_url())


def _own_or_official(request, member):
    """The member himself or those who keep the register; else login page or 403."""
    return _refused_unless(request, audience_for(request.user, member) >= privacy.Audience.SELF)


def member_data(request, pk):
    """Everything the site holds about the member: a readable page, or with ``?format=json``
    the same as a file (DSGVO Art. 15 and 20)."""
    member = get_object_or_404(Member.objects.select_related("club", "user"), pk=pk)
    refused = _own_or_official(request, member)
    if refused is not None:
        return refused
    data = member_data_export(member=member)
    if request.GET.get("format") == "json":
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = content_disposition_header(
            True, f"clubrating-{_('member-data')}-{member.pk}.json")
        response["Cache-Control"] = "private, no-store"
        return response
    response = render(request, "clubs/member_data.html",
                      {"member": member, "data": data, "page": member_data_page(data)})
    response["Cache-Control"] = "private, no-store"
    return response


def member_erase_page(request, pk):
    """A rating officer erases a member who asked for it (DSGVO Art. 17), after typing his name."""
    member = get_object_or_404(Member, pk=pk)
    if not is_rating_officer(request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    if member.erased_on is not None:
        messages.info(request, _("This member was erased on %(date)s.") % {
            "date": formats.date_format(member.erased_on, "SHORT_DATE_FORMAT")})
        return redirect(member.get_absolute_url())
    error = ""
    if request.method == "POST":
        if " ".join(request.POST.get("confirm", "").split()) == member.full_name:
            member_erase(member=member, by=request.user, cause=ErasureCause.REQUEST)
            pseudonym = Member.objects.get(pk=pk).full_name
            messages.success(request, _("The member was erased. Games and published lists keep him as "
                                        "“%(pseudonym)s”.") % {"pseudonym": pseudonym})
            return redirect("clubs:member_detail", pk=pk)
        error = _("Type the member's name exactly as shown to confirm the erasure; nothing was erased.")
    return render(request, "clubs/member_erase.html", {"member": member, "error": error},
                  status=400 if error else 200)


# --- the member register: adding and changing members (officials, rating officers and staff) -----

def _history(member: Member) -> list[dict]:
    labels = {f.name: f.verbose_name for f in Member._meta.fields}
    labels["merged"] = _("merged the duplicate no.")
    return [
        {
            "change": change,
            "fields": [
                {**item, "label": labels.get(item["field"], item["field"])}
                for item in change.fields
            ],
        }
        for change in member.changes.select_related("changed_by")[:50]
    ]


@register_keepers_required
@require_http_methods(["GET", "POST"])
def member_edit(request, pk=None):
    member = get_object_or_404(Member, pk=pk) if pk else Member(club=home_club())
    if member.pk and member.erased_on:
        messages.error(request, _("This member was erased; his record is not changed any more."))
        return redirect(member)
    form = MemberForm(
        request.POST or None,
        instance=None if member.pk is None else Member.objects.get(pk=pk),
        initial=None if member.pk else {"club": member.club},
    )
    duplicates = []
    if request.method == "POST" and form.is_valid():
        values = {name: form.cleaned_data[name] for name in EDITED}
        try:
            saved = member_save(
                member=Member.objects.get(pk=pk) if pk else Member(),
                values=values,
                user=request.user,
                allow_duplicate=form.cleaned_data["allow_duplicate"],
            )
        except MemberRefused as error:
            form.add_error(error.field or None, error.message)
            if not pk:
                duplicates = member_duplicates(
                    last_name=values["last_name"],
                    first_name=values["first_name"],
                    birth_date=values["birth_date"],
                )
        else:
            messages.success(request, _("%(member)s is saved.") % {"member": saved})
            return redirect(saved)
    return render(
        request,
        "clubs/member_edit.html",
        {
            "form": form,
            "member": member if member.pk else None,
            "duplicates": duplicates,
            "history": _history(member) if member.pk else [],
        "twins": member_duplicates(last_name=member.last_name, first_name=member.first_name,
                                   birth_date=member.birth_date, exclude=member.pk) if member.pk else [],
        },
    )


@register_keepers_required
@require_http_methods(["GET", "POST"])
def member_merge_view(request, pk):
    """Merge a duplicate (``?duplicate=``, or the form's) into the member ``pk``: first a page
    with what moves and what stands in the way, then the merge."""
    keep = get_object_or_404(Member, pk=pk)
    number = request.POST.get("duplicate") or request.GET.get("duplicate") or ""
    if not number.isdigit():
        raise Http404
    if request.method == "POST":
        try:
            merged = member_merge(keep=keep, duplicate_id=int(number), user=request.user)
        except MemberRefused as error:
            messages.error(request, error.message)
            return redirect("clubs:member_edit", pk=keep.pk)
        if not merged.again:
            messages.success(request, _("The duplicate is merged into %(member)s.") % {"member": keep})
        for note in merged.notes:
            messages.info(request, note)
        return redirect("clubs:member_edit", pk=keep.pk)
    duplicate = get_object_or_404(Member.objects.select_related("club"), pk=number)
    return render(request, "clubs/member_merge.html", {
        "member": keep, "duplicate": duplicate, "moves": member_holdings(member=duplicate),
        "refusals": member_merge_refusals(keep=keep, duplicate=duplicate, user=request.user),
    })
