from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig

from .selectors import member_search
from .tables import MemberTable
from .models import Member


def member_list(request):
    query = request.GET.get("q", "").strip()
    table = MemberTable(member_search(query=query, active_only=request.GET.get("active") == "1"))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "clubs/member_list.html", {"table": table, "query": query})


def member_detail(request, pk):
    member = get_object_or_404(Member.objects.select_related("club"), pk=pk)
    return render(request, "clubs/member_detail.html", {"member": member})
