"""The error pages in the site's design (navigation bar, footer) and in the visitor's language:
403, 404, 429 (the lockout, and any other limit), 500, and a form refused by the CSRF check.
The 500 page renders without the database."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.shortcuts import render
from django.test import Client, RequestFactory, override_settings
from django.urls import path
from django.utils import translation
from django.views.defaults import server_error

from clubrating.urls import urlpatterns as site_urlpatterns
from tests.language import speak

EN, DE = "en", "de-at"


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("broken/", broken), *site_urlpatterns]


def page(html: str) -> tuple[str, str, list[str]]:
    """(title, h1, the paragraphs of <main> without their markup)."""
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
    main = html[html.index("<main"):html.index("</main>")]
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", main, re.S).group(1).strip()
    paragraphs = [" ".join(re.sub(r"<[^>]+>", "", p).split())
                  for p in re.findall(r"<p>(.*?)</p>", main, re.S)]
    return title, h1, paragraphs


def designed(html: str, lang: str) -> None:
    """The site's frame: its language, the dark navigation bar with the brand, the footer."""
    assert f'<html lang="{lang[:2]}">' in html
    assert '<nav class="navbar' in html and 'class="navbar-brand"' in html
    assert "bootstrap/css/bootstrap.min.css" in html and "css/clubrating.css" in html
    footer = {EN: "ClubRating · Austrian national Elo ratings for chess clubs",
              DE: "ClubRating · Österreichische nationale Elo-Wertung für Schachvereine"}[lang]
    assert footer in " ".join(html.split())


SERVER_ERROR = {
    EN: ("Server error · ClubRating", "Server error", [
        "Something went wrong on the server, and what you asked for was not done. The error has been "
        "recorded for the administrator.",
        "Please try again in a few minutes. If it keeps happening, tell your club's administrator what "
        "you were doing.",
        "Back to the start page"]),
    DE: ("Serverfehler · ClubRating", "Serverfehler", [
        "Auf dem Server ist etwas schiefgegangen; was Sie verlangt haben, wurde nicht ausgeführt. Der "
        "Fehler wurde für den Administrator aufgezeichnet.",
        "Bitte versuchen Sie es in ein paar Minuten noch einmal. Wenn es wieder passiert, sagen Sie dem "
        "Administrator Ihres Vereins, was Sie gerade getan haben.",
        "Zurück zur Startseite"]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", [EN, DE])
@override_settings(ROOT_URLCONF=__name__)
def test_an_unexpected_error_gets_the_500_page(lang):
    client = speak(Client(raise_request_exception=False), lang)
    response = client.get("/broken/")
    html = response.content.decode()
    assert response.status_code == 500
    assert page(html) == SERVER_ERROR[lang]
    designed(html, lang)


@pytest.mark.parametrize("lang", [EN, DE])
def test_the_500_page_needs_no_database_and_no_request_context(lang):
    """Without the ``django_db`` mark any query fails this test: the page must render while the
    database is the very thing that is down."""
    with translation.override(lang):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert page(response.content.decode()) == SERVER_ERROR[lang]


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "expected"), [
    (EN, ("Page not found · ClubRating", "Page not found", [
        "This page does not exist (any more).",
        "Perhaps the address is mistyped, or the tournament or list was removed. These pages may help:"])),
    (DE, ("Seite nicht gefunden · ClubRating", "Seite nicht gefunden", [
        "Diese Seite gibt es nicht (mehr).",
        "Vielleicht ist die Adresse falsch geschrieben oder das Turnier bzw. die Liste wurde entfernt. "
        "Diese Seiten helfen weiter:"])),
])
def test_a_missing_page_gets_the_404_page(client, lang, expected):
    response = speak(client, lang).get("/does-not-exist/")
    html = response.content.decode()
    assert response.status_code == 404
    assert page(html) == expected
    designed(html, lang)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "expected"), [
    (EN, ("Access denied · ClubRating", "Access denied", [
        "You are logged in, but your account may not open this page or do this action.",
        "Officials enter results and pair rounds; rating officers manage rating periods and imports. Ask "
        "your club's administrator if you need one of these roles.",
        "Back to the start page"])),
    (DE, ("Zugriff verweigert · ClubRating", "Zugriff verweigert", [
        "Sie sind angemeldet, aber Ihr Konto darf diese Seite nicht öffnen oder diese Aktion nicht "
        "ausführen.",
        "Turnierleiter geben Ergebnisse ein und losen Runden aus; Wertungsreferenten verwalten "
        "Wertungsperioden und Importe. Wenden Sie sich an die Verwaltung Ihres Vereins, wenn Sie eine "
        "dieser Rollen brauchen.",
        "Zurück zur Startseite"])),
])
def test_a_forbidden_page_gets_the_403_page(client, lang, expected):
    client.force_login(User.objects.create_user("plain"))
    response = speak(client, lang).get("/exchange/members/")
    html = response.content.decode()
    assert response.status_code == 403
    assert page(html) == expected
    designed(html, lang)


TOO_MANY = {
    EN: ("Too many requests · ClubRating", "Too many requests", [
        "Too many requests came from here in a short time, so this one was not carried out.",
        "Please wait a few minutes, then try again.", "Back to the start page"]),
    DE: ("Zu viele Anfragen · ClubRating", "Zu viele Anfragen", [
        "Von hier kamen in kurzer Zeit zu viele Anfragen, darum wurde diese nicht ausgeführt.",
        "Bitte warten Sie ein paar Minuten und versuchen Sie es dann noch einmal.",
        "Zurück zur Startseite"]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", [EN, DE])
def test_the_429_page_for_any_limit(lang):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    with translation.override(lang):
        response = render(request, "429.html", status=429)
    html = response.content.decode()
    assert page(html) == TOO_MANY[lang]
    designed(html, lang)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [(EN, "Login locked · ClubRating"),
                                             (DE, "Anmeldung gesperrt · ClubRating")])
def test_the_lockout_is_a_429_page_of_the_site(client, lang, title):
    User.objects.create_user("anna", password="richtig-123")
    speak(client, lang)
    for _attempt in range(5):
        response = client.post("/accounts/login/", {"username": "anna", "password": "falsch"})
    html = response.content.decode()
    assert response.status_code == 429
    names = [t.name for t in response.templates]
    assert names[names.index("registration/lockout.html") + 1] == "429.html"
    assert page(html)[0] == title
    designed(html, lang)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "expected"), [
    (EN, ("The form could not be sent · ClubRating", "The form could not be sent", [
        "The page was open for a long time, you logged in or out meanwhile, or your browser blocks "
        "cookies for this site: the form's security check failed, and nothing was changed.",
        "Go back, reload the page and send the form again.", "Back to the start page"])),
    (DE, ("Das Formular konnte nicht gesendet werden · ClubRating",
          "Das Formular konnte nicht gesendet werden", [
        "Die Seite war lange offen, Sie haben sich inzwischen an- oder abgemeldet, oder Ihr Browser sperrt "
        "Cookies für diese Seite: Die Sicherheitsprüfung des Formulars ist fehlgeschlagen, und nichts "
        "wurde geändert.",
        "Gehen Sie zurück, laden Sie die Seite neu und senden Sie das Formular noch einmal.",
        "Zurück zur Startseite"])),
])
def test_a_form_without_its_csrf_token_gets_a_page_of_the_site(lang, expected):
    client = speak(Client(enforce_csrf_checks=True), lang)
    response = client.post("/accounts/login/", {"username": "anna", "password": "x"})
    html = response.content.decode()
    assert response.status_code == 403
    assert page(html) == expected
    designed(html, lang)
