"""The registry of a member's data (clubrating.clubs.member_data): every app that keeps rows
naming a member has a part, and the copy holds one of everything."""

import datetime

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.utils import timezone

from clubrating.clubs.member_data import member_data_export, member_data_parts, member_erase
from clubrating.clubs.models import Member, MemberChange
from clubrating.federation.models import FideFollow, FideList, FideRating
from clubrating.leagues import services as league_services
from clubrating.national_list.models import NationalList, NationalRating
from clubrating.tournaments.models import Entry, LineupEntry, Notification
from ratings.models import ClosingLiveValues, FideTakeover, ListEntry
from tests.factories import TeamFactory, TeamMatchFactory
from tests.leagues.conftest import build_league
from tests.ratings.test_member_data import everything  # noqa: F401
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401

pytestmark = pytest.mark.django_db


def _member_fields(model):
    return [f for f in model._meta.get_fields()
            if f.concrete and f.is_relation and f.related_model is Member]


def _covered() -> set[str]:
    return {label for part in member_data_parts() for label in part.models}


def test_every_model_naming_a_member_has_a_part():
    naming = {model._meta.label for model in apps.get_models() if _member_fields(model)}
    assert naming, "no model names a member?"
    assert naming - _covered() == set(), "register these in the app's member_data part"
    for label in _covered():
        apps.get_model(label)  # no part names a model that is not there


def test_parts_have_distinct_keys_and_follow_the_apps():
    keys = [part.key for part in member_data_parts()]
    assert keys == ["member", "account", "erasures", "changes", "tournaments", "leagues", "national_lists",
                    "fide", "ratings"]


@pytest.fixture
def one_of_everything(everything):  # noqa: F811
    """Anna of ``everything`` (personal data, login, registrations, games, a bye, ratings) with
    what that lacks: an entry, an e-mail, a line-up, a roster place and its change, the national
    and FIDE lists' lines, a follow of her FIDE ID, a FIDE takeover."""
    anna = everything["anna"]
    autumn = everything["autumn"]
    Entry.objects.create(tournament=autumn, member=anna, last_name=anna.last_name, first_name=anna.first_name,
                         email="anna-entry@example.at", state="accepted")
    Notification.objects.create(member=anna, email=anna.email, language="de-at",
                                subject="Runde 3", body="…")
    team = TeamFactory(tournament=autumn)
    LineupEntry.objects.create(match=TeamMatchFactory(home_team=team, round=autumn.rounds.get(number=1)),
                               team=team, board=3, member=anna)
    league = build_league()
    league_services.roster_add(season=league.season, club=league.teams["Donaustadt 1"].club, member=anna,
                               team=league.teams["Donaustadt 1"], on=datetime.date(2026, 10, 1),
                               user=league.director, reason="Nachmeldung Anna")
    national = NationalList.objects.create(list_date=datetime.date(2026, 10, 1), imported_at=timezone.now())
    NationalRating.objects.create(national_list=national, member=anna, national_id=anna.national_id,
                                  name="Berger Anna", rating=1777)
    fide_list = FideList.objects.create(month=datetime.date(2026, 10, 1))
    FideRating.objects.create(list=fide_list, fide_id=anna.fide_id, name="Berger, Anna", federation="AUT",
                              standard=1888)
    FideFollow.objects.create(fide_id=anna.fide_id)
    entry = ListEntry.objects.filter(member=anna).order_by("pk").last()
    assert ClosingLiveValues.objects.filter(member=anna).update(live_rating=1842.5) >= 1  # kept at closing
    FideTakeover.objects.create(list=entry.list, member=anna, fide_rating=1888, rating=1801)
    MemberChange.objects.create(member=anna, fields=[{"field": "fide_rating", "old": "1850", "new": "1888"}])
    return anna


# What of each model the copy must show: a value the fixture gave it.
FOUND = {
    "clubs.Member": lambda d: d["member"]["email"] == "anna@example.at",
    "clubs.Erasure": lambda d: d["erasures"] == [],  # she is not erased; an erased member's copy names it
    "clubs.MemberChange": lambda d: d["changes"][0]["fields"] == [
        {"field": "fide_rating", "old": "1850", "new": "1888"}],
    "tournaments.TournamentPlayer": lambda d: d["tournaments"]["registrations"][0]["national_rating"] == 1835,
    "tournaments.Entry": lambda d: d["tournaments"]["entries"][0]["email"] == "anna-entry@example.at",
    "tournaments.Game": lambda d: len(d["tournaments"]["games"]) == 2,
    "tournaments.Bye": lambda d: d["tournaments"]["byes"][0]["round"] == 2,
    "tournaments.LineupEntry": lambda d: d["tournaments"]["lineups"][0]["board"] == 3,
    "tournaments.Notification": lambda d: d["tournaments"]["notifications"][0]["subject"] == "Runde 3",
    "leagues.RosterEntry": lambda d: d["leagues"]["roster_entries"][0]["club"] == "SK Donaustadt",
    "leagues.RosterChange": lambda d: d["leagues"]["roster_changes"][0]["reason"] == "Nachmeldung Anna",
    "national_list.NationalRating": lambda d: d["national_lists"][0]["rating"] == 1777,
    "federation.FideRating": lambda d: d["fide"]["months"] == [{
        "month": "2026-10-01", "name": "Berger, Anna", "federation": "AUT", "title": "", "standard": 1888,
        "rapid": None, "blitz": None, "birth_year": None, "inactive": False}],
    "federation.FideFollow": lambda d: d["fide"]["followed_since"] is not None,
    "ratings.PoolMember": lambda d: d["ratings"]["pools"][0]["published_rating"] == 1835.0,
    "ratings.ListEntry": lambda d: len(d["ratings"]["list_entries"]) == 2,
    "ratings.ClosingLiveValues": lambda d: d["ratings"]["closing_values"][0]["live_rating"] == 1842.5,
    "ratings.RatingRecord": lambda d: len(d["ratings"]["rating_records"]) == 2,
    "ratings.FideTakeover": lambda d: d["ratings"]["fide_takeovers"][0]["first_rating"] == 1801,
}


def test_the_copy_finds_one_of_everything(one_of_everything):
    anna = one_of_everything
    for label in _covered():
        model = apps.get_model(label)
        fields = _member_fields(model)
        if fields and label != "clubs.Erasure":
            assert any(model.objects.filter(**{f.name: anna}).exists() for f in fields), f"no {label} of Anna"
    assert set(FOUND) == _covered(), "say what of a newly registered model the copy must show"
    data = member_data_export(member=Member.objects.select_related("club", "user").get(pk=anna.pk))
    missing = [label for label, found in FOUND.items() if not found(data)]
    assert missing == []


def test_erasure_deletes_the_rows_kept_only_for_the_member(one_of_everything):
    anna = one_of_everything
    member_erase(member=anna, by=User.objects.create_user("officer"), cause="request")
    assert not NationalRating.objects.filter(member=anna).exists()
    assert not FideRating.objects.filter(fide_id=1600238).exists()
    assert not FideFollow.objects.filter(fide_id=1600238).exists()
    data = member_data_export(member=Member.objects.get(pk=anna.pk))
    assert data["fide"] == {"months": [], "followed_since": None}
    assert [e["cause"] for e in data["erasures"]] == ["request"]
    assert data["tournaments"]["registrations"][0]["national_rating"] == 1835  # sporting records stay
