"""The live ranks kept with the live ratings (ratings.services.live_ranks): after any sequence of
saves, corrections, deletions, a closing and a reopening, every stored rank is the one ranking the
whole list from scratch gives (ratings.lists.order), on SQLite and on PostgreSQL."""

import datetime
import random
from collections import Counter

import pytest

from clubrating.tournaments.models import Result
from ratings.lists.order import rank_key
from ratings.models import LiveLevel, PoolMember, RatingPeriod
from ratings.selectors import live_ranks
from ratings.services import game_record_result, period_close, period_reopen
from ratings.services.live_ranks import live_ranks_renumber
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, set_today, unplayed_game

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]

# Ties on the rating, names that fold ("de Vries" between "Berger" and "Dorner"), and twins.
NAMES = [("Berger", "anna"), ("Berger", "Bernd"), ("de Vries", "Ida"), ("Dorner", "Hans"), ("Özdemir", "Ali"),
         ("Oswald", "Eva"), ("Gleich", "Jo"), ("Gleich", "Jo"), ("Zach", "Anton"), ("Adler", "Max")]
RATINGS = [1800, 1800, 1800, 1800, 1810, 1795, 1500, 1500, 2100, 1650]


def scratch(pool) -> dict[int, int]:
    """{member: rank} ranking the whole live list anew by the rule (``rank_key``)."""
    rows = [(pm.member_id, pm.live_rating, pm.member.last_name, pm.member.first_name)
            for pm in PoolMember.objects.filter(pool=pool, live_rating__isnull=False).select_related("member")
            ]
    ordered = sorted(rows, key=lambda r: rank_key(r[1], r[2], r[3], r[0]))
    return {row[0]: rank for rank, row in enumerate(ordered, start=1)}


def stored(pool) -> dict[int, int]:
    """{member: rank} as stored: his level's count of rows above plus his place among his ties;
    the levels checked against the rows (one per rating held, its size the rows holding it)."""
    rows = PoolMember.objects.filter(pool=pool).values_list("member_id", "live_rating", "live_place")
    levels = {rating: (above, size) for rating, above, size in
              LiveLevel.objects.filter(pool=pool).values_list("rating", "above", "size")}
    rated = [row for row in rows if row[1] is not None]
    assert all(place is None for _m, rating, place in rows if rating is None)
    sizes = Counter(rating for _m, rating, _p in rated)
    assert {rating: size for rating, (_above, size) in levels.items()} == sizes
    return {member: levels[rating][0] + place for member, rating, place in rated}


@pytest.fixture
def club_pool():
    pool = make_pool()
    members = [MemberFactory(last_name=last, first_name=first) for last, first in NAMES]
    publish_start_list(pool, dict(zip(members, RATINGS, strict=True)))
    newcomers = [MemberFactory(last_name=f"Neu{i}", first_name="Nina") for i in range(3)]
    return pool, members, newcomers


def test_ranks_after_saves_corrections_and_deletions_equal_the_ranks_from_scratch(club_pool):
    pool, members, newcomers = club_pool
    assert stored(pool) == scratch(pool) and len(stored(pool)) == len(members)
    rng = random.Random(7)
    games = []
    for number in range(1, 9):
        rnd = make_round(start_date=datetime.date(2025, 2, number))
        players = rng.sample(members, 6) + newcomers
        rng.shuffle(players)
        games += [unplayed_game(rnd, players[2 * i], players[2 * i + 1], board=i + 1) for i in range(4)]
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for game in games:
        game_record_result(game=game, result=rng.choice(results))
        assert stored(pool) == scratch(pool)
    # The newcomers' games gave them start values: they entered the list, every row below moved.
    assert {m.pk for m in newcomers} <= stored(pool).keys()
    for game in rng.sample(games, 12):  # corrections and deletions (a newcomer may leave again)
        game_record_result(game=game, result=rng.choice([*results, Result.NOT_PLAYED]))
        assert stored(pool) == scratch(pool)
    assert live_ranks(pool) == scratch(pool)


def test_ranks_after_closing_and_reopening_equal_the_ranks_from_scratch(club_pool, monkeypatch):
    pool, members, newcomers = club_pool
    rnd = make_round(start_date=datetime.date(2025, 3, 1))
    pairs = [(members[0], members[8]), (members[5], newcomers[0]), (members[9], members[4])]
    for board, (white, black) in enumerate(pairs, start=1):
        game_record_result(game=unplayed_game(rnd, white, black, board=board), result=Result.BLACK_WINS)
    set_today(monkeypatch, datetime.date(2026, 1, 15))
    period_close(pool=pool)
    assert stored(pool) == scratch(pool)
    period_reopen(period=RatingPeriod.objects.filter(pool=pool, state="closed").latest("start"), reason="Fix")
    assert stored(pool) == scratch(pool)
    period_close(pool=pool)
    assert stored(pool) == scratch(pool)


def test_a_renumbering_writes_only_the_places_and_levels_that_move(club_pool):
    pool, members, _newcomers = club_pool
    # "Adler" (1650, rank 8) rises to 1800: "Adler, Max" comes first of the four at 1800.
    PoolMember.objects.filter(pool=pool, member=members[9]).update(live_rating=1800)
    written = live_ranks_renumber(pool.pk, [(1650, 1800)])
    assert stored(pool) == scratch(pool)
    # The four at 1800 move one place down (he keeps place 1, now at 1800); the 1650 level goes,
    # the 1800 level grows and the 1795 level has one more row above: 4 places and 3 levels.
    assert written == 7
    assert stored(pool)[members[9].pk] == 3
    assert live_ranks_renumber(pool.pk, [(1800, 1800)]) == 0


@pytest.mark.django_db(transaction=True)
def test_ranks_after_results_of_one_round_saved_at_once_equal_the_ranks_from_scratch():
    """On PostgreSQL the saves run side by side: each renumbers under the pool's rank lock, from
    the live ratings the other has committed."""
    from tests.ratings.services.scenario import build
    from tests.ratings.test_concurrency import _save_together

    pool, _rated, _newcomers, first, _second, _rng = build()
    round_one = [g for g in first if g.round.number == 1 and g.round.tournament.name == "Frühjahr"]
    for result in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW):
        assert _save_together([(g, result) for g in round_one]) == []
        assert stored(pool) == scratch(pool)


def test_a_renamed_member_takes_his_place_among_his_ties(club_pool):
    from clubrating.clubs.register import member_save

    pool, members, _newcomers = club_pool
    dorner = members[3]  # 1800, fourth of the four at 1800
    member_save(member=dorner, values={"last_name": "Aigner", "first_name": "Hans"}, user=None)
    assert stored(pool) == scratch(pool)
    assert stored(pool)[dorner.pk] == 3  # after "Zach" (2100) and "Özdemir" (1810), first at 1800


def test_two_bands_and_the_rows_between_them(club_pool):
    """Two members move at once, far apart: the rows between their bands keep their ranks, the
    lower band counts from the rows above it (here none lie between: from the upper band)."""
    pool, members, _newcomers = club_pool
    zach, oswald, gleich = members[8], members[5], members[6]
    PoolMember.objects.filter(pool=pool, member=zach).update(live_rating=1805)  # 2100 -> 1805
    PoolMember.objects.filter(pool=pool, member=gleich).update(live_rating=1520)  # 1500 -> 1520
    live_ranks_renumber(pool.pk, [(2100, 1805), (1500, 1520)])
    assert stored(pool) == scratch(pool)
    PoolMember.objects.filter(pool=pool, member=oswald).update(live_rating=1790)  # 1795 -> 1790
    PoolMember.objects.filter(pool=pool, member=members[4]).update(live_rating=1811)  # 1810 -> 1811
    PoolMember.objects.filter(pool=pool, member=members[9]).update(live_rating=1400)  # 1650 -> 1400
    live_ranks_renumber(pool.pk, [(1795, 1790), (1810, 1811), (1650, 1400)])
    assert stored(pool) == scratch(pool)


# --- every other path that changes what the order depends on renumbers what it moves -------------

def _admin():
    from django.contrib import admin

    from clubrating.clubs.models import Club, Member

    return admin.site._registry[Member], admin.site._registry[Club]


class _Form:
    def __init__(self, changed, instance=None):
        self.changed_data, self.instance = changed, instance


def test_a_member_renamed_on_the_admin_page_takes_his_place_among_his_ties(club_pool, rf):
    pool, members, _newcomers = club_pool
    members_admin, _clubs = _admin()
    dorner = members[3]
    dorner.last_name = "Aigner"
    members_admin.save_model(rf.post("/"), dorner, _Form(["last_name"]), True)
    assert stored(pool) == scratch(pool)
    assert stored(pool)[dorner.pk] == 3


def _ranked_without_records(pool, members, ratings):
    """Members on the live list with nothing that keeps them from being deleted (no published
    list, no rating records): their live ratings written as a save writes them."""
    for member, rating in zip(members, ratings, strict=True):
        PoolMember.objects.create(pool=pool, member=member, live_rating=rating)
    live_ranks_renumber(pool.pk, [(None, rating) for rating in ratings])
    assert stored(pool) == scratch(pool)


def test_members_deleted_on_the_admin_pages_leave_no_gap(club_pool, rf):
    from django.db.models import ProtectedError

    from clubrating.clubs.models import Member

    pool, members, newcomers = club_pool
    _ranked_without_records(pool, newcomers, [2200, 1800, 1500])
    members_admin, _clubs = _admin()
    members_admin.delete_model(rf.post("/"), newcomers[0])  # first
    assert stored(pool) == scratch(pool)
    rest = Member.objects.filter(pk__in=[newcomers[1].pk, newcomers[2].pk])
    members_admin.delete_queryset(rf.post("/"), rest)
    assert stored(pool) == scratch(pool)
    assert sorted(stored(pool).values()) == list(range(1, len(members) + 1))
    before = stored(pool)
    with pytest.raises(ProtectedError):  # on a published list: refused, and nothing changes
        members_admin.delete_model(rf.post("/"), members[8])
    assert stored(pool) == before and PoolMember.objects.filter(member=members[8]).exists()


def test_members_renamed_and_deleted_on_the_club_page_keep_the_ranks(club_pool, rf):
    from clubrating.clubs.models import Member

    pool, members, newcomers = club_pool
    _ranked_without_records(pool, newcomers[:1], [1900])
    _members, clubs_admin = _admin()
    renamed, deleted = members[3], newcomers[0]

    class Formset:
        model = Member
        initial_forms = [_Form(["last_name"], renamed), _Form([], members[5]), _Form([], deleted)]
        deleted_forms = [_Form([], deleted)]

        def save(self):  # as Django's formset saves: the changed rows, then the deleted ones go
            renamed.last_name = "Aigner"
            renamed.save()
            deleted.delete()

    clubs_admin.save_formset(rf.post("/"), None, Formset(), True)
    assert stored(pool) == scratch(pool)
    assert stored(pool)[renamed.pk] == 3  # after "Zach" (2100) and "Özdemir" (1810), first at 1800


def test_a_member_renamed_by_the_member_import_takes_his_place_among_his_ties(club_pool):
    from clubrating.clubs.models import Member
    from clubrating.interchange.members_import import members_import_csv

    pool, members, _newcomers = club_pool
    # The import finds a member by his national ID under his name with the spaces collapsed, and
    # stores the file's spelling: "Z  c" (two spaces) came before "Z b", "Z c" comes after it.
    Member.objects.filter(pk=members[0].pk).update(first_name="Z b")
    Member.objects.filter(pk=members[1].pk).update(first_name="Z  c", national_id="AT77")
    live_ranks_renumber(pool.pk)
    assert (stored(pool)[members[1].pk], stored(pool)[members[0].pk]) == (3, 4)
    report = members_import_csv(text="last_name;first_name;birth_date;national_id\nBerger;Z c;;AT77\n")
    assert [m.pk for m in report.updated] == [members[1].pk]
    assert stored(pool) == scratch(pool)
    assert (stored(pool)[members[0].pk], stored(pool)[members[1].pk]) == (3, 4)


def test_an_erased_member_takes_the_place_of_his_pseudonym(club_pool):
    from clubrating.clubs.member_data import member_erase

    pool, members, _newcomers = club_pool
    dorner, berger = members[3], members[0]
    member_erase(member=dorner, by=None, cause="request")  # "Dorner" (1800, last of four) becomes "Anonym"
    assert stored(pool) == scratch(pool)
    assert stored(pool)[dorner.pk] == 3 and stored(pool)[berger.pk] == 4
    member_erase(member=berger, by=None, cause="request")  # a second "Anonym" at 1800
    assert stored(pool) == scratch(pool)


def test_a_merged_duplicate_leaves_no_gap_and_no_double_rank(club_pool, officer):
    from clubrating.clubs.merge import member_merge

    pool, members, _newcomers = club_pool
    born = datetime.date(1980, 2, 3)
    duplicate = members[5]  # "Oswald, Eva" (1795), on the start list
    duplicate.birth_date, duplicate.birth_year = born, None
    duplicate.save()
    # Her second record, a newcomer, has a start value after seven games: two ranks for one person.
    keep = MemberFactory(last_name="Oswald", first_name="Eva", birth_date=born, birth_year=None, fide_id=None)
    for day, opponent in enumerate([m for i, m in enumerate(members[:8]) if i != 5], start=1):
        rnd = make_round(start_date=datetime.date(2025, 2, day))
        game_record_result(game=unplayed_game(rnd, keep, opponent, board=1), result=Result.WHITE_WINS)
    assert keep.pk in stored(pool) and len(stored(pool)) == len(members) + 1
    member_merge(keep=keep, duplicate_id=duplicate.pk, user=officer)
    assert stored(pool) == scratch(pool)
    assert sorted(stored(pool).values()) == list(range(1, len(members) + 1))


def test_ranks_after_a_recalculation_equal_the_ranks_from_scratch(club_pool):
    from clubrating.tournaments.models import Game
    from ratings.services.recalc import pool_recalculate

    pool, members, newcomers = club_pool
    rnd = make_round(start_date=datetime.date(2025, 2, 3))
    pairs = [(members[9], members[8]), (members[6], members[1]), (newcomers[0], members[2])]
    games = [unplayed_game(rnd, white, black, board=board) for board, (white, black) in enumerate(pairs, 1)]
    for game in games:
        game_record_result(game=game, result=Result.WHITE_WINS)
    # The results as a correction in the database would leave them; the recalculation rates them anew.
    Game.objects.filter(pk__in=[g.pk for g in games]).update(result=Result.BLACK_WINS)
    pool_recalculate(pool=pool)
    assert stored(pool) == scratch(pool)
    assert stored(pool)[members[8].pk] == 1


def test_a_member_renamed_through_the_admin_change_page_takes_his_place(club_pool, admin_client):
    from django.urls import reverse

    pool, members, _newcomers = club_pool
    dorner = members[3]
    data = {"last_name": "Aigner", "first_name": "Hans", "sex": dorner.sex, "birth_date": "",
            "birth_year": dorner.birth_year or "", "club": dorner.club_id or "", "active": "on",
            "national_id": dorner.national_id, "fide_id": dorner.fide_id or "",
            "fide_title": dorner.fide_title,
            "fide_rating": dorner.fide_rating or "", "email": dorner.email, "phone": dorner.phone, "user": "",
            "guardian_consent_on": ""}
    response = admin_client.post(reverse("admin:clubs_member_change", args=[dorner.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert stored(pool) == scratch(pool)
    assert stored(pool)[dorner.pk] == 3
