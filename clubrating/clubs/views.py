from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig

from clubrating.core.permissions import is_rating_officer, member_page_allowed, public_ratings_required

from .models import Member
from .selectors import member_search
from .tables import MemberTable


@public_ratings_required
def member_list(request):
    query = request.GET.get("q", "").strip()
    table = MemberTable(member_search(query=query, active_only=request.GET.get("active") == "1"))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "clubs/member_list.html", {"table": table, "query": query})


def member_detail(request, pk):
    """A member's page: his ratings in every pool, the history chart, his rated games with their
    calculation, the performance per tournament and the half rating."""
    from ratings.views.member import (  # ratings depends on clubs
        history_chart,
        member_half_rating,
        member_ratings,
    )

    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    if not member_page_allowed(request.user, member):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    blocks = member_ratings(member)
    return render(request, "clubs/member_detail.html", {
        "member": member,
        "blocks": blocks,
        "chart": history_chart(member, blocks),
        "half_rating": member_half_rating(member, blocks),
        "user_is_rating_officer": is_rating_officer(request.user),
    })
