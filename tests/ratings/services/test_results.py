import datetime

import pytest
from django.db import connection

from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Game, Result, ResultChange
from ratings.models import PoolMember, RatingRecord
from ratings.services import RatingsError, game_record_result, period_close, pool_recalculate
from tests.factories import ByeFactory, MemberFactory, TournamentFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    make_round,
    publish_start_list,
    unplayed_game,
)

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db, pytest.mark.usefixtures("english")]


def live(pool, member):
    return PoolMember.objects.get(pool=pool, member=member)


def test_draw_between_rated_players_gives_the_seed_change():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1830, b: 1980})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)

    game_record_result(game=game, result=Result.DRAW)

    rec = RatingRecord.objects.get(pool=pool, game=game, member=a)
    assert (rec.own_rating, rec.opponent_rating, rec.difference, rec.score) == (1830, 1980, -150, 0.5)
    assert rec.factor == pytest.approx(24.649)
    assert round(rec.expected, 2) == 0.30
    assert (live(pool, a).live_rating, live(pool, a).live_change) == (1835, 5)
    assert live(pool, b).live_rating == 1976
    assert ResultChange.objects.get(game=game).new_result == Result.DRAW


def test_correcting_and_deleting_a_result_updates_the_records():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    game_record_result(game=game, result=Result.BLACK_WINS)
    assert live(pool, a).live_change == -14

    game_record_result(game=game, result=Result.NOT_PLAYED)

    assert not RatingRecord.objects.filter(game=game).exists()
    assert (live(pool, a).live_rating, live(pool, a).live_change) == (1950, None)
    assert ResultChange.objects.filter(game=game).count() == 3


def test_a_corrected_result_rescores_the_stored_records_as_a_new_entry_would():
    pool = make_pool()
    a, b, c = MemberFactory(), MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1830, b: 1980, c: 1700})
    rnd = make_round(start_date=datetime.date(2025, 3, 1))
    game = unplayed_game(rnd, a, b)
    game_record_result(game=unplayed_game(make_round(start_date=datetime.date(2025, 3, 8)), c, a),
                       result=Result.WHITE_WINS)
    game_record_result(game=game, result=Result.WHITE_WINS)
    ids = sorted(RatingRecord.objects.filter(game=game).values_list("pk", flat=True))

    game_record_result(game=game, result=Result.DRAW)

    # The same two records, now with the draw's score and calculation (1830 vs 1980: +4.94).
    assert sorted(RatingRecord.objects.filter(game=game).values_list("pk", flat=True)) == ids
    rec = RatingRecord.objects.get(pool=pool, game=game, member=a)
    assert (rec.score, rec.own_rating, rec.opponent_rating, round(rec.change, 2)) == (0.5, 1830, 1980, 4.94)
    assert RatingRecord.objects.get(pool=pool, game=game, member=b).score == 0.5
    values = sorted(RatingRecord.objects.filter(pool=pool).values_list(
        "pk", "score", "pending", "own_rating", "opponent_rating", "expected", "factor", "change"))
    live_values = sorted(PoolMember.objects.filter(pool=pool).values_list(
        "member_id", "live_rating", "live_change"))
    pool_recalculate(pool=pool)  # the whole pool evaluated afresh gives the very same values
    assert sorted(RatingRecord.objects.filter(pool=pool).values_list(
        "pk", "score", "pending", "own_rating", "opponent_rating", "expected", "factor", "change")) == values
    assert sorted(PoolMember.objects.filter(pool=pool).values_list(
        "member_id", "live_rating", "live_change")) == live_values


def test_forfeit_is_scored_but_not_rated_and_a_played_rated_result_is():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    game_record_result(game=game, result=Result.WHITE_FORFEIT_WIN)
    assert not RatingRecord.objects.filter(pool=pool).exists()

    game_record_result(game=game, result=Result.WHITE_FORFEIT_WIN, rated_result=Result.BLACK_WINS)

    assert RatingRecord.objects.get(pool=pool, member=b).score == 1.0


def test_refusals():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    rnd = make_round(start_date=datetime.date(2025, 3, 1))
    game = unplayed_game(rnd, a, b)
    # The club side's validation refuses; the ratings service runs it first.
    with pytest.raises(TournamentRefused):
        game_record_result(game=game, result="2-0")
    with pytest.raises(TournamentRefused):
        game_record_result(game=game, result=Result.WHITE_WINS, rated_result=Result.DOUBLE_FORFEIT)
    ByeFactory(round=rnd, member=a)
    with pytest.raises(TournamentRefused, match="bye"):
        game_record_result(game=game, result=Result.WHITE_WINS)


def test_a_closed_periods_game_cannot_be_changed():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    period_close(pool=pool)

    with pytest.raises(RatingsError, match="closed rating period"):
        game_record_result(game=game, result=Result.DRAW)
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS


def test_an_unlinked_category_is_not_rated():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    t = TournamentFactory(category="blitz", start_date=datetime.date(2025, 3, 1))
    game = unplayed_game(make_round(t), a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    assert not RatingRecord.objects.filter(pool=pool).exists()


def test_refusal_in_german():
    from django.utils import translation

    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    period_close(pool=pool)
    with translation.override("de-at"), pytest.raises(RatingsError, match="abgeschlossenen Wertungsperiode"):
        game_record_result(game=game, result=Result.DRAW)


def rated_pair_game(pool, day=datetime.date(2025, 3, 1)):
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=day), a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    return a, b, game


def test_a_game_moved_after_the_open_period_leaves_no_live_change():
    pool = make_pool()
    a, b, game = rated_pair_game(pool)
    game.date = datetime.date(2025, 9, 1)  # edited in the tournament, then saved again
    game.save(update_fields=["date"])

    game_record_result(game=game, result=Result.WHITE_WINS)

    assert list(RatingRecord.objects.filter(game=game).values_list("period", flat=True)) == [None, None]
    assert (live(pool, a).live_rating, live(pool, a).live_change, live(pool, a).live_games) == (1950, None, 0)


def test_a_game_moved_before_the_pools_start_loses_its_records():
    pool = make_pool()
    a, b, game = rated_pair_game(pool)
    game.date = datetime.date(2024, 12, 1)
    game.save(update_fields=["date"])

    game_record_result(game=game, result=Result.WHITE_WINS)

    assert not RatingRecord.objects.filter(game=game).exists()
    assert (live(pool, a).live_rating, live(pool, a).live_change) == (1950, None)


def test_a_game_cannot_be_moved_out_of_a_closed_period():
    pool = make_pool()
    a, b, game = rated_pair_game(pool)
    period_close(pool=pool)
    game.date = datetime.date(2025, 9, 1)
    game.save(update_fields=["date"])

    # The refusal names the date the game has in the closed period, not the new one.
    refusal = "game of 01.03.2025 lies in the closed rating period 01.01.2025–30.06.2025"
    with pytest.raises(RatingsError, match=refusal):
        game_record_result(game=game, result=Result.WHITE_WINS)
    assert RatingRecord.objects.get(game=game, member=a).period.start == datetime.date(2025, 1, 1)


def test_a_game_date_change_out_of_a_closed_period_is_refused_in_the_same_words():
    from django.utils import translation

    from ratings.services import game_date_change

    pool = make_pool()
    a, b, game = rated_pair_game(pool)
    period_close(pool=pool)
    refusal = "Partie vom 01.03.2025 liegt in der abgeschlossenen Wertungsperiode 01.01.2025–30.06.2025"
    with translation.override("de-at"), pytest.raises(RatingsError, match=refusal):
        game_date_change(game=game, date=datetime.date(2025, 9, 1))
    game.refresh_from_db()
    assert game.date is None
    assert RatingRecord.objects.get(game=game, member=a).period.start == datetime.date(2025, 1, 1)


@pytest.mark.parametrize("size", [4, 10])
def test_query_counts_do_not_grow_with_the_pool(
    size, django_assert_num_queries, django_assert_max_num_queries
):
    from tests.ratings.services.scenario import RESULTS, round_robin_games

    pool = make_pool()
    rated = [MemberFactory() for _ in range(size)]
    newcomers = [MemberFactory() for _ in range(size)]
    publish_start_list(pool, {m: 1500 + 10 * i for i, m in enumerate(rated)})
    games = round_robin_games(rated + newcomers, datetime.date(2025, 3, 1), "Open")
    # The pool's state after all but the last result: written in one go and rebuilt by a
    # recalculation, which equals entering them one by one (test_recalc.py), at a fraction of the time.
    for k, result in enumerate(RESULTS):
        pks = [g.pk for i, g in enumerate(games[:-1]) if i % 3 == k]
        Game.objects.filter(pk__in=pks).update(result=result, rated_result=result)
    pool_recalculate(pool=pool)
    # PostgreSQL: a save also locks the members it touches (a savepoint, advisory locks) and finds
    # a newcomer's group again once it holds its locks; its small reads and writes run as
    # prepared statements (``clubrating.core.db``), logged as Django's own.
    # SQLite: reading the ties and levels the save moves and writing them
    # (ratings.services.live_places).
    saved, taken_back = (26, 23) if connection.vendor == "postgresql" else (24, 21)
    with django_assert_num_queries(saved):
        game_record_result(game=games[-1], result=Result.DRAW)  # a newcomer's game
    with django_assert_num_queries(taken_back):
        game_record_result(game=games[-1], result=Result.NOT_PLAYED)
    with django_assert_max_num_queries(22):
        period_close(pool=pool)


def test_the_live_rating_is_what_closing_would_publish_floor_included():
    """Austrian national rating rules (ÖSB), the floor of 1200: 1154 + 9 is published as 1200, so
    the live list shows 1200 (+46), as the close preview and the published list do."""
    from ratings.models import ListEntry

    pool = make_pool()  # oesb-classic, floor 1200
    low, strong = MemberFactory(), MemberFactory()
    publish_start_list(pool, {low: (1154, 30), strong: (1400, 30)})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), low, strong)

    game_record_result(game=game, result=Result.DRAW)

    record = RatingRecord.objects.get(pool=pool, game=game, member=low)
    assert round(record.change) == 9  # the period's own change, (S − E) × F
    assert (live(pool, low).live_rating, live(pool, low).live_change) == (1200, 46)
    period_close(pool=pool)
    entry = ListEntry.objects.get(list__pool=pool, list__superseded=False, member=low,
                                  list__valid_from=datetime.date(2025, 7, 1))
    assert (entry.rating, entry.change) == (1200, 46)


def test_a_save_finds_the_pools_that_rate_the_tournament_as_tournament_pools_does():
    """``tournament_pool_starts`` (what a save reads) gives the pools of ``tournament_pools`` with
    their start dates, ``tournament_pool_names`` (what the pages read) with their names, in the
    same order: the category's pools without a link, only the linked ones with links, none for
    an unrated tournament."""
    from ratings.services.pools import (
        tournament_pool_names,
        tournament_pool_starts,
        tournament_pools,
        tournament_rate_in_pool,
    )

    standard = make_pool(name="Standard")
    other = make_pool(name="Zweite", start=datetime.date(2024, 7, 1))
    rapid = make_pool(name="Schnell", category="rapid")
    tournament = TournamentFactory()

    def same():
        tournament.refresh_from_db()
        expected = {p.pk: p.start_date for p in tournament_pools(tournament)}
        assert tournament_pool_starts(tournament) == expected
        assert tournament_pool_names(tournament) == [(p.pk, p.name) for p in tournament_pools(tournament)]
        return set(expected)

    assert same() == {standard.pk, other.pk}
    tournament_rate_in_pool(tournament=tournament, pool=rapid)
    assert same() == {rapid.pk}
    Tournament = type(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(rated=False)
    assert same() == set()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="plan_cache_mode is PostgreSQL's")
def test_a_save_runs_its_prepared_statements_on_generic_plans_and_puts_the_setting_back(monkeypatch):
    from ratings.services import results

    def setting():
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('plan_cache_mode')")
            return cursor.fetchone()[0]

    pool = make_pool()
    a, b, game = rated_pair_game(pool)
    seen = []
    rebuild = results._rebuild
    monkeypatch.setattr(results, "_rebuild", lambda *args: seen.append(setting()) or rebuild(*args))
    # Inside the test's transaction, as inside an import's: the setting is put back after the save.
    assert setting() == "auto"
    game_record_result(game=game, result=Result.DRAW)
    assert seen == ["force_generic_plan"] and setting() == "auto"
    # A refused save rolls its savepoint back, and the setting with it.
    with pytest.raises(RatingsError):
        game_record_result(game=game, result=Result.BLACK_WINS, seen=Result.WHITE_WINS)
    assert setting() == "auto"
    assert RatingRecord.objects.get(pool=pool, game=game, member=a).score == 0.5
