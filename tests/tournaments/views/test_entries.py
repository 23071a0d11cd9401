"""The registration and check-in pages (views/entries.py): the official's window, entries and
check-in list, the member's one-tap registration, check-in, rounds to sit out and withdrawal,
the guests' form; who may do what, and bad input that changes nothing."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubrating.tournaments import checkin, entries
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Entry,
    EntryState,
    EntryWindow,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.services import player_register, round_pair
from ratings.models import PoolMember
from ratings.services import pool_create
from tests.factories import MemberFactory, TournamentFactory
from tests.language import speak

from .helpers import assert_forbidden, assert_sent_to_login, page, text

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


@pytest.fixture
def open_swiss(home_club):
    """A Swiss open for registration (members and guests, at most 3 players, check-in on)."""
    tournament = TournamentFactory(name="Adventopen", kind=TournamentKind.SWISS, rounds_count=5,
                                   start_date=datetime.date(2026, 12, 5))
    now = timezone.now()
    entries.entry_window_set(tournament=tournament, opens_at=now - datetime.timedelta(days=1),
                             closes_at=now + datetime.timedelta(days=5), max_players=3,
                             members_may_enter=True, guests_may_enter=True, check_in=True)
    return tournament


@pytest.fixture
def eva(home_club):
    """A member with a login: Eva Huber."""
    user = User.objects.create_user("eva", password="pw-eva")
    return MemberFactory(last_name="Huber", first_name="Eva", club=home_club, user=user,
                         email="eva@example.at")


@pytest.fixture
def eva_client(client, eva):
    client.force_login(eva.user)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- permissions ------------------------------------------------------------------------------

def test_official_pages_refuse_visitors_and_members(client, open_swiss, plain_user):
    entry = entries.entry_submit_member(tournament=open_swiss, member=MemberFactory())
    gets = [url("entries", open_swiss.pk), url("check_in", open_swiss.pk)]
    window = {"opens_at": "2026-12-01T18:00", "closes_at": "2026-12-02T18:00"}
    posts = [(url("entries", open_swiss.pk), window),
             (url("entry_decide", open_swiss.pk, entry.pk), {"decision": "confirm"}),
             (url("check_in", open_swiss.pk), {"player": "1", "present": "1"})]
    assert_sent_to_login(client, gets, posts)
    client.force_login(plain_user)
    assert_forbidden(client, gets, posts)
    entry.refresh_from_db()
    assert entry.state == EntryState.PENDING and TournamentPlayer.objects.count() == 0


def test_member_actions_need_a_login_and_a_post(client, open_swiss):
    for name in ("entry_enter", "entry_cancel", "own_check_in", "own_skip", "own_leave"):
        response = client.post(url(name, open_swiss.pk))
        assert response.status_code == 302 and response.url.startswith(reverse("login")), name
    assert Entry.objects.count() == 0


def test_member_actions_refuse_get(eva_client, open_swiss):
    assert eva_client.get(url("entry_enter", open_swiss.pk)).status_code == 405
    assert Entry.objects.count() == 0


# --- the official's pages ---------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "saved"), [("en", "The registration has been saved."),
                                            ("de-at", "Die Anmeldung wurde gespeichert.")])
def test_official_opens_registration(official_client, home_club, lang, saved):
    tournament = TournamentFactory(kind=TournamentKind.SWISS)
    response = speak(official_client, lang).post(url("entries", tournament.pk), {
        "opens_at": "2026-12-01T18:00", "closes_at": "2026-12-04T20:00", "max_players": "40",
        "members_may_enter": "on", "guests_may_enter": "on", "check_in": "on"}, follow=True)
    assert messages_of(response) == [saved]
    window = EntryWindow.objects.get(tournament=tournament)
    assert (timezone.localtime(window.opens_at).strftime("%d.%m.%Y %H:%M"), window.max_players,
            window.members_may_enter, window.guests_may_enter, window.check_in) == (
        "01.12.2026 18:00", 40, True, True, True)


@pytest.mark.parametrize(("lang", "error"), [
    ("en", "Registration must close after it opens."),
    ("de-at", "Die Anmeldung muss nach ihrem Beginn enden."),
])
def test_bad_window_changes_nothing(official_client, open_swiss, lang, error):
    before = EntryWindow.objects.get(tournament=open_swiss)
    response = speak(official_client, lang).post(url("entries", open_swiss.pk), {
        "opens_at": "2026-12-04T18:00", "closes_at": "2026-12-01T18:00", "members_may_enter": "on"})
    assert response.status_code == 400
    assert error in text(response)
    after = EntryWindow.objects.get(tournament=open_swiss)
    assert (after.opens_at, after.closes_at, after.max_players) == (before.opens_at, before.closes_at, 3)


@pytest.mark.parametrize(("lang", "error"), [("en", "Enter a valid date/time."),
                                            ("de-at", "Bitte ein gültiges Datum und Uhrzeit eingeben.")])
def test_window_form_rejects_garbage(official_client, home_club, lang, error):
    tournament = TournamentFactory(kind=TournamentKind.SWISS)
    response = speak(official_client, lang).post(url("entries", tournament.pk), {
        "opens_at": "morgen", "closes_at": "2026-12-01T18:00", "max_players": "1"})
    assert response.status_code == 400
    assert error in text(response)
    assert not EntryWindow.objects.filter(tournament=tournament).exists()


def test_confirming_registers_with_the_current_national_rating(official_client, open_swiss, eva):
    pool = pool_create(name="Standard", start_date=datetime.date(2026, 1, 1))
    PoolMember.objects.create(pool=pool, member=eva, rating=1834.4, games_count=20)
    entry = entries.entry_submit_member(tournament=open_swiss, member=eva)
    listing = text(page(official_client, "entries", open_swiss.pk))
    assert "Huber, Eva" in listing and 'value="confirm"' in listing
    response = speak(official_client, "de-at").post(url("entry_decide", open_swiss.pk, entry.pk),
                                                    {"decision": "confirm"}, follow=True)
    assert messages_of(response) == ["Huber, Eva steht in der Startliste."]
    player = TournamentPlayer.objects.get(tournament=open_swiss, member=eva)
    assert player.rating == 1834
    entry.refresh_from_db()
    assert entry.state == EntryState.CONFIRMED


def test_waiting_list_refusal_and_a_full_tournament(official_client, open_swiss):
    members = [MemberFactory(last_name=f"Spieler{i}", first_name="Max") for i in range(5)]
    submitted = [entries.entry_submit_member(tournament=open_swiss, member=m) for m in members]
    client = speak(official_client, "en")
    for entry in submitted[:3]:
        client.post(url("entry_decide", open_swiss.pk, entry.pk), {"decision": "confirm"}, follow=True)
    response = client.post(url("entry_decide", open_swiss.pk, submitted[3].pk), {"decision": "confirm"},
                           follow=True)
    assert messages_of(response) == ["The tournament is full (3 players); put the entry on the waiting list."]
    response = client.post(url("entry_decide", open_swiss.pk, submitted[3].pk), {"decision": "wait"},
                           follow=True)
    assert messages_of(response) == ["Spieler3, Max is on the waiting list."]
    response = client.post(url("entry_decide", open_swiss.pk, submitted[4].pk), {"decision": "refuse"},
                           follow=True)
    assert messages_of(response) == ["The registration of Spieler4, Max has been refused."]
    response = client.post(url("entry_decide", open_swiss.pk, submitted[4].pk), {"decision": "maybe"},
                           follow=True)
    assert messages_of(response) == ["Choose to confirm, refuse or put on the waiting list."]
    states = [e.state for e in Entry.objects.order_by("pk")]
    assert states == [EntryState.CONFIRMED] * 3 + [EntryState.WAITING, EntryState.REFUSED]
    assert TournamentPlayer.objects.filter(tournament=open_swiss).count() == 3


def test_official_ticks_the_check_in_list_and_the_pairing_page_names_the_missing(official_client, open_swiss):
    players = [player_register(tournament=open_swiss, member=MemberFactory(last_name=name, first_name="Max"),
                               rating=1800) for name in ("Adler", "Berger", "Czech")]
    client = speak(official_client, "de-at")
    response = client.post(url("check_in", open_swiss.pk), {"player": players[0].pk, "present": "1"},
                           follow=True)
    assert messages_of(response) == ["Adler, Max ist anwesend gemeldet."]
    assert "1 / 3" in text(response)
    pair_page = text(client.get(url("pair", open_swiss.pk)))
    assert ("2 Spieler haben sich nicht anwesend gemeldet und setzen in Runde 1 aus, wenn sie jetzt "
            "ausgelost wird:") in pair_page
    assert "Berger, Max, Czech, Max" in pair_page
    # A player of another tournament changes nothing.
    stranger = player_register(tournament=TournamentFactory(), member=MemberFactory(), rating=None)
    response = client.post(url("check_in", open_swiss.pk), {"player": stranger.pk, "present": "1"},
                           follow=True)
    assert messages_of(response) == ["Wählen Sie einen Spieler dieses Turniers."]
    stranger.refresh_from_db()
    assert stranger.checked_in_at is None
    checkin.player_check_in(player=players[1])
    round_pair(tournament=open_swiss)
    response = client.post(url("check_in", open_swiss.pk), {"player": players[2].pk, "present": "1"},
                           follow=True)
    assert messages_of(response) == ["Runde 1 ist bereits ausgelost; die Anwesenheitsmeldung ist vorbei."]
    byes = Bye.objects.filter(round__tournament=open_swiss).values_list("member__last_name", "kind")
    assert list(byes) == [("Czech", ByeKind.ZERO)]


def test_check_in_list_posts_ids_above_one_thousand_ungrouped(official_client, open_swiss):
    """German groups thousands with a dot: a player number 1021 written as "1.021" into the form
    would not be a player any more (PostgreSQL's sequences keep counting across a test run)."""
    member = MemberFactory(pk=12345, last_name="Tausend", first_name="Tom")
    player = TournamentPlayer.objects.create(pk=1021, tournament=open_swiss, member=member,
                                             rating=1800, start_rank=1)
    client = speak(official_client, "de-at")
    page_html = client.get(url("check_in", open_swiss.pk)).content.decode()
    assert 'id="player-1021"' in page_html and 'name="player" value="1021"' in page_html
    response = client.post(url("check_in", open_swiss.pk), {"player": "1021", "present": "1"})
    assert response.status_code == 302 and response["Location"].endswith("/check-in/#player-1021")
    player.refresh_from_db()
    assert player.checked_in_at is not None


# --- the member -------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "registered", "state", "button"), [
    ("en", "You have registered; the official confirms your registration.", "waiting for confirmation",
     "Register"),
    ("de-at", "Sie haben sich angemeldet; der Funktionär bestätigt Ihre Anmeldung.", "wartet auf Bestätigung",
     "Anmelden"),
])
def test_member_registers_with_one_tap_and_cancels(eva_client, open_swiss, lang, registered, state, button):
    client = speak(eva_client, lang)
    before = text(client.get(url("detail", open_swiss.pk)))
    assert 'id="enter-button"' in before and f">{button}</button>" in before
    response = client.post(url("entry_enter", open_swiss.pk), follow=True)
    assert messages_of(response) == [registered]
    assert state in text(response) and 'id="enter-button"' not in text(response)
    assert Entry.objects.get().state == EntryState.PENDING
    response = client.post(url("entry_enter", open_swiss.pk), follow=True)  # a second tap
    assert Entry.objects.count() == 1
    assert len(messages_of(response)) == 1
    client.post(url("entry_cancel", open_swiss.pk))
    assert Entry.objects.get().state == EntryState.CANCELLED


def test_login_without_member_registers_nothing(client, open_swiss, plain_user):
    client.force_login(plain_user)
    response = speak(client, "de-at").post(url("entry_enter", open_swiss.pk), follow=True)
    assert messages_of(response) == [
        "Ihr Zugang ist mit keinem Mitglied des Vereins verbunden; wenden Sie sich an einen Funktionär."]
    assert Entry.objects.count() == 0


def test_closed_window_refuses_the_tap(eva_client, open_swiss):
    EntryWindow.objects.filter(tournament=open_swiss).update(
        opens_at=timezone.now() - datetime.timedelta(days=3),
        closes_at=timezone.now() - datetime.timedelta(days=1))
    page_text = text(speak(eva_client, "en").get(url("detail", open_swiss.pk)))
    assert "Registration is closed." in page_text and 'id="enter-button"' not in page_text
    response = speak(eva_client, "en").post(url("entry_enter", open_swiss.pk), follow=True)
    assert messages_of(response)[0].startswith("Registration closed on ")
    assert Entry.objects.count() == 0


@pytest.mark.parametrize(("lang", "checked", "taken_back"), [
    ("en", "You are checked in for round 1.", "Your check-in has been taken back."),
    ("de-at", "Sie sind für Runde 1 anwesend gemeldet.", "Ihre Anwesenheitsmeldung wurde zurückgenommen."),
])
def test_player_checks_in_on_his_phone(eva_client, open_swiss, eva, lang, checked, taken_back):
    player = player_register(tournament=open_swiss, member=eva, rating=None)
    client = speak(eva_client, lang)
    assert 'id="check-in-button"' in text(client.get(url("detail", open_swiss.pk)))
    response = client.post(url("own_check_in", open_swiss.pk), {"present": "1"}, follow=True)
    assert messages_of(response) == [checked]
    player.refresh_from_db()
    assert player.checked_in_at is not None
    response = client.post(url("own_check_in", open_swiss.pk), {"present": "0"}, follow=True)
    assert messages_of(response) == [taken_back]
    player.refresh_from_db()
    assert player.checked_in_at is None


def test_only_players_check_in(eva_client, open_swiss):
    response = speak(eva_client, "de-at").post(url("own_check_in", open_swiss.pk), follow=True)
    assert messages_of(response) == ["Sie stehen nicht in der Startliste dieses Turniers."]
    assert TournamentPlayer.objects.count() == 0


def test_player_sits_out_rounds_and_withdraws(eva_client, open_swiss, eva):
    player = player_register(tournament=open_swiss, member=eva, rating=None)
    client = speak(eva_client, "en")
    response = client.post(url("own_skip", open_swiss.pk), {"rounds": ["9"]}, follow=True)
    assert messages_of(response) == ["Choose the rounds you will not play."]
    assert Bye.objects.count() == 0
    response = client.post(url("own_skip", open_swiss.pk), {"rounds": ["3", "2"]}, follow=True)
    assert messages_of(response) == ["You sit out round(s) 2, 3."]
    assert sorted(Bye.objects.values_list("round__number", "kind")) == [(2, ByeKind.ZERO), (3, ByeKind.ZERO)]
    response = client.post(url("own_leave", open_swiss.pk), follow=True)  # without the tick
    assert messages_of(response) == ["Tick the box to confirm that you withdraw."]
    player.refresh_from_db()
    assert player.withdrawn_from_round is None
    response = client.post(url("own_leave", open_swiss.pk), {"confirm": "1"}, follow=True)
    assert messages_of(response) == ["You have withdrawn from round 1 on."]
    player.refresh_from_db()
    assert player.withdrawn_from_round == 1


# --- the guest --------------------------------------------------------------------------------

def test_guest_form_only_where_guests_may_register(client, home_club):
    tournament = TournamentFactory(kind=TournamentKind.SWISS)
    assert client.get(url("entry_guest", tournament.pk)).status_code == 404
    now = timezone.now()
    entries.entry_window_set(tournament=tournament, opens_at=now, closes_at=now + datetime.timedelta(days=1))
    assert client.get(url("entry_guest", tournament.pk)).status_code == 404


@pytest.mark.parametrize(("lang", "thanks"), [
    ("en", "Thank you, Kovacs, Laszlo: your registration has arrived; the official confirms it."),
    ("de-at", "Danke, Kovacs, Laszlo: Ihre Anmeldung ist eingelangt; der Funktionär bestätigt sie."),
])
def test_guest_registers(client, open_swiss, lang, thanks):
    response = speak(client, lang).post(url("entry_guest", open_swiss.pk), {
        "last_name": "Kovacs", "first_name": "Laszlo", "club_name": "Budapesti SE", "birth_year": "1985",
        "fide_id": "720003", "email": "laszlo@example.hu"}, follow=True)
    assert messages_of(response) == [thanks]
    entry = Entry.objects.get()
    assert (entry.full_name, entry.club_name, entry.birth_year, entry.fide_id, entry.email, entry.member) == (
        "Kovacs, Laszlo", "Budapesti SE", 1985, 720003, "laszlo@example.hu", None)


@pytest.mark.parametrize(("lang", "errors"), [
    ("en", ["This field is required.",
            f"Year of birth 85 is not between 1850 and {datetime.date.today().year + 1}.",
            "Enter a valid email address."]),
    ("de-at", ["Dieses Feld ist zwingend erforderlich.",
               f"Geburtsjahr 85 liegt nicht zwischen 1850 und {datetime.date.today().year + 1}.",
               "Bitte gültige E-Mail-Adresse eingeben."]),
])
def test_guest_bad_input_saves_nothing(client, open_swiss, lang, errors):
    response = speak(client, lang).post(url("entry_guest", open_swiss.pk), {
        "last_name": "", "birth_year": "85", "fide_id": "x", "email": "laszlo@"})
    assert response.status_code == 400
    for error in errors:
        assert error in text(response)
    assert Entry.objects.count() == 0


def test_guest_name_is_escaped_on_the_official_list(official_client, open_swiss):
    entries.entry_submit_guest(tournament=open_swiss, last_name="<script>alert(1)</script>")
    listing = text(page(official_client, "entries", open_swiss.pk))
    assert "<script>alert(1)</script>" not in listing
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in listing


def test_confirmation_email_only_for_members_who_asked_and_guests_who_gave_an_address(
        official_client, open_swiss, eva, django_capture_on_commit_callbacks):
    from clubrating.tournaments.models import Notification

    quiet = MemberFactory(last_name="Still", first_name="Stefan", email="still@example.at")
    eva.notify_by_email = True
    eva.save()
    submitted = [entries.entry_submit_member(tournament=open_swiss, member=m) for m in (quiet, eva)]
    submitted.append(entries.entry_submit_guest(tournament=open_swiss, last_name="Nagy",
                                                email="nagy@example.hu"))
    with django_capture_on_commit_callbacks(execute=False):
        for entry in submitted:
            official_client.post(url("entry_decide", open_swiss.pk, entry.pk), {"decision": "confirm"})
    assert sorted(Notification.objects.values_list("email", flat=True)) == [
        "eva@example.at", "nagy@example.hu"]


@pytest.mark.parametrize(("lang", "link"), [("en", "2 registrations wait for a decision"),
                                            ("de-at", "2 Anmeldungen warten auf eine Entscheidung")])
def test_tournament_page_tells_the_official_what_waits(official_client, open_swiss, lang, link):
    for member in (MemberFactory(), MemberFactory()):
        entries.entry_submit_member(tournament=open_swiss, member=member)
    html = text(page(official_client, "detail", open_swiss.pk, lang=lang))
    assert f'id="entries-link">{link}</a>' in html
    official_client.logout()
    assert 'id="entries-link"' not in text(page(official_client, "detail", open_swiss.pk, lang=lang))
