"""One definition of a plausible value (``clubrating.core.plausible``): the guest forms (the
public entry form too) and the member's own form (the admin's) refuse what the importers refuse,
in German; and what they accept at the edges the site's TRF export writes and reads back."""

import datetime

import pytest
from django.forms import modelform_factory
from django.utils import translation

from clubrating.clubs.models import Member
from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.forms_entries import GuestEntryForm
from clubrating.tournaments.forms_teams import GuestForm
from clubrating.tournaments.models import Result
from clubrating.tournaments.services import guest_register
from tests.factories import GameFactory, RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db

MemberForm = modelform_factory(Member, fields=["last_name", "first_name", "birth_year", "national_id",
                                               "fide_id", "fide_rating"])
NEXT_YEAR = datetime.date.today().year + 1


def errors(form_class, data):
    with translation.override("de-at"):
        form = form_class(data)
        form.is_valid()
        return {name: list(messages) for name, messages in form.errors.items()}


def test_the_guest_form_refuses_what_no_import_would_read():
    assert errors(GuestForm, {
        "last_name": "Huber\nGruber", "first_name": "An\tna", "club_name": "SK\r\nWien",
        "birth_year": "2100", "rating": "3500", "fide_rating": "3500", "fide_id": "1234567890123456",
    }) == {
        "last_name": ["Nachname muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "first_name": ["Vorname muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "club_name": ["Verein muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "birth_year": [f"Geburtsjahr 2100 liegt nicht zwischen 1850 und {NEXT_YEAR}."],
        "rating": ["Nationale Elo „3500“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000."],
        "fide_rating": ["FIDE-Elo „3500“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000."],
        "fide_id": ["FIDE-ID 1234567890123456 liegt nicht zwischen 1 und 99999999999."],
    }


def test_the_public_entry_form_refuses_them_too():
    assert errors(GuestEntryForm, {
        "last_name": "Huber\u2028Gruber", "birth_year": "2100", "fide_id": "1234567890123456",
    }) == {
        "last_name": ["Nachname muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "birth_year": [f"Geburtsjahr 2100 liegt nicht zwischen 1850 und {NEXT_YEAR}."],
        "fide_id": ["FIDE-ID 1234567890123456 liegt nicht zwischen 1 und 99999999999."],
    }


def test_the_member_form_refuses_them_too():
    assert errors(MemberForm, {
        "last_name": "Huber\nGruber", "birth_year": "2100", "national_id": "AT 1\n2",
        "fide_id": "1234567890123456", "fide_rating": "3500",
    }) == {
        "last_name": ["Name muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "birth_year": [f"Geburtsjahr 2100 liegt nicht zwischen 1850 und {NEXT_YEAR}."],
        "national_id": ["ÖSB-Nummer muss eine Zeile ohne Tabulatoren und Steuerzeichen sein."],
        "fide_id": ["FIDE-ID 1234567890123456 liegt nicht zwischen 1 und 99999999999."],
        "fide_rating": ["Wertung „3500“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000."],
    }


EDGES = [
    {"last_name": "Ä" * 80, "first_name": "", "birth_year": "1850", "rating": "3000",
     "fide_rating": "100", "fide_id": "99999999999"},
    {"last_name": "Huber-Gruber", "first_name": "Anna Maria", "birth_year": str(NEXT_YEAR),
     "rating": "100", "fide_rating": "3000", "fide_id": "1"},
    {"last_name": "O'Neill", "first_name": "Zoë", "birth_year": "", "rating": "0", "fide_rating": "0",
     "fide_id": ""},
]


@pytest.mark.parametrize("form_class", [GuestForm, GuestEntryForm, MemberForm])
def test_every_forms_edge_values_go_through_a_trf_export_and_back(form_class):
    """What a form accepts at its edges, the site's TRF export writes and its TRF import reads."""
    tournament = TournamentFactory(name="Grenzwerte", start_date=datetime.date(2026, 3, 1))
    players = []
    for values in EDGES:
        form = form_class({name: value for name, value in values.items()
                           if name in form_class.base_fields})
        assert form.is_valid(), form.errors
        data = form.cleaned_data
        players.append(guest_register(
            tournament=tournament, last_name=data["last_name"],
            first_name=data.get("first_name") or "",
            fide_id=data.get("fide_id"), birth_year=data.get("birth_year"),
            fide_rating=data.get("fide_rating") or None, rating=data.get("rating") or None))
    round_one = RoundFactory(tournament=tournament, number=1)
    GameFactory(round=round_one, board=1, white=players[0].member, black=players[1].member,
                result=Result.DRAW)
    text = tournament_export_trf(tournament=tournament)
    report = tournament_import_trf(text=text, name="Grenzwerte, wieder eingelesen")
    assert len(report.plain()["refused"]) == 0
    imported = report.tournament.players.select_related("member")

    def shown(rows):
        return sorted((p.member.full_name, p.member.fide_id, p.member.birth_year, p.fide_rating)
                      for p in rows)

    assert shown(imported) == shown(players)
