from django.shortcuts import get_object_or_404, render

from .models import Member


def member_list(request):
    return render(request, "clubs/member_list.html", {"members": Member.objects.all()})


def member_detail(request, pk):
    return render(request, "clubs/member_detail.html", {"member": get_object_or_404(Member, pk=pk)})
