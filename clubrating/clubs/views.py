import datetime

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubrating.core.charts import Series, rating_history_svg
from clubrating.core.permissions import is_rating_officer, member_page_allowed, public_ratings_required
from ratings.selectors import PoolBlock, member_half_rating, member_rating_blocks
from ratings.tables import format_rating

from .models import Member
from .selectors import member_search
from .tables import MemberTable


@public_ratings_required
def member_list(request):
    query = request.GET.get("q", "").strip()
    table = MemberTable(member_search(query=query, active_only=request.GET.get("active") == "1"))
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
                "rating": format_rating(e.rating)}
            for e in block.history
        ]
        provisional = False
        state = block.state
        if block.provisional and state.live_rating is not None:
            today = datetime.date.today()
            if not points or today > points[-1][0]:
                points.append((today, state.live_rating))
                titles.append(_("%(pool)s, live (provisional): %(rating)s") % {
                    "pool": block.pool.name, "rating": format_rating(state.live_rating)})
                provisional = True
        series.append(Series(block.pool.name, points, provisional_last=provisional, point_titles=titles))
    return rating_history_svg(
        series, title=_("Rating history of %(name)s") % {"name": member.full_name},
        x_label=_("Date"), y_label=_("Rating"),
    )


def member_detail(request, pk):
    """A member's page: his ratings in every pool, the history chart, his rated games with their
    calculation, the performance per tournament and the half rating."""
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not member_page_allowed(request.user, member):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    blocks = member_rating_blocks(member)
    return render(request, "clubs/member_detail.html", {
        "member": member,
        "blocks": blocks,
        "chart": _history_chart(member, blocks),
        "half_rating": member_half_rating(member, blocks),
        "user_is_rating_officer": is_rating_officer(request.user),
    })
