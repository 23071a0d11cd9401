"""First run: the page that sets a new installation up through the site, not the admin. The own
club and its public settings are saved here; the first rating pool, the people and their roles,
and the members each have their own page, which this page links in order and marks as done."""

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubrating.accounts.permissions import club_admin_required
from clubrating.accounts.roles import ROLE_NAMES
from clubrating.clubs.models import Club, Member
from clubrating.clubs.selectors import home_club
from clubrating.clubs.services import home_club_save
from ratings.models import RatingPool


class ClubSetupForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "short_name", "city", "public_ratings", "public_tournaments", "public_birth_years"]


@club_admin_required
@require_http_methods(["GET", "POST"])
def setup_page(request):
    club = home_club()
    form = ClubSetupForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        home_club_save(club=form.save(commit=False))
        messages.success(request, _("The own club is saved."))
        return redirect("setup")
    steps = {
        "club": club is not None,
        "pool": RatingPool.objects.exists(),
        "people": User.objects.filter(groups__name__in=ROLE_NAMES).exists(),
        "members": Member.objects.exists(),
    }
    return render(request, "setup.html", {"form": form, "club": club, "steps": steps,
                                          "pools": RatingPool.objects.order_by("name")})
