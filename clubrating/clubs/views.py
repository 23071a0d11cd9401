import datetime
import hashlib

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import formats, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubrating.accounts.permissions import is_rating_officer, member_page_allowed, public_ratings_required
from clubrating.core.charts import Series, rating_history_svg
from clubrating.core.formatting import rating_text
from ratings.selectors import PoolBlock, member_half_rating, member_rating_blocks
from ratings.services.cache import ratings_cache_version

from .models import Member
from .selectors import club_data_version, member_search
from .tables import MemberTable

RATINGS_CACHE_SECONDS = 3600


@public_ratings_required
def member_list(request):
    query = request.GET.get("q", "").strip()
    table = MemberTable(member_search(query=query, active_only=request.GET.get("active") == "1"))
    if query:
        table.empty_text = _("No members found for “%(query)s”.") % {"query": query}
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
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


def _ratings_html(member: Member) -> str:
    """The member's ratings, chart, half rating and games as HTML, the same for every reader:
    cached until any pool's ratings change (``ratings.services.cache``), for this language and
    day (the chart's live point is dated today) and the member's own FIDE rating (the half
    rating is shown only without one)."""
    key = "clubs:member-ratings:" + hashlib.sha256("|".join([
        str(member.pk), str(member.fide_rating), translation.get_language() or "",
        datetime.date.today().isoformat(), ratings_cache_version(), club_data_version(),
    ]).encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        blocks = member_rating_blocks(member)
        html = render_to_string("clubs/_member_ratings.html", {
            "blocks": blocks,
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
    return render(request, "clubs/member_detail.html", {
        "member": member,
        "ratings_html": _ratings_html(member),
        "user_is_rating_officer": is_rating_officer(request.user),
    })
