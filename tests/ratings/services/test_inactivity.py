"""ÖSB TUWO § 27 d in a pool closed quarter by quarter for eight years: a list leaves out every
member whose last rated game lies more than seven years before the list's date (a member without
games counts from his first published rating), keeps his last rating unchanged until then, and
a member who plays again after his removal is a newcomer."""

import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PoolMember, PublishedList
from ratings.services import game_record_result, period_close, pool_create
from ratings.services.inactivity import inactive_members, years_before
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, set_today, unplayed_game

pytestmark = pytest.mark.django_db

START = datetime.date(2025, 1, 1)


def _play(day, white, black, result=Result.DRAW):
    tournament = TournamentFactory(start_date=day)
    game_record_result(game=unplayed_game(RoundFactory(tournament=tournament, date=day), white, black),
                       result=result)


def _quarters(first: datetime.date, count: int):
    day = first
    for _ in range(count):
        month = day.month + 3
        following = datetime.date(day.year + (month - 1) // 12, (month - 1) % 12 + 1, 1)
        yield day, following
        day = following


def _seven_years_before(day: datetime.date) -> datetime.date:
    """Written out here rather than taken from the service: the same day seven years earlier."""
    return datetime.date(day.year - 7, day.month, day.day)


def test_a_pool_closed_quarterly_for_eight_years_drops_exactly_the_inactive(monkeypatch):
    set_today(monkeypatch, datetime.date(2033, 1, 1))  # every quarter closed has ended
    pool = make_pool(rules="oesb-2024", start=START)
    assert pool.inactivity_years == 7
    names = ("Active", "Busy", "Exact", "Returner", "Nogames")
    active, busy, exact, returner, nogames = (MemberFactory(last_name=n) for n in names)
    publish_start_list(pool, {active: (1800, 50), busy: (1700, 50), exact: (1600, 50),
                              returner: (1650, 50), nogames: (1500, 50)})
    games = {(datetime.date(year, 3, 1), active, busy) for year in range(2025, 2033)}
    games |= {(datetime.date(2025, 4, 1), exact, active), (datetime.date(2025, 6, 15), returner, busy)}
    # Seven games after his removal: a newcomer's start value (§1.6: seven games).
    games |= {(datetime.date(2032, 8, day), returner, (active, busy)[day % 2]) for day in range(1, 8)}
    last_played: dict[int, datetime.date] = {}
    expected, published = {}, {}
    for begin, list_date in _quarters(START, 32):
        for day, white, black in sorted(games, key=lambda g: g[0]):
            if begin <= day < list_date:
                _play(day, white, black)
                last_played[white.pk] = last_played[black.pk] = day
        plist = period_close(pool=pool)
        assert plist.valid_from == list_date
        published[list_date] = {e.member_id: e for e in ListEntry.objects.filter(list=plist)}
        # The independent reference: last game before the list, else the starting list's date.
        expected[list_date] = {
            m.pk for m in (active, busy, exact, returner, nogames)
            if last_played.get(m.pk, START) >= _seven_years_before(list_date)
        }
    assert list_date == datetime.date(2033, 1, 1)
    assert {day: set(entries) for day, entries in published.items()} == expected
    dropped = {day: {m for m in expected[previous] - expected[day]}
               for previous, day in zip(list(expected), list(expected)[1:], strict=False)}
    # No game for exactly seven years still keeps a member; one day more removes him.
    assert {day: members for day, members in dropped.items() if members} == {
        datetime.date(2032, 4, 1): {nogames.pk},  # listed from 1.1.2025, no game
        datetime.date(2032, 7, 1): {exact.pk, returner.pk},  # last games 1.4.2025 and 15.6.2025
    }
    # Until then the last rating stays unchanged on every list.
    ratings = {day: entries[exact.pk].rating for day, entries in published.items() if exact.pk in entries}
    # 1.4.2025 (before his last game) to 1.4.2032: 29 lists, then never again.
    assert list(ratings.values()) == [1600] + [1608] * 28
    assert all(entries[nogames.pk].rating == 1500 for entries in published.values() if nogames.pk in entries)
    # The returner is a newcomer after his removal: a start value, no previous rating.
    back = published[datetime.date(2032, 10, 1)][returner.pk]
    assert (back.start_value, back.previous_rating, back.period_games, back.games_count) == (True, None, 7, 7)
    assert PoolMember.objects.get(pool=pool, member=exact).rating is None
    assert PublishedList.objects.filter(pool=pool).count() == 33


def test_the_boundary_is_the_same_calendar_day():
    assert years_before(datetime.date(2032, 4, 1), 7) == datetime.date(2025, 4, 1)
    assert years_before(datetime.date(2032, 2, 29), 7) == datetime.date(2025, 2, 28)


@pytest.mark.parametrize(
    ("rules", "years"),
    [("oesb-classic", 7), ("oesb-2012", 7), ("oesb-2024", 7), ("fide-2025", None), ("egf-2021", None)],
)
def test_the_setting_is_on_for_the_austrian_rule_sets(rules, years):
    assert pool_create(name=rules, rules=rules, start_date=START).inactivity_years == years


def test_a_pool_may_keep_inactive_members_or_use_other_years(django_assert_num_queries):
    keep = pool_create(name="keep", rules="oesb-2024", start_date=START, inactivity_years=None)
    three = pool_create(name="three", rules="fide-2025", start_date=START, inactivity_years=3)
    member = MemberFactory()
    for pool in (keep, three):
        publish_start_list(pool, {member: 1500})
    late = datetime.date(2028, 1, 2)
    assert inactive_members(pool=keep, list_date=late, member_ids=[member.pk]) == set()
    with django_assert_num_queries(2):  # the last games, then the first lists of those without
        assert inactive_members(pool=three, list_date=late, member_ids=[member.pk]) == {member.pk}
    with django_assert_num_queries(0):  # the pool is not older than the cutoff
        on_time = START.replace(year=2028)
        assert inactive_members(pool=three, list_date=on_time, member_ids=[member.pk]) == set()
