"""A small rated club for the page tests: a pool whose first period is closed (published list)
and whose second period has a live game.

Pool "Standard" (oesb-classic) from 1.1.2026: the starting list, then on 1.3.2026 Anna Berger
(1830) draws Bernd Huber (1980) — the seed example, +5 for her — and the period 1.1.–30.6.2026 is
closed into the list valid from 1.7.2026. On 1.9.2026 Anna beats Clara Moser (1700) in the open
period: her live rating moves, provisionally.
"""

import datetime

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client

from clubrating.clubs.models import Club, Sex
from clubrating.tournaments.models import Result
from ratings.models import PublishedList
from ratings.services import game_record_result, period_close
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, set_today

# A day after the open period of ``rated_club`` (1.7.–31.12.2026): it may be closed as usual.
AFTER_OPEN_PERIOD = datetime.date(2027, 1, 4)


def _home_club_create():
    return Club.objects.create(name="Schachklub Donaustadt", short_name="SK Donaustadt", is_home=True)


@pytest.fixture
def home_club(request, db):
    """The rated club's home club for a test that reads ``rated_club_shared`` (a module opts in by
    overriding ``rated_club`` with it), a new one for a test that does not."""
    if "rated_club_once" in request.fixturenames:
        return request.getfixturevalue("home_club_shared")
    return _home_club_create()


@pytest.fixture
def rated_club(home_club):
    return _rated_club_build(home_club)


@pytest.fixture(scope="module")
def rated_club_once(django_db_setup, django_db_blocker):
    """``rated_club`` built once for a test module that asks for it (by overriding ``rated_club``
    with ``rated_club_shared``): inside a transaction that is
    rolled back when the module is done; each test runs in a savepoint within it, so what a test
    changes is undone before the next one. Returns (model, key) of each object."""
    with django_db_blocker.unblock(), transaction.atomic():
        home = _home_club_create()
        club = _rated_club_build(home) | {"home_club": home}
        yield {name: (type(obj), obj.pk) for name, obj in club.items()}
        transaction.set_rollback(True)


def _fresh(keys: dict) -> dict:
    """Each test its own instances, read anew, so that nothing a test sets on one reaches the next."""
    return {name: model.objects.get(pk=pk) for name, (model, pk) in keys.items() if name != "home_club"}


@pytest.fixture
def home_club_shared(rated_club_once, db):
    model, pk = rated_club_once["home_club"]
    return model.objects.get(pk=pk)


@pytest.fixture
def rated_club_shared(rated_club_once, db):
    return _fresh(rated_club_once)



def _rated_club_build(home_club):
    other = Club.objects.create(name="SV Gäste")
    # A minor whose guardians consented (clubrating.clubs.privacy): her profile shows as an adult's.
    anna = MemberFactory(first_name="Anna", last_name="Berger", sex=Sex.FEMALE, birth_year=2010,
                         club=home_club, guardian_consent_on=datetime.date(2025, 9, 1))
    bernd = MemberFactory(first_name="Bernd", last_name="Huber", sex=Sex.MALE, birth_year=1955,
                          club=home_club,
                          fide_rating=2010)
    clara = MemberFactory(first_name="Clara", last_name="Moser", sex=Sex.FEMALE, birth_year=1990, club=other)
    dora = MemberFactory(first_name="Dora", last_name="Alt", sex=Sex.FEMALE, birth_year=1960, club=home_club,
                         active=False)
    pool = make_pool(name="Standard", start=datetime.date(2026, 1, 1))
    publish_start_list(pool, {anna: (1830, 10), bernd: (1980, 50), clara: (1700, 20), dora: (1500, 30)})

    spring = TournamentFactory(name="Frühjahrsturnier 2026", start_date=datetime.date(2026, 3, 1))
    game = GameFactory(round=RoundFactory(tournament=spring, number=1), board=1, white=anna, black=bernd,
                       result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.DRAW)
    plist = period_close(pool=pool)

    autumn = TournamentFactory(name="Herbstturnier 2026", start_date=datetime.date(2026, 9, 1))
    live_game = GameFactory(round=RoundFactory(tournament=autumn, number=1), board=1, white=anna, black=clara,
                            result=Result.NOT_PLAYED)
    game_record_result(game=live_game, result=Result.WHITE_WINS)
    return {
        "pool": pool, "list": plist, "start_list": PublishedList.objects.get(pool=pool, kind="start"),
        "anna": anna, "bernd": bernd, "clara": clara, "dora": dora, "other_club": other,
        "spring": spring, "autumn": autumn,
    }


@pytest.fixture
def period_ended(monkeypatch):
    """"Today" is after the open period of ``rated_club``: closing it is not closing early."""
    set_today(monkeypatch, AFTER_OPEN_PERIOD)
    return AFTER_OPEN_PERIOD


@pytest.fixture
def english():
    """A second client that asks for English (``client`` stays German, the default)."""
    english_client = Client()
    english_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return english_client
