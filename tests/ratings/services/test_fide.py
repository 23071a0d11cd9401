"""FIDE ratings taken over as first national ratings (docs/rules.md §1.8, FIDE take-over)."""

import datetime
from unittest import mock

import pytest
from django.contrib.auth.models import User

from clubrating.tournaments.models import Result
from ratings.models import FideTakeover, ListEntry, ListKind, PoolMember, PublishedList, RatingRecord
from ratings.services import (
    RatingsError,
    fide_converted,
    game_record_result,
    pool_take_over_fide,
    pool_transform_2024,
)
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    make_round,
    publish_start_list,
    unplayed_game,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

DAY = datetime.date(2026, 3, 1)


@pytest.mark.parametrize(
    ("fide", "expected"),
    [
        (1700, 1600),  # 1700 − 300 × 0.333333 = 1600.0001
        (1450, 1267),  # 1450 − 550 × 0.333333 = 1266.66685
        (2100, 2133),  # 2100 + 100 × 0.333333 = 2133.3333
        (2000, 2000),
        (1000, 667),  # 666.667; the floor is the pool's business
    ],
)
def test_conversion_formula(fide, expected):
    assert fide_converted(fide) == expected


def newcomers_in_pool(pool, rated, *fides):
    """Newcomers with the given FIDE ratings who each played ``rated`` once (a draw), each in a
    tournament of its own."""
    members = []
    for fide in fides:
        member = MemberFactory(fide_rating=fide)
        game = unplayed_game(make_round(start_date=DAY), rated, member)
        game_record_result(game=game, result=Result.DRAW)
        members.append(member)
    return members


def test_takeover_converts_in_an_austrian_pool_after_1_9_2024():
    pool = make_pool(start=datetime.date(2026, 1, 1))  # oesb-classic, floor 1200
    rated = MemberFactory(last_name="Alt", fide_rating=1900)
    publish_start_list(pool, {rated: (1800, 40)})
    a, b, c, low = newcomers_in_pool(pool, rated, 1700, 1450, 2100, 1300)
    no_fide = newcomers_in_pool(pool, rated, None)[0]
    officer = User.objects.create_user("officer")

    plist = pool_take_over_fide(pool=pool, user=officer, valid_from=DAY)

    assert (plist.kind, plist.published_by, plist.valid_from) == (ListKind.FIDE_TAKEOVER, officer, DAY)
    audit = {t.member: (t.fide_rating, t.rating, t.converted) for t in plist.fide_takeovers.all()}
    # 1300 − 700 × 0.333333 = 1066.67 → 1067, raised to the floor 1200.
    assert audit == {
        a: (1700, 1600, True),
        b: (1450, 1267, True),
        c: (2100, 2133, True),
        low: (1300, 1200, True),
    }
    entries = {
        e.member: (e.rating, e.previous_rating, e.change, e.games_count, e.start_value)
        for e in plist.entries.all()
    }
    assert entries == {
        rated: (1800, 1800, 0, 40, False),
        c: (2133, None, None, 0, True),
        a: (1600, None, None, 0, True),
        b: (1267, None, None, 0, True),
        low: (1200, None, None, 0, True),
    }
    assert "converted" in plist.note and a.full_name in plist.note
    assert PoolMember.objects.get(pool=pool, member=a).rating == 1600
    assert PoolMember.objects.get(pool=pool, member=no_fide).rating is None


def test_open_period_is_rated_against_the_new_ratings():
    pool = make_pool(start=datetime.date(2026, 1, 1))
    rated = MemberFactory()
    publish_start_list(pool, {rated: (1800, 40)})
    newcomer = newcomers_in_pool(pool, rated, 1700)[0]
    before = RatingRecord.objects.get(pool=pool, member=rated)
    assert (before.pending, before.change) == (True, None)

    pool_take_over_fide(pool=pool, valid_from=DAY)

    mine = RatingRecord.objects.get(pool=pool, member=rated)
    theirs = RatingRecord.objects.get(pool=pool, member=newcomer)
    assert (mine.pending, mine.own_rating, mine.opponent_rating) == (False, 1800, 1600)
    assert (theirs.pending, theirs.own_rating, theirs.opponent_rating) == (False, 1600, 1800)
    state = PoolMember.objects.get(pool=pool, member=newcomer)
    assert state.live_games == 1 and state.live_rating == 1600 + state.live_change
    assert state.live_change == round(theirs.change) and state.live_change > 0


def test_chosen_members_only():
    pool = make_pool(start=datetime.date(2026, 1, 1))
    rated = MemberFactory()
    publish_start_list(pool, {rated: 1800})
    a, b = newcomers_in_pool(pool, rated, 1700, 1450)
    outsider = MemberFactory(fide_rating=2100)  # never played in the pool: may be named explicitly

    plist = pool_take_over_fide(pool=pool, members=[a.pk, outsider], valid_from=DAY)

    assert sorted(plist.fide_takeovers.values_list("member_id", "rating")) == sorted(
        [(a.pk, 1600), (outsider.pk, 2133)]
    )
    assert PoolMember.objects.get(pool=pool, member=b).rating is None
    assert PoolMember.objects.get(pool=pool, member=outsider).rating == 2133


@pytest.mark.parametrize(
    ("rules", "start", "transform", "day", "expected"),
    [
        ("fide-2024", datetime.date(2026, 1, 1), False, DAY, 1700),  # not Austrian: as it is
        ("oesb-2012", datetime.date(2024, 1, 1), False, DAY, 1700),  # still on the old scale
        ("oesb-2012", datetime.date(2024, 1, 1), True, DAY, 1600),  # transformed: converted
        ("oesb-2024", datetime.date(2024, 1, 1), True, datetime.date(2024, 8, 31), 1700),  # before 1.9.2024
        ("oesb-2024", datetime.date(2024, 10, 1), False, DAY, 1600),  # started on the new scale
    ],
)
def test_when_the_conversion_applies(rules, start, transform, day, expected):
    pool = make_pool(rules=rules, start=start)
    rated = MemberFactory()
    publish_start_list(pool, {rated: 1800})
    if transform:
        pool_transform_2024(pool=pool)
    newcomer = MemberFactory(fide_rating=1700)
    plist = pool_take_over_fide(pool=pool, members=[newcomer], valid_from=day)
    assert ListEntry.objects.get(list=plist, member=newcomer).rating == expected
    assert plist.fide_takeovers.get().converted is (expected == 1600)


def test_fide_floor_applies_to_a_rating_taken_over_as_it_is():
    pool = make_pool(rules="fide-2024", start=datetime.date(2026, 1, 1))  # floor 1400
    publish_start_list(pool, {MemberFactory(): 1800})
    newcomer = MemberFactory(fide_rating=1350)
    plist = pool_take_over_fide(pool=pool, members=[newcomer], valid_from=DAY)
    assert ListEntry.objects.get(list=plist, member=newcomer).rating == 1400


def snapshot():
    return (
        sorted(PoolMember.objects.values_list()),
        sorted(RatingRecord.objects.values_list("pk", "pending", "own_rating", "opponent_rating", "change")),
        PublishedList.objects.count(),
        ListEntry.objects.count(),
        FideTakeover.objects.count(),
    )


def test_refusals_change_nothing():
    pool = make_pool(start=datetime.date(2026, 1, 1))
    rated = MemberFactory(fide_rating=1900)
    publish_start_list(pool, {rated: 1800})
    newcomer = newcomers_in_pool(pool, rated, 1700)[0]
    without = MemberFactory(first_name="Otto", last_name="Ohne")
    before = snapshot()
    with pytest.raises(RatingsError) as refused:
        pool_take_over_fide(pool=pool, members=[newcomer, rated, without, 999999])
    assert str(refused.value) == (
        "No FIDE rating was taken over: no member has the ID 999999; "
        f"{rated.full_name} already has a rating in this pool; Ohne, Otto has no FIDE rating."
    )
    with pytest.raises(RatingsError, match="^Name at least one member.$"):
        pool_take_over_fide(pool=pool, members=[])
    assert snapshot() == before

    empty = make_pool(name="Leer", start=datetime.date(2026, 1, 1))
    with pytest.raises(RatingsError, match="no published list yet"):
        pool_take_over_fide(pool=empty)
    publish_start_list(empty, {rated: 1800})
    with pytest.raises(RatingsError, match="^No newcomer of the pool “Leer” has a FIDE rating.$"):
        pool_take_over_fide(pool=empty)
    go = make_pool(name="Go", rules="egf-2021", start=datetime.date(2026, 1, 1))
    with pytest.raises(RatingsError, match="chess pool"):
        pool_take_over_fide(pool=go, members=[newcomer])


def test_a_failure_at_the_last_step_changes_nothing():
    pool = make_pool(start=datetime.date(2026, 1, 1))
    rated = MemberFactory()
    publish_start_list(pool, {rated: 1800})
    newcomers_in_pool(pool, rated, 1700, 1450)
    before = snapshot()
    with (
        mock.patch("ratings.services.fide.period_evaluate", side_effect=RuntimeError("boom")),
        pytest.raises(RuntimeError),
    ):
        pool_take_over_fide(pool=pool)
    assert snapshot() == before
