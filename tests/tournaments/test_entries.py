"""Registration, waiting list, withdrawal by the player, check-in and the e-mails of the players
(clubrating.tournaments.entries, .checkin, .notifications)."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone, translation

from clubrating.tournaments import checkin, entries, notifications
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Entry,
    EntryState,
    Game,
    Notification,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.services import player_register, round_pair
from tests.factories import ClubFactory, MemberFactory, TournamentFactory

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 25, 18, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def german():
    with translation.override("de-at"):
        yield


@pytest.fixture
def open_swiss():
    tournament = TournamentFactory(name="Adventopen", kind=TournamentKind.SWISS, rounds_count=5,
                                   start_date=datetime.date(2026, 12, 5))
    entries.entry_window_set(tournament=tournament, opens_at=NOW - datetime.timedelta(days=1),
                             closes_at=NOW + datetime.timedelta(days=5), max_players=3,
                             members_may_enter=True, guests_may_enter=True, check_in=True)
    return tournament


def refusal(call, **kwargs) -> str:
    with pytest.raises(TournamentRefused) as exc:
        call(**kwargs)
    return str(exc.value)


def test_window_is_checked(open_swiss):
    assert refusal(entries.entry_window_set, tournament=open_swiss, opens_at=NOW, closes_at=NOW) == (
        "Die Anmeldung muss nach ihrem Beginn enden.")
    assert refusal(entries.entry_window_set, tournament=open_swiss, opens_at=NOW,
                   closes_at=NOW + datetime.timedelta(days=1), max_players=1) == (
        "Ein Turnier braucht Platz für mindestens zwei Spieler.")
    robin = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    assert "Rundenturnier" in refusal(entries.entry_window_set, tournament=robin, opens_at=NOW,
                                      closes_at=NOW + datetime.timedelta(days=1), check_in=True)


def test_member_registers_with_one_tap(open_swiss):
    member = MemberFactory(last_name="Huber", first_name="Eva", club=ClubFactory(name="SK Donaustadt"))
    entry = entries.entry_submit_member(tournament=open_swiss, member=member, now=NOW)
    assert (entry.state, entry.full_name, entry.club_name) == (
        EntryState.PENDING, "Huber, Eva", "SK Donaustadt")
    assert refusal(entries.entry_submit_member, tournament=open_swiss, member=member, now=NOW) == (
        "Sie haben sich bereits angemeldet.")
    later = NOW + datetime.timedelta(days=6)
    other = MemberFactory()
    assert refusal(entries.entry_submit_member, tournament=open_swiss, member=other, now=later) == (
        "Die Anmeldung endete am 30.11.2026 19:00.")
    assert Entry.objects.count() == 1


def test_guest_is_filled_in_from_a_known_fide_id(open_swiss):
    MemberFactory(last_name="Kovacs", first_name="Laszlo", fide_id=720003, birth_year=1985,
                  club=ClubFactory(name="Budapesti SE"))
    entry = entries.entry_submit_guest(tournament=open_swiss, last_name="", fide_id=720003, now=NOW)
    assert (entry.full_name, entry.club_name, entry.birth_year) == ("Kovacs, Laszlo", "Budapesti SE", 1985)
    assert refusal(entries.entry_submit_guest, tournament=open_swiss, last_name="Kovacs", fide_id=720003,
                   now=NOW) == "Dieser Spieler hat sich bereits angemeldet."
    assert refusal(entries.entry_submit_guest, tournament=open_swiss, last_name="  ", now=NOW) == (
        "Geben Sie Ihren Familiennamen an.")


def test_official_confirms_refuses_and_keeps_a_waiting_list(open_swiss):
    members = [MemberFactory(last_name=f"Spieler{i}") for i in range(4)]
    submitted = [entries.entry_submit_member(tournament=open_swiss, member=m, now=NOW) for m in members]
    guest = entries.entry_submit_guest(tournament=open_swiss, last_name="Gast", first_name="Gustav",
                                       club_name="SV Gäste", birth_year=1970, now=NOW)
    for entry in submitted[:2]:
        entries.entry_decide(entry=entry, state=EntryState.CONFIRMED, by=None, rating=1500, now=NOW)
    confirmed_guest = entries.entry_decide(entry=guest, state=EntryState.CONFIRMED, by=None, now=NOW)
    assert confirmed_guest.member.full_name == "Gast, Gustav"
    assert confirmed_guest.member.club.name == "SV Gäste"
    assert TournamentPlayer.objects.filter(tournament=open_swiss).count() == 3
    assert refusal(entries.entry_decide, entry=submitted[2], state=EntryState.CONFIRMED, by=None) == (
        "Das Turnier ist voll (3 Spieler); setzen Sie die Anmeldung auf die Warteliste.")
    waiting = entries.entry_decide(entry=submitted[2], state=EntryState.WAITING, by=None)
    refused = entries.entry_decide(entry=submitted[3], state=EntryState.REFUSED, by=None)
    assert (waiting.state, refused.state) == (EntryState.WAITING, EntryState.REFUSED)
    # Confirming twice changes nothing.
    again = entries.entry_decide(entry=submitted[0], state=EntryState.CONFIRMED, by=None)
    assert again.state == EntryState.CONFIRMED and TournamentPlayer.objects.count() == 3
    # A player on the waiting list takes his entry back himself.
    assert entries.entry_cancel(entry=waiting).state == EntryState.CANCELLED


def test_round_1_pairs_only_the_players_who_checked_in(open_swiss):
    members = [MemberFactory(last_name=name) for name in ("Adler", "Berger", "Czech", "Dorn", "Egger")]
    players = [player_register(tournament=open_swiss, member=m, rating=2000 - 10 * i)
               for i, m in enumerate(members)]
    for player in players[:4]:
        checkin.player_check_in(player=player, now=NOW)
    assert [p.member.last_name for p in checkin.players_missing_check_in(tournament=open_swiss)] == ["Egger"]
    rnd = round_pair(tournament=open_swiss, date=datetime.date(2026, 12, 5))
    paired = {n for g in Game.objects.filter(round=rnd) for n in (g.white.last_name, g.black.last_name)}
    assert paired == {"Adler", "Berger", "Czech", "Dorn"}
    assert [(b.member.last_name, b.kind) for b in Bye.objects.filter(round=rnd)] == [("Egger", ByeKind.ZERO)]
    assert refusal(checkin.player_check_in, player=players[4]) == (
        "Runde 1 ist bereits ausgelost; die Anwesenheitsmeldung ist vorbei.")
    assert checkin.players_missing_check_in(tournament=open_swiss) == []


def test_player_sits_out_or_leaves_himself(open_swiss):
    players = [player_register(tournament=open_swiss, member=MemberFactory(), rating=1800) for _ in range(4)]
    for player in players:
        checkin.player_check_in(player=player, now=NOW)
    round_pair(tournament=open_swiss)
    assert refusal(entries.player_skip_rounds, player=players[0], rounds=[1]) == (
        "Wählen Sie Runden, die noch nicht ausgelost sind (ab Runde 2).")
    byes = entries.player_skip_rounds(player=players[0], rounds=[3, 2])
    assert [(b.round.number, b.kind) for b in byes] == [(2, ByeKind.ZERO), (3, ByeKind.ZERO)]
    left = entries.player_leave(player=players[1])
    assert left.withdrawn_from_round == 2


def test_players_who_asked_get_an_email_when_paired(open_swiss, django_capture_on_commit_callbacks):
    wants = MemberFactory(last_name="Mailer", first_name="Max", email="max@example.at", notify_by_email=True)
    quiet = MemberFactory(last_name="Still", email="still@example.at")
    opponent = MemberFactory(last_name="Gegner", first_name="Gerd")
    for member in (wants, quiet, opponent):
        player = player_register(tournament=open_swiss, member=member, rating=1700)
        checkin.player_check_in(player=player, now=NOW)
    TournamentPlayer.objects.filter(member=quiet).update(checked_in_at=None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notifications, "send_mail", lambda *a, **k: (_ for _ in ()).throw(OSError("no server")))
        with django_capture_on_commit_callbacks(execute=True):  # the worker sends after the commit
            round_pair(tournament=open_swiss, date=datetime.date(2026, 12, 5))
    note = Notification.objects.get()
    assert (note.email, note.attempts, note.sent_at) == ("max@example.at", 1, None)
    assert note.last_error == "OSError: no server" and note.next_attempt_at is not None
    assert note.subject == "Adventopen: Runde 1 ist ausgelost"
    game = Game.objects.get(round__tournament=open_swiss, round__number=1)
    colour = "Weiß" if game.white == wants else "Schwarz"
    assert note.body == f"Adventopen, Runde 1 am 05.12.2026: Brett 1 mit {colour} gegen Gegner, Gerd."
    assert notifications.notifications_send(now=timezone.now()) == (0, 0)  # not due yet
    assert notifications.notifications_send(now=note.next_attempt_at) == (1, 0)
    assert [m.to for m in mail.outbox] == [["max@example.at"]]
    assert notifications.notifications_send(now=note.next_attempt_at) == (0, 0)  # sent once only
