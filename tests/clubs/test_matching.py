"""The one member matcher: national ID, then FIDE ID, then name with birth date or year."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.matching import FIDE_ID, NAME, NATIONAL_ID, Identity, Match, MemberMatcher, split_name
from tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_split_name():
    assert split_name("  Huber ,  Anna  Maria ") == ("Huber", "Anna Maria")
    assert split_name("Carlsen") == ("Carlsen", "")


def test_evidence_order_national_id_then_fide_id_then_name_and_birth():
    by_national = MemberFactory(last_name="Huber", first_name="Anna", national_id="AT1", fide_id=None)
    by_fide = MemberFactory(last_name="Maier", first_name="Karl", national_id="", fide_id=777)
    by_name = MemberFactory(last_name="Gruber", first_name="Eva", national_id="", fide_id=None,
                            birth_date=datetime.date(1990, 5, 4))
    identities = [
        Identity("Anders", national_id="AT1", fide_id=777),  # the national ID wins over the FIDE ID
        Identity("Anders", fide_id=777),
        Identity("gruber", "  eva", birth_year=1990),
        Identity("Gruber", "Eva", birth_date=datetime.date(1990, 5, 5)),  # both know the day: differ
        Identity("Gruber", "Eva"),  # no birth data: the name alone is not enough
    ]
    with CaptureQueriesContext(connection) as queries:
        matcher = MemberMatcher(identities)
    assert len(queries) == 1
    assert [matcher.match(i) for i in identities] == [
        Match(by_national, NATIONAL_ID), Match(by_fide, FIDE_ID), Match(by_name, NAME),
        Match(None), Match(None),
    ]
    assert MemberMatcher(identities, name_alone=True).match(identities[4]) == Match(by_name, NAME)


def test_shared_names_are_not_guessed_and_other_ids_are_other_people():
    MemberFactory(last_name="Maier", first_name="Karl", birth_year=1970, fide_id=None, national_id="")
    MemberFactory(last_name="Maier", first_name="Karl", birth_year=1970, fide_id=None, national_id="")
    known = MemberFactory(last_name="Huber", first_name="Otto", birth_year=1960, fide_id=55, national_id="")
    karl = Identity("Maier", "Karl", birth_year=1970)
    otto = Identity("Huber", "Otto", birth_year=1960, fide_id=66)
    matcher = MemberMatcher([karl, otto])
    assert matcher.match(karl) == Match(None, NAME, ambiguous=2)
    assert matcher.match(otto) == Match(None)
    assert matcher.match(Identity("Huber", "Otto", birth_year=1960)) == Match(known, NAME)


def test_members_saved_during_an_import_are_found_by_later_rows():
    matcher = MemberMatcher([Identity("Neu", "Nina", fide_id=99)])
    assert matcher.match(Identity("Neu", "Nina", fide_id=99)) == Match(None)
    nina = MemberFactory(last_name="Neu", first_name="Nina", fide_id=99)
    matcher.remember(nina)
    assert matcher.match(Identity("Anders", fide_id=99)) == Match(nina, FIDE_ID)
