"""A member's copy of his data and his erasure (ratings.member_data)."""

import datetime
import json

import pytest
from axes.models import AccessLog
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder

from clubrating.clubs.models import Erasure, Member, Sex
from clubrating.tournaments.models import Bye, ByeKind, Result, ResultChange, TournamentPlayer
from ratings.member_data import member_data_export, member_erase
from ratings.models import ListEntry, PoolMember, RatingRecord
from ratings.services import game_record_result, period_close, pool_recalculate
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def everything(rated_club):  # noqa: F811
    """Anna with one of everything: personal data, a login with a log-in record, registrations,
    games with a corrected result, a bye, ratings, list entries and rating records."""
    anna = rated_club["anna"]
    anna.birth_date, anna.email, anna.phone = datetime.date(2010, 4, 2), "anna@example.at", "+43 1 234"
    anna.national_id, anna.fide_id = "AUT-4711", 1600238
    user = User.objects.create_user("anna", email="anna@example.at", password="pw")
    anna.user = user
    anna.save()
    AccessLog.objects.create(username="anna", ip_address="192.0.2.7", user_agent="Firefox")
    AccessLog.objects.update(attempt_time=datetime.datetime(2026, 10, 1, 18, 0, tzinfo=datetime.UTC))
    autumn = rated_club["autumn"]
    TournamentPlayer.objects.create(tournament=autumn, member=anna, start_rank=1, rating=1835)
    game = autumn.rounds.get(number=1).games.get()
    game_record_result(game=game, result=Result.DRAW, reason="Falsch eingetragen")
    Bye.objects.create(round=RoundFactory(tournament=autumn, number=2, date=datetime.date(2026, 9, 8)),
                       member=anna, kind=ByeKind.HALF)
    return rated_club


def test_export_holds_one_of_everything(everything):
    anna = everything["anna"]
    data = member_data_export(member=anna)
    json.dumps(data, cls=DjangoJSONEncoder)  # plain JSON values throughout
    member = data["member"]
    assert (member["last_name"], member["first_name"], member["birth_date"], member["sex"]) == (
        "Berger", "Anna", "2010-04-02", "f")
    assert (member["email"], member["phone"], member["national_id"], member["fide_id"]) == (
        "anna@example.at", "+43 1 234", "AUT-4711", 1600238)
    assert member["club"] == "Schachklub Donaustadt"
    assert member["guardian_consent_on"] == "2025-09-01"
    account = data["account"]
    assert account["username"] == "anna" and account["email"] == "anna@example.at"
    assert account["logins"] == [{"kind": "login", "at": "2026-10-01T18:00:00+00:00", "address": "192.0.2.7",
                                  "browser": "Firefox", "logout_at": None}]
    tournaments = data["tournaments"]
    assert tournaments["registrations"] == [{
        "tournament": "Herbstturnier 2026", "tournament_id": everything["autumn"].pk, "start_rank": 1,
        "national_rating": 1835, "fide_rating": None, "final_rank": None, "withdrawn_from_round": None,
        "team": None}]
    games = {g["tournament"]: g for g in tournaments["games"]}
    assert games["Frühjahrsturnier 2026"]["opponent"] == "Huber, Bernd"
    assert games["Frühjahrsturnier 2026"]["result"] == Result.DRAW
    autumn_game = games["Herbstturnier 2026"]
    assert (autumn_game["colour"], autumn_game["opponent"], autumn_game["result"]) == (
        "white", "Moser, Clara", Result.DRAW)
    assert [(c["old_result"], c["new_result"], c["reason"]) for c in autumn_game["result_changes"]] == [
        ("", Result.WHITE_WINS, ""), (Result.WHITE_WINS, Result.DRAW, "Falsch eingetragen")]
    assert tournaments["byes"] == [{"tournament": "Herbstturnier 2026", "round": 2, "kind": ByeKind.HALF}]
    ratings = data["ratings"]
    assert [(p["pool"], p["published_rating"], p["games"]) for p in ratings["pools"]] == [
        ("Standard", 1835.0, 11)]
    assert [(e["valid_from"], e["rating"], e["withdrawn"]) for e in ratings["list_entries"]] == [
        ("2026-01-01", 1830.0, False), ("2026-07-01", 1835.0, False)]
    assert [(r["played_on"], r["opponent"], r["score"]) for r in ratings["rating_records"]] == [
        ("2026-03-01", "Huber, Bernd", 0.5), ("2026-09-01", "Moser, Clara", 0.5)]


def _sporting_record(pool):
    records = sorted(RatingRecord.objects.filter(pool=pool).values_list(
        "game_id", "member_id", "opponent_id", "played_on", "score", "pending", "own_rating",
        "opponent_rating", "expected", "factor", "change", "period_id"))
    entries = sorted(ListEntry.objects.filter(list__pool=pool).values_list(
        "list_id", "member_id", "club_id", "rank", "rating", "change", "games_count", "period_games",
        "markers"))
    states = sorted(PoolMember.objects.filter(pool=pool).values_list(
        "member_id", "rating", "games_count", "live_rating", "live_change", "live_games"))
    return records, entries, states


def test_erasure_keeps_ratings_and_lists_and_changes_only_the_name(everything):
    anna, pool = everything["anna"], everything["pool"]
    before = _sporting_record(pool)
    officer = User.objects.create_user("officer")
    erasure = member_erase(member=anna, by=officer, cause="request")
    anna = Member.objects.get(pk=anna.pk)
    assert anna.full_name == f"Anonym, {anna.pk}"
    assert (anna.birth_date, anna.birth_year, anna.sex, anna.email, anna.phone) == (None, None, "", "", "")
    assert (anna.national_id, anna.fide_id, anna.club_id, anna.user_id) == ("", None, None, None)
    assert anna.erased_on is not None and anna.profile_restricted
    assert _sporting_record(pool) == before
    user = User.objects.get(pk=everything["anna"].user_id)
    assert (user.username, user.email, user.is_active, user.has_usable_password()) == (
        f"erased-{anna.pk}", "", False, False)
    assert not AccessLog.objects.filter(username="anna").exists()
    assert ResultChange.objects.filter(reason="Falsch eingetragen").count() == 1  # the game's history stays
    assert (erasure.cause, erasure.erased_by) == ("request", officer)
    logged = {f.name: getattr(erasure, f.name) for f in Erasure._meta.fields}
    assert "Berger" not in repr(logged) and "anna" not in repr(logged).lower().replace("anonym", "")

    again = member_erase(member=anna, by=officer, cause="request")
    assert again.pk == erasure.pk and Erasure.objects.count() == 1
    assert Member.objects.get(pk=anna.pk).full_name == f"Anonym, {anna.pk}"
    assert _sporting_record(pool) == before


def test_erasure_keeps_the_birth_year_where_fide_rules_need_it():
    """FIDE's K 40 for juniors (Rating Regulations 8.3.3) depends on the birth year: it stays, so
    that a recalculation after the erasure rates the junior's games exactly as before."""
    junior = MemberFactory(last_name="Jung", birth_year=None, birth_date=datetime.date(2012, 5, 1),
                           sex=Sex.MALE)
    adult = MemberFactory(last_name="Alt", birth_year=1970)
    pool = make_pool(name="FIDE", rules="fide-2024", start=datetime.date(2026, 1, 1))
    publish_start_list(pool, {junior: (1600, 40), adult: (1700, 40)})
    tournament = TournamentFactory(start_date=datetime.date(2026, 2, 1))
    game = GameFactory(round=RoundFactory(tournament=tournament, number=1), board=1, white=junior,
                       black=adult, result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.WHITE_WINS)
    period_close(pool=pool)
    before = _sporting_record(pool)
    factor = RatingRecord.objects.get(member=junior).factor
    assert factor == 40
    member_erase(member=junior, by=None, cause="retention")
    junior.refresh_from_db()
    assert (junior.birth_date, junior.birth_year) == (None, 2012)
    pool_recalculate(pool=pool)
    assert _sporting_record(pool) == before


def test_erasure_clears_the_birth_year_where_no_rule_needs_it(rated_club):  # noqa: F811
    clara = rated_club["clara"]
    member_erase(member=clara, by=None, cause="request")
    clara.refresh_from_db()
    assert clara.birth_year is None
