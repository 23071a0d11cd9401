"""The tournament page names the edition of the Dutch system a Swiss is paired by."""

import datetime
import re

import pytest

from clubrating.tournaments.models import PairingRules, TournamentKind
from tests.factories import TournamentFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


def rules_shown(html: str) -> tuple[str, str]:
    """(label, value) of the page's pairing-rules entry."""
    found = re.search(r'<dt[^>]*>([^<]*)</dt><dd[^>]*id="pairing-rules">([^<]*)</dd>', html)
    return (found.group(1), found.group(2)) if found else ("", "")


@pytest.mark.parametrize(("start", "lang", "shown"), [
    (datetime.date(2025, 9, 1), "en", ("Pairing rules", "FIDE Dutch system until 31 January 2026")),
    (datetime.date(2026, 3, 1), "en", ("Pairing rules", "FIDE Dutch system from 1 February 2026")),
    (datetime.date(2026, 3, 1), "de-at",
     ("Paarungsregeln", "FIDE-Schweizer System (holländisch) ab 1. Februar 2026")),
])
def test_swiss_page_names_its_pairing_rules(client, start, lang, shown):
    t = TournamentFactory(start_date=start)
    assert rules_shown(text(page(client, "detail", t.pk, lang=lang))) == shown


def test_stored_rules_win_over_the_start_date(client):
    t = TournamentFactory(start_date=datetime.date(2026, 3, 1), pairing_rules=PairingRules.DUTCH_2017)
    assert rules_shown(text(page(client, "detail", t.pk, lang="en")))[1] == (
        "FIDE Dutch system until 31 January 2026"
    )


def test_round_robin_page_has_no_pairing_rules(client):
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    assert "Pairing rules" not in text(page(client, "detail", t.pk, lang="en"))
