"""Two officials save results of the same round at the same moment (SQLite and PostgreSQL)."""

import datetime
import re
import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.urls import reverse

from clubrating.tournaments.models import Result, ResultChange
from ratings.services import RatingsError, game_date_change, game_record_result, pool_recalculate
from tests.ratings.services.scenario import build
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.db_specific


def _save_together(games_and_results):
    barrier = threading.Barrier(len(games_and_results))
    errors = []

    def save(game, result):
        try:
            barrier.wait()
            game_record_result(game=game, result=result)
        except Exception as exc:  # reported to the test thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=pair) for pair in games_and_results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_results_of_one_round_saved_at_once_both_count_and_equal_a_recalculation():
    pool, rated, newcomers, first, second, rng = build()
    round_one = [g for g in first if g.round.number == 1 and g.round.tournament.name == "Frühjahr"]
    assert len(round_one) >= 2
    for attempt in range(3):  # several rounds of simultaneous saves, with newcomers involved
        results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS][attempt]
        errors = _save_together([(g, results) for g in round_one])
        assert errors == []
    for g in round_one:
        g.refresh_from_db()
        assert g.result == Result.BLACK_WINS
    before = snapshot(pool)
    assert len(before[0]) == 2 * len(round_one)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before


# --- the stale check: several officials save one board from the same page state ------------------

N_OFFICIALS = 6


def _one_board():
    from tests.factories import MemberFactory
    from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    return pool, unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)


def _together(n, work):
    """Run ``work(i)`` in ``n`` threads released at once; returns their return values."""
    barrier = threading.Barrier(n)
    outcomes = [None] * n

    def run(i):
        try:
            barrier.wait()
            outcomes[i] = work(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


@pytest.mark.django_db(transaction=True)
def test_of_officials_saving_one_board_from_the_same_state_through_the_service_exactly_one_is_saved():
    pool, game = _one_board()

    def work(i):
        try:
            game_record_result(game=game, result=RESULTS[i % 3], seen="")
        except RatingsError as error:
            return error.code
        return "saved"

    outcomes = _together(N_OFFICIALS, work)

    assert sorted(outcomes) == ["saved"] + ["stale"] * (N_OFFICIALS - 1)
    game.refresh_from_db()
    assert game.result == RESULTS[outcomes.index("saved") % 3]
    assert ResultChange.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_many_officials_saving_different_boards_at_once_equal_a_recalculation():
    pool, rated, newcomers, first, second, rng = build()
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.NOT_PLAYED]
    for _attempt in range(4):  # rated players and newcomers' groups, boards of several rounds
        chosen = {g.pk: (g, rng.choice(results)) for g in rng.sample(first, 8)}
        assert _save_together(list(chosen.values())) == []
        for game, result in chosen.values():
            game.refresh_from_db()
            assert game.result == result
    before = snapshot(pool)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before


@pytest.mark.django_db(transaction=True)
def test_of_officials_saving_one_board_from_the_same_state_through_the_page_exactly_one_is_told_saved():
    pool, game = _one_board()
    user = User.objects.create_user("offi")
    user.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    url = reverse("tournaments:board_result", args=[game.round.tournament_id, 1, game.pk])

    def work(i):
        client = Client()
        client.force_login(user)
        html = client.post(url, {"result": RESULTS[i % 3], "seen": ""}, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="de-at").content.decode()
        if "data-saved" in html:
            return "saved"
        return "told" if "Von Ihrer Eingabe wurde nichts gespeichert" in html else html

    outcomes = _together(N_OFFICIALS, work)

    assert sorted(outcomes) == ["saved"] + ["told"] * (N_OFFICIALS - 1)
    assert ResultChange.objects.filter(game=game).count() == 1
    before = snapshot(pool)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row and advisory locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_save_waits_only_for_the_players_it_touches():
    from django.db import OperationalError, connections, transaction

    pool, rated, newcomers, first, second, rng = build()
    between_rated = [g for g in first if {g.white_id, g.black_id} <= {m.pk for m in rated}]
    held, other = between_rated[0], next(
        g for g in between_rated[1:] if not {g.white_id, g.black_id} & {between_rated[0].white_id}
    )
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:  # another official's save holding the white player of ``held``
            cursor.execute("BEGIN")
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [pool.pk, held.white_id])
        game_record_result(game=other, result=Result.DRAW)  # different players: not held up
        with pytest.raises(OperationalError), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            game_record_result(game=held, result=Result.DRAW)
    finally:
        holder.close()
    other.refresh_from_db()
    held.refresh_from_db()
    assert (other.result, held.result) == (Result.DRAW, "")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_save_during_a_close_is_refused_at_once_and_saved_once_the_close_is_done():
    """Closing, reopening or recalculating holds the pool for seconds at a federation's size:
    a save meanwhile is told to save again in a moment instead of waiting for it."""
    from django.db import connections

    from ratings.models import RatingPool

    pool, rated, newcomers, first, second, rng = build()
    game, played = first[0], first[1]
    game_record_result(game=played, result=Result.WHITE_WINS)
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:  # a close holding the pool (``pool_lock``)
            cursor.execute("BEGIN")
            cursor.execute(f"SELECT id FROM {RatingPool._meta.db_table} WHERE id = %s FOR UPDATE", [pool.pk])
        with pytest.raises(RatingsError) as refused:
            game_record_result(game=game, result=Result.DRAW)
        assert refused.value.code == "busy"
        with pytest.raises(RatingsError) as refused:  # nor is moving a game to another day
            game_date_change(game=played, date=played.played_on + datetime.timedelta(days=1))
        assert refused.value.code == "busy"
        # Through the page: the official is told, and the row keeps what he entered.
        user = User.objects.create_user("offi")
        user.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
        client = Client()
        client.force_login(user)
        url = reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number, game.pk])
        html = client.post(url, {"result": Result.DRAW, "seen": ""}, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="de-at").content.decode()
        assert "Bitte in einem Moment erneut speichern" in html and "data-saved" not in html
        assert re.search(rf'value="{re.escape(Result.DRAW)}"[^>]* checked', html)
        game.refresh_from_db()
        assert game.result == "" and not ResultChange.objects.filter(game=game).exists()
    finally:
        holder.close()
    game_record_result(game=game, result=Result.DRAW)
    game.refresh_from_db()
    assert game.result == Result.DRAW


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_save_does_not_wait_for_another_board_of_its_round_but_for_a_change_of_the_round():
    """The game is locked for update, its round and tournament for share: another board's save
    of the same round goes on, a change of the round (its date, its pairing) waits for it."""
    from django.db import OperationalError, connections, transaction

    from clubrating.tournaments.models import Game, Round
    from ratings.services.db import game_locked

    pool, rated, newcomers, first, second, rng = build()
    game = first[0]
    other = next(g for g in first[1:] if g.round_id == game.round_id)
    expected = Game.objects.select_related("round__tournament").get(pk=game.pk)

    def values(obj):
        return [getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields]

    with transaction.atomic():
        locked = game_locked(game)  # the locking read gives what the ORM reads
        assert values(locked) == values(expected)
        assert values(locked.round) == values(expected.round)
        assert values(locked.round.tournament) == values(expected.round.tournament)
        holder = connections.create_connection("default")
        try:
            with holder.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute("SET LOCAL lock_timeout = '1s'")
                cursor.execute(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE", [other.pk])
                cursor.execute(f"SELECT id FROM {Round._meta.db_table} WHERE id = %s FOR SHARE",
                               [game.round_id])  # another board's save of the round
                with pytest.raises(OperationalError):  # the round's date waits for the save
                    cursor.execute(f"UPDATE {Round._meta.db_table} SET date = date WHERE id = %s",
                                   [game.round_id])
        finally:
            holder.close()
