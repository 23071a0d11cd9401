import pytest
from django.urls import reverse

from clubrating.core.downloads import download_name
from clubrating.interchange.trf_export import tournament_export_trf

from .conftest import login_url

pytestmark = pytest.mark.django_db


def test_download_is_the_exported_trf(client, tournament):
    response = client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="Herbstturnier_2026.trf"'
    assert response.content.decode("utf-8") == tournament_export_trf(tournament=tournament)
    assert "001    1 m    Adler, Max" in response.content.decode("utf-8")


def test_non_ascii_name_is_sent_as_rfc_5987_filename(client, tournament):
    tournament.name = "Grazer Meisterschaft: Ö/2026"
    tournament.save()
    response = client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response["Content-Disposition"] == (
        'attachment; filename="Grazer_Meisterschaft_Oe_2026.trf"; '
        "filename*=UTF-8''Grazer_Meisterschaft_%C3%96_2026.trf"
    )


@pytest.mark.parametrize(
    "name, filename",
    [("Herbstturnier 2026", "Herbstturnier_2026.trf"), ('A/B: "C"?', "A_B_C.trf"), ("???", "download.trf")],
)
def test_trf_filename(name, filename):
    assert download_name(name, extension="trf") == filename


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
