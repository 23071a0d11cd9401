import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_german_is_the_default(client):
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Turniere" in html
    assert 'lang="de"' in html


def test_switching_language_switches_the_text(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/tournaments/"})
    assert response.status_code == 302
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Tournaments" in html
    assert "Turniere" not in html
    client.post(reverse("set_language"), {"language": "de-at", "next": "/"})
    assert "Turniere" in client.get(reverse("tournaments:list")).content.decode()


def test_austrian_number_and_date_formats():
    import datetime

    from django.utils import formats, translation

    with translation.override("de-at"):
        assert formats.date_format(datetime.date(2026, 11, 22), "SHORT_DATE_FORMAT") == "22.11.2026"
        assert formats.number_format(1234.5, 1, use_l10n=True, force_grouping=True) == "1.234,5"
    with translation.override("en"):
        assert formats.number_format(1234.5, 1, use_l10n=True, force_grouping=True) == "1,234.5"
