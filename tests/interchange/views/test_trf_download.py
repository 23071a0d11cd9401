import pytest
from django.urls import reverse

from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.interchange.views import trf_filename

from .conftest import login_url

pytestmark = pytest.mark.django_db


def test_download_is_the_exported_trf(client, tournament):
    response = client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="Herbstturnier 2026.trf"'
    assert response.content.decode("utf-8") == tournament_export_trf(tournament=tournament)
    assert "001    1 m    Adler, Max" in response.content.decode("utf-8")


def test_non_ascii_name_is_sent_as_rfc_5987_filename(client, tournament):
    tournament.name = "Grazer Meisterschaft: Ö/2026"
    tournament.save()
    response = client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response["Content-Disposition"] == (
        "attachment; filename*=utf-8''Grazer%20Meisterschaft%20%C3%96%202026.trf"
    )


@pytest.mark.parametrize(
    "name, filename",
    [("Herbstturnier 2026", "Herbstturnier 2026.trf"), ('A/B: "C"?', "A B C.trf"), ("???", "tournament.trf")],
)
def test_trf_filename(name, filename):
    assert trf_filename(name) == filename


def test_private_tournaments_send_visitors_to_login(client, tournament, home_club):
    home_club.public_tournaments = False
    home_club.save()
    url = reverse("interchange:tournament_trf", args=[tournament.pk])
    response = client.get(url)
    assert (response.status_code, response["Location"]) == (302, login_url(url))


def test_private_tournaments_are_downloadable_when_logged_in(client, tournament, home_club, plain_user):
    home_club.public_tournaments = False
    home_club.save()
    client.force_login(plain_user)
    response = client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response.status_code == 200


def test_unknown_tournament_is_404(client, home_club):
    assert client.get(reverse("interchange:tournament_trf", args=[999999])).status_code == 404


def test_tournament_pages_link_the_download(client, official, tournament):
    trf_link = f'href="{reverse("interchange:tournament_trf", args=[tournament.pk])}"'
    pgn_link = f'href="{reverse("interchange:pgn_import")}?tournament={tournament.pk}"'
    visitor_html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert trf_link in visitor_html
    assert pgn_link not in visitor_html
    client.force_login(official)
    official_html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert trf_link in official_html
    assert pgn_link in official_html
