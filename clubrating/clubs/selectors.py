from django.db.models import Q, QuerySet

from .models import Member


def member_search(*, query: str = "", active_only: bool = False) -> QuerySet[Member]:
    members = Member.objects.select_related("club")
    if active_only:
        members = members.filter(active=True)
    for word in query.split():
        members = members.filter(
            Q(last_name__icontains=word) | Q(first_name__icontains=word)
            | Q(club__name__icontains=word) | Q(national_id=word) | Q(fide_id__iexact=word)
        )
    return members
