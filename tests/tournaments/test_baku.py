"""Baku acceleration (FIDE Handbook C.04.5.1): the rule, the tournament's virtual points, the
pairing of round 1 with them, and the TRF file that carries them."""

import datetime

import pytest

from clubrating.interchange.formats.trf import parse_trf
from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments import services
from clubrating.tournaments.acceleration import tournament_acceleration
from clubrating.tournaments.models import Acceleration
from clubrating.tournaments.pairing.baku import baku_acceleration, baku_group_a_size, baku_virtual_points
from clubrating.tournaments.pairing.trf_pairing import file_accelerations, pair_next_round
from tests.factories import MemberFactory, TournamentFactory


@pytest.mark.parametrize(("players", "size"), [
    (161, 82), (12, 6), (10, 6), (9, 6), (8, 4), (7, 4), (100, 50),
])
def test_group_a_is_the_first_half_rounded_up_to_even(players, size):
    # C.04.5.1: "the first half of the players, rounded up to the nearest even number" (161 -> 82).
    assert baku_group_a_size(players) == size


def test_nine_rounds_one_point_in_three_half_in_two():
    # C.04.5.1's own example: nine rounds, five accelerated, 1 point in the first three, ½ in 4-5.
    assert [baku_virtual_points(9, r) for r in range(1, 10)] == [1, 1, 1, 0.5, 0.5, 0, 0, 0, 0]


@pytest.mark.parametrize(("rounds", "points"), [
    (5, [1, 1, 0.5, 0, 0]),
    (7, [1, 1, 0.5, 0.5, 0, 0, 0]),
    (11, [1, 1, 1, 0.5, 0.5, 0.5, 0, 0, 0, 0, 0]),
])
def test_accelerated_rounds_are_the_first_half_rounded_up(rounds, points):
    assert [baku_virtual_points(rounds, r) for r in range(1, rounds + 1)] == points


def test_acceleration_per_player_and_round():
    assert baku_acceleration(group_a=[1, 2], rounds=5) == {
        1: {1: 1.0, 2: 1.0, 3: 0.5}, 2: {1: 1.0, 2: 1.0, 3: 0.5}}


def _open(players: int, acceleration: str = Acceleration.BAKU, rounds: int = 7):
    t = TournamentFactory(start_date=datetime.date(2026, 3, 1), rounds_count=rounds,
                          acceleration=acceleration)
    for i in range(players):
        member = MemberFactory(last_name=f"P{i:02d}", fide_rating=2400 - 50 * i)
        services.player_register(tournament=t, member=member)
    return t


def _round_pairs(t, number: int) -> set[frozenset[int]]:
    rank = dict(t.players.values_list("member_id", "start_rank"))
    rnd = t.rounds.get(number=number)
    return {frozenset((rank[g.white_id], rank[g.black_id])) for g in rnd.games.all()}


@pytest.mark.django_db
def test_round_one_pairs_group_a_among_itself():
    # 12 players: group A is 1-6 with a virtual point, so round 1 pairs 1-4, 2-5, 3-6 and 7-10,
    # 8-11, 9-12 (without acceleration 1-7, 2-8, ...).
    t = _open(12)
    services.round_pair(tournament=t)
    assert _round_pairs(t, 1) == {frozenset(p) for p in ((1, 4), (2, 5), (3, 6), (7, 10), (8, 11), (9, 12))}


@pytest.mark.django_db
def test_without_acceleration_round_one_is_the_usual_one():
    t = _open(12, acceleration=Acceleration.NONE)
    services.round_pair(tournament=t)
    assert _round_pairs(t, 1) == {frozenset((i, i + 6)) for i in range(1, 7)}


@pytest.mark.django_db
def test_late_entry_above_the_last_group_a_player_joins_group_a():
    t = _open(12)
    services.round_pair(tournament=t)
    players = list(t.players.all())
    assert sorted(tournament_acceleration(tournament=t, players=players)) == [1, 2, 3, 4, 5, 6]
    services.player_register(tournament=t, member=MemberFactory(last_name="Late", fide_rating=2330))
    players = list(t.players.all())
    ranks = {p.member.last_name: p.start_rank for p in players}
    assert ranks["Late"] == 3 and ranks["P05"] == 7  # the last group-A player, one place lower
    assert sorted(tournament_acceleration(tournament=t, players=players)) == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.django_db
def test_export_writes_the_virtual_points_and_pair_trf_pairs_as_the_site():
    t = _open(12)
    services.round_pair(tournament=t)
    text = tournament_export_trf(tournament=t)
    lines = text.splitlines()
    assert "192 FIDE_DUTCH_2025_BAKU" in lines
    assert "250       1.0   1   2    1    6" in lines and "250       0.5   3   4    1    6" in lines
    # Round 1 is running: the file is the round to pair, and the file's pairing is the site's.
    assert {frozenset(pair) for pair in pair_next_round(parse_trf(text))} == _round_pairs(t, 1)


@pytest.mark.django_db
def test_export_of_a_tournament_without_acceleration_has_no_250_lines():
    t = _open(8, acceleration=Acceleration.NONE)
    text = tournament_export_trf(tournament=t)
    assert not [line for line in text.splitlines() if line.startswith("250")]
    assert "192 FIDE_DUTCH_2025" in text.splitlines()


@pytest.mark.django_db
def test_an_imported_file_naming_the_baku_system_is_accelerated():
    t = _open(12)
    services.round_pair(tournament=t)
    text = tournament_export_trf(tournament=t).replace(t.name, "Wieder eingelesen")
    imported = tournament_import_trf(text=text).tournament
    assert (imported.acceleration, imported.kind) == (Acceleration.BAKU, "swiss")


def test_a_file_naming_the_baku_system_without_250_lines_gets_the_rule():
    # 10 players, 5 rounds: group A is 1-6 (half rounded up to even), 1 point in rounds 1-2, ½ in 3.
    lines = ["012 Open", "XXR 5", "192 FIDE_DUTCH_2025_BAKU"] + [
        f"001 {n:4d}      {'Player ' + str(n):<33} {2400 - 10 * n:4d}" for n in range(1, 11)]
    accelerations = file_accelerations(parse_trf("\n".join(lines) + "\n"))
    assert accelerations == {n: {1: 1.0, 2: 1.0, 3: 0.5} for n in range(1, 7)}
