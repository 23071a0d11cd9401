"""A member's birth date corrected: where the pool's rules give juniors their own factor (FIDE Rating
Regulations 2024, the development coefficient: K = 40 until the end of the year of the 18th
birthday, below 2300), his live values are those a whole recalculation gives, in the open period
and, after a reopening, in the waiting one that closing again opens."""

import datetime

import pytest

from clubrating.clubs.register import member_save
from clubrating.tournaments.models import Result
from ratings.models import PoolMember
from ratings.services import game_record_result, period_close, period_reopen
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game
from tests.ratings.services.test_consistency import recalculated
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.django_db

ADULT, JUNIOR = datetime.date(1990, 5, 1), datetime.date(2012, 5, 1)


def played(pool, day, white, black, result=Result.WHITE_WINS):
    rnd = RoundFactory(tournament=TournamentFactory(start_date=day), number=1, date=day)
    game_record_result(game=unplayed_game(rnd, white, black), result=result)


def change(pool, member) -> float:
    return PoolMember.objects.get(pool=pool, member=member).live_change


def setup(rules="fide-2024"):
    pool = make_pool(name=rules, rules=rules, start=datetime.date(2025, 1, 1))
    young, other = MemberFactory(birth_date=ADULT), MemberFactory(birth_date=datetime.date(1980, 1, 1))
    publish_start_list(pool, {young: (2000, 40), other: (2000, 50)})
    return pool, young, other


def test_a_birth_date_made_junior_gives_the_junior_factor_in_the_open_period():
    pool, young, other = setup()
    played(pool, datetime.date(2025, 1, 10), young, other)
    assert change(pool, young) == 10.0  # K 20 × (1 − 0.5)

    member_save(member=young, values={"birth_date": JUNIOR}, user=None)

    assert change(pool, young) == 20.0  # K 40 × (1 − 0.5)
    assert change(pool, other) == -10.0
    assert snapshot(pool) == recalculated(pool)

    member_save(member=young, values={"birth_date": ADULT}, user=None)
    assert change(pool, young) == 10.0
    assert snapshot(pool) == recalculated(pool)


def test_a_birth_year_without_games_changes_nothing_and_rules_without_juniors_are_left_alone():
    pool, young, other = setup()
    member_save(member=young, values={"birth_date": JUNIOR}, user=None)
    assert snapshot(pool) == recalculated(pool)

    oesb, a, b = setup(rules="oesb-2024")
    played(oesb, datetime.date(2025, 1, 10), a, b)
    before = snapshot(oesb)
    member_save(member=a, values={"birth_date": JUNIOR}, user=None)
    assert snapshot(oesb) == before == recalculated(oesb)


def test_a_birth_date_corrected_while_a_period_is_reopened_reaches_the_waiting_period():
    pool, young, other = setup()
    played(pool, datetime.date(2025, 1, 10), young, other)
    period_close(pool=pool)
    played(pool, datetime.date(2025, 2, 10), other, young, Result.BLACK_WINS)
    closed = pool.periods.order_by("start").first()
    period_reopen(period=closed, reason="Geburtsdatum berichtigt")

    member_save(member=young, values={"birth_date": JUNIOR}, user=None)
    period_close(pool=pool)

    assert snapshot(pool) == recalculated(pool)


def test_a_birth_date_corrected_in_the_admin_or_by_the_member_import_is_followed(admin_client):
    from django.urls import reverse

    from clubrating.interchange.members_import import members_import_csv
    from tests.tournaments.admin_helpers import form_data

    pool, young, other = setup()
    played(pool, datetime.date(2025, 1, 10), young, other)
    url = reverse("admin:clubs_member_change", args=[young.pk])
    data = form_data(admin_client.get(url))
    data["birth_date"] = JUNIOR.isoformat()
    assert admin_client.post(url, data).status_code == 302
    assert change(pool, young) == 20.0
    assert snapshot(pool) == recalculated(pool)

    other.national_id = "AT4711"
    other.save(update_fields=["national_id"])
    report = members_import_csv(
        text=f"last_name;first_name;birth_date;national_id\n{other.last_name};{other.first_name};01.02.2011;AT4711\n")
    assert [m.pk for m in report.updated] == [other.pk]
    assert change(pool, other) == -20.0  # a junior now as well: K 40
    assert snapshot(pool) == recalculated(pool)
