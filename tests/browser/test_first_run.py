"""A club from nothing, in Chromium, through the site's pages only (no /admin/ URL): an empty
database with one superuser sets up the own club and a rating pool, adds members by form and by
a German-headed CSV file, invites two of them by e-mail as an official and a rating officer; the
official creates a Swiss, pairs and enters round 1 (a correction confirmed, a result typed while
the question is open asked about again instead of saved), and the rating officer closes the
period. In German, at 1366 and 390 px; screenshots with CLUBRATING_SCREENSHOTS=1.

"Today" is 25.11.2026: the pool's first period runs 1.7.–31.12.2026, so it is closed early with a
reason; round 1 is dated 20.11.2026.
"""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Game, Result, Tournament
from ratings.models import PeriodState, RatingPeriod, RatingPool
from tests.ratings.factories import set_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

D = datetime.date
CSV = (
    "Nachname;Vorname;Geburtsdatum;Geschlecht;Verein;ÖSB-Nr.;FIDE-ID;Elo\n"
    "Berger;Anna;17.05.1990;w;;1001;1601001;1905\n"
    "Huber;Bernd;03.02.1985;m;;1002;;\n"
    "Moser;Clara;12.12.2001;w;;1003;1601003;1720\n"
    "Wagner;Dora;01.01.1970;w;;1004;;\n"
    "Pichler;Emil;30.06.2010;m;;1005;;\n"
)


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state()
    assert "/admin/" not in page.url


def _submit(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).first.click()
    page.wait_for_load_state()


def _invite(page, live_server, shoot, width, last_name: str, email: str, role: str) -> str:
    """Invite a member on the Rollen page; returns the link of the invitation mail."""
    _open(page, f"{live_server.url}/accounts/roles/?q={last_name}")
    member = Member.objects.get(last_name=last_name)
    card = page.locator(f".member-login[data-member='{member.pk}']")
    card.locator("input[type=email]").fill(email)
    card.get_by_label(role).check()
    card.get_by_role("button", name="Per E-Mail einladen").click()
    page.wait_for_load_state()
    assert "ist eingeladen" in page.content()
    _no_sideways_scroll(page)
    shoot(page, f"first-run-roles-{width}")
    message = mail.outbox[-1]
    assert message.to == [email]
    return re.search(r"https?://\S+/accounts/password/reset/\S+", message.body).group(0)


def _set_password(page, link: str, password: str) -> None:
    _open(page, link)
    page.fill("input[name=new_password1]", password)
    page.fill("input[name=new_password2]", password)
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()


def _quick(page, keys: str) -> None:
    page.locator("#quick-entry").press_sequentially(keys)


@pytest.mark.parametrize("width", [1366, 390])
def test_a_club_from_nothing(page, live_server, login, shoot, monkeypatch, width):
    set_today(monkeypatch, D(2026, 11, 25))
    page.set_viewport_size({"width": width, "height": 900})
    User.objects.create_superuser("root", "root@example.org", "Wurzel-2026")
    assert not Club.objects.exists() and not Member.objects.exists()

    # The home page leads the superuser to the setup page.
    login(page, "root", "Wurzel-2026")
    _open(page, f"{live_server.url}/")
    assert "Diese Seite ist noch nicht eingerichtet" in page.locator("#first-run").inner_text()
    page.locator("#first-run").get_by_role("link", name="Den Verein einrichten").click()
    page.wait_for_load_state()
    page.fill("#id_name", "Schachklub Musterstadt")
    page.fill("#id_short_name", "SK Musterstadt")
    page.fill("#id_city", "Musterstadt")
    _submit(page, "Verein speichern")
    assert Club.objects.get(is_home=True).name == "Schachklub Musterstadt"
    _no_sideways_scroll(page)
    shoot(page, f"first-run-setup-{width}")

    # The first rating pool, from the setup page.
    page.locator("#step-pool").get_by_role("link").click()
    page.wait_for_load_state()
    page.fill("#id_name", "Standard")
    page.fill("#id_start_date", "2026-07-01")
    _submit(page, "Wertungspool anlegen")
    pool = RatingPool.objects.get(name="Standard")
    assert list(pool.periods.values_list("start", "end")) == [(D(2026, 7, 1), D(2026, 12, 31))]

    # Members: one by the form, five by a German-headed CSV file.
    _open(page, f"{live_server.url}/setup/")
    page.locator("#step-members").get_by_role("link", name="Neues Mitglied").click()
    page.wait_for_load_state()
    page.fill("#id_last_name", "Neumann")
    page.fill("#id_first_name", "Nora")
    page.fill("#id_birth_date", "1991-03-04")
    _submit(page, "Speichern")
    assert Member.objects.get(last_name="Neumann").club.name == "Schachklub Musterstadt"
    _open(page, f"{live_server.url}/exchange/members/")
    page.set_input_files("input[type=file]", files=[{"name": "mitglieder.csv", "mimeType": "text/csv",
                                                     "buffer": CSV.encode()}])
    _submit(page, "Vorschau")
    assert "„ösb-nr.“ → nationale ID" in page.locator("#columns-read").inner_text()
    shown = page.locator("#import-fields").inner_text()
    # Every field it will store, on a phone too (name and birth date first, the rest scrolling).
    assert "Berger, Anna\t17.05.1990" in shown and "1601001" in shown
    _no_sideways_scroll(page)
    shoot(page, f"first-run-import-preview-{width}")
    _submit(page, "Jetzt importieren")
    assert Member.objects.count() == 6
    assert Member.objects.get(last_name="Berger").fide_id == 1601001

    # Two users with roles, invited by e-mail; each sets his own password.
    official_link = _invite(page, live_server, shoot, width, "Berger", "anna@example.org", "Turnierleiter")
    officer_link = _invite(page, live_server, shoot, width, "Huber", "bernd@example.org", "Wertungsreferent")
    page.context.clear_cookies()
    _set_password(page, official_link, "Turnier-Leiterin-2026")
    _set_password(page, officer_link, "Wertungs-Referent-2026")

    # The official creates a Swiss, registers everybody, pairs round 1.
    login(page, "anna.berger", "Turnier-Leiterin-2026")
    _open(page, f"{live_server.url}/tournaments/new/")
    page.fill("#id_name", "Herbstturnier")
    page.select_option("#id_kind", "swiss")
    page.fill("#id_start_date", "2026-11-20")
    page.fill("#id_rounds_count", "3")
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Herbstturnier")
    _open(page, f"{live_server.url}/tournaments/{tournament.pk}/players/register/")
    for box in page.locator("#register-form input[name=members]").all():
        box.check()
    _submit(page, "Ausgewählte Mitglieder anmelden")
    assert tournament.players.count() == 6
    _open(page, f"{live_server.url}/tournaments/{tournament.pk}/pair/")
    _submit(page, "Runde 1 auslosen")
    games = list(Game.objects.filter(round__tournament=tournament).order_by("board"))
    assert len(games) == 3

    # Results by quick entry; then a correction: asked, another result typed meanwhile is asked
    # about again (not saved), and the question answered saves the result it asked about.
    _open(page, f"{live_server.url}/tournaments/{tournament.pk}/round/1/results/")
    for board, key in ((1, "w"), (2, "r"), (3, "s")):
        _quick(page, f"{board}{key}")
        saved = f"#board-{games[board - 1].pk}[data-saved]"
        page.wait_for_function(f"() => document.querySelector('{saved}') !== null")
    _quick(page, "1s")
    page.wait_for_function(f"() => document.querySelector('#board-{games[0].pk}.board-confirm') !== null")
    assert "Auf 0-1 ändern?" in page.locator(f"#board-{games[0].pk} .board-question").inner_text()
    _quick(page, "1r")
    page.wait_for_function(
        f"() => (document.querySelector('#board-{games[0].pk} .board-question') || {{}}).textContent"
        f" && document.querySelector('#board-{games[0].pk} .board-question').textContent.includes('½-½')")
    games[0].refresh_from_db()
    assert games[0].result == Result.WHITE_WINS
    _no_sideways_scroll(page)
    shoot(page, f"first-run-question-{width}")
    page.locator(f"#board-{games[0].pk} input[name=reason]").fill("Partieformular falsch gelesen")
    page.locator(f"#board-{games[0].pk} .board-question button[type=submit]").click()
    page.wait_for_function(f"() => document.querySelector('#board-{games[0].pk}[data-saved]') !== null")
    games[0].refresh_from_db()
    assert games[0].result == Result.DRAW
    assert list(games[0].history.values_list("new_result", "reason"))[-1] == (
        Result.DRAW, "Partieformular falsch gelesen")
    shoot(page, f"first-run-results-{width}")

    # The rating officer closes the period early, with a reason.
    page.context.clear_cookies()
    login(page, "bernd.huber", "Wertungs-Referent-2026")
    _open(page, f"{live_server.url}/ratings/officer/")
    page.get_by_role("link", name="Vorzeitig abschließen …").click()
    page.wait_for_load_state()
    page.get_by_label("Vorzeitig abschließen").check()
    page.get_by_label("Begründung für das vorzeitige Abschließen").fill("Saisonende")
    _no_sideways_scroll(page)
    shoot(page, f"first-run-close-{width}")
    _submit(page, "Vorzeitig abschließen und diese Liste veröffentlichen")
    assert "Vorzeitig abgeschlossen am 25.11.2026: Saisonende" in page.content()
    assert RatingPeriod.objects.get(pool=pool, start=D(2026, 7, 1)).state == PeriodState.CLOSED
