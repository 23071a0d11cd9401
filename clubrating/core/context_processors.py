from clubrating.clubs.models import Club


def club(request):
    """The own club is shown in the header of every page and every printout."""
    return {"home_club": Club.objects.filter(is_home=True).first()}
