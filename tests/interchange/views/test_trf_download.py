import datetime

import pytest
from django.urls import reverse

from clubrating.core.downloads import download_name
from clubrating.interchange.trf_export import tournament_export_trf

from .conftest import login_url

pytestmark = pytest.mark.django_db


def test_download_is_the_exported_trf(official_client, tournament):
    response = official_client.get(reverse("interchange:tournament_trf", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="Herbstturnier_2026.trf"'
    assert response.content.decode("utf-8") == tournament_export_trf(tournament=tournament)
    assert "001    1 m    Adler, Max" in response.content.decode("utf-8")


def _player_line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("001") and name in line)


def test_visitors_file_leaves_out_what_privacy_keeps_from_them(client, official, tournament, home_club):
    """clubrating.clubs.privacy: sex and birth data never leave the officials' pages; the birth
    year only where the club publishes it; a restricted profile shows the name only."""
    adler = tournament.players.get(member__last_name="Adler").member
    adler.birth_date, adler.fide_id = datetime.date(1990, 9, 17), 1600238
    adler.save()
    url = reverse("interchange:tournament_trf", args=[tournament.pk])
    full = _player_line(tournament_export_trf(tournament=tournament), "Adler")
    assert full[9] == "m" and full[69:79] == "1990/09/17" and full[57:68].strip() == "1600238"
    visitor = _player_line(client.get(url).content.decode(), "Adler")
    assert visitor[9] == " " and visitor[69:79].strip() == "" and visitor[57:68].strip() == "1600238"
    assert visitor[14:47].strip() == "Adler, Max" and visitor[48:52] == full[48:52]  # name, rating
    home_club.public_birth_years = True
    home_club.save()
    assert _player_line(client.get(url).content.decode(), "Adler")[69:79].strip() == "1990"
    adler.profile_restricted = True
    adler.save()
    restricted = _player_line(client.get(url).content.decode(), "Adler")
    assert restricted[14:47].strip() == "Adler, Max"
    assert restricted[57:79].strip() == "" and restricted[53:56].strip() == ""  # no ID, birth, federation
    official_client = client
    official_client.force_login(official)
    assert _player_line(official_client.get(url).content.decode(), "Adler") == _player_line(
        tournament_export_trf(tournament=tournament), "Adler")


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
