"""The one answer to "is this tournament a league division?" (``division_of``) and its key alone
(``division_pk_of``, asked on every page of every tournament): the same division, or none."""

import pytest

from clubrating.leagues.selectors import division_of, division_pk_of
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_divisions_tournament_names_its_division(league):
    for division in (league.first, league.second):
        assert division_of(tournament_id=division.tournament_id) == division
        assert division_pk_of(tournament_id=division.tournament_id) == division.pk


def test_another_tournament_names_none(league):
    other = TournamentFactory()
    assert division_of(tournament_id=other.pk) is None
    assert division_pk_of(tournament_id=other.pk) is None
