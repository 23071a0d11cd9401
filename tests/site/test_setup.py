"""First run: with no own club the home page leads whoever may set the site up to the setup
page, which saves the own club and its public settings and links the next steps."""

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User

from clubrating.clubs.models import Club
from tests.factories import ClubFactory
from tests.language import speak

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    client.force_login(User.objects.create_superuser("root", password="pw-root-2026"))
    speak(client, "de-at")
    return client


def test_the_home_page_of_a_new_site_leads_the_superuser_to_the_setup(superuser_client):
    page = superuser_client.get("/").content.decode()
    assert "Den Verein einrichten" in page and 'href="/setup/"' in page


def test_the_home_page_of_a_new_site_tells_a_visitor_it_is_not_set_up(client):
    speak(client, "de-at")
    page = client.get("/").content.decode()
    assert 'href="/setup/"' not in page
    assert "Diese Seite ist noch nicht eingerichtet." in page


def test_the_setup_page_saves_the_own_club_and_its_public_settings(superuser_client):
    other = ClubFactory(name="SK Nachbar", is_home=False)

    response = superuser_client.post("/setup/", {"name": "SK Musterstadt", "short_name": "SKM",
                                                 "city": "Musterstadt", "public_ratings": "on"})

    assert response.status_code == 302
    club = Club.objects.get(is_home=True)
    assert (club.name, club.short_name, club.public_ratings, club.public_tournaments,
            club.public_birth_years) == ("SK Musterstadt", "SKM", True, False, False)
    other.refresh_from_db()
    assert not other.is_home
    page = superuser_client.get("/setup/").content.decode()
    assert "✓ 1." in page and "✓ 2." not in page
    assert 'href="/ratings/officer/pools/new/"' in page and 'href="/accounts/roles/"' in page


def test_a_club_administrator_may_set_up_an_official_may_not(client):
    user = User.objects.create_user("tl", password="pw-tl-2026")
    user.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    client.force_login(user)
    assert client.get("/setup/").status_code == 403
    user.groups.add(Group.objects.get_or_create(name=settings.CLUB_ADMINS_GROUP)[0])
    assert client.get("/setup/").status_code == 200


def test_an_empty_home_page_links_the_rating_officer_to_the_first_pool(superuser_client):
    page = superuser_client.get("/").content.decode()
    assert '<p id="needs-pool"><a class="btn btn-sm btn-primary" href="/ratings/officer/pools/new/">' in page
