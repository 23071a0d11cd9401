"""Merging a duplicate member (clubrating.clubs.merge): everything that names him moves to the
member who stays, through every app's part; what cannot be merged is refused and changes nothing."""

import datetime

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from clubrating.clubs.member_data import member_data_parts
from clubrating.clubs.merge import member_merge
from clubrating.clubs.models import Member, MemberChange
from clubrating.clubs.register import MemberRefused
from clubrating.federation.models import FideFollow, FideRating
from clubrating.jobs.models import Job
from clubrating.tournaments.models import Result, TournamentPlayer
from ratings.models import ListEntry, PoolMember, PublishedList, RatingRecord
from ratings.services import game_record_result, period_close
from tests.clubs.test_member_data import one_of_everything  # noqa: F401
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.language import speak
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.test_member_data import everything  # noqa: F401
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401

pytestmark = pytest.mark.django_db
BORN = datetime.date(1980, 2, 3)


def twin_of(member, **values):
    return MemberFactory(last_name=member.last_name.upper(), first_name=member.first_name,
                         birth_date=member.birth_date, birth_year=None, club=member.club, national_id="",
                         fide_id=None, **values)


def pair(**values):
    keep = MemberFactory(last_name="Weber", first_name="Karl", birth_date=BORN, birth_year=None, fide_id=None)
    return keep, MemberFactory(last_name="Weber", first_name="Karl", birth_date=BORN, birth_year=None,
                               fide_id=None, **values)


def _member_fields(model):
    return [f.name for f in model._meta.get_fields()
            if f.concrete and f.is_relation and f.related_model is Member]


def naming(member) -> dict[tuple[str, str], set[int]]:
    """(model, field) -> the rows whose field names ``member``."""
    found = {}
    for model in apps.get_models():
        for name in _member_fields(model):
            rows = set(model._base_manager.filter(**{name: member}).values_list("pk", flat=True))
            if rows:
                found[model._meta.label, name] = rows
    return found


def test_every_part_that_covers_rows_merges_them():
    for part in member_data_parts():
        if part.models:
            assert part.merge is not None, part.key


def test_one_of_everything_belongs_to_the_survivor(one_of_everything, officer):  # noqa: F811
    anna = one_of_everything
    keep = twin_of(anna)
    user_pk, fide_id = anna.user_id, anna.fide_id
    before = naming(anna)
    labels = {label for label, _field in before}
    # one of every model naming a member but the member's own record and his erasure
    assert labels == {label for label in (p for part in member_data_parts() for p in part.models)
                      if _member_fields(apps.get_model(label))} - {"clubs.Erasure"}

    merged = member_merge(keep=keep, duplicate_id=anna.pk, user=officer)

    assert not Member.objects.filter(pk=anna.pk).exists()
    assert naming(anna) == {}
    for (label, name), rows in before.items():
        model = apps.get_model(label)
        moved = model._base_manager.filter(pk__in=rows).values_list(f"{name}_id", flat=True)
        assert set(moved) == {keep.pk}, label
    keep.refresh_from_db()
    assert (keep.user_id, keep.fide_id, keep.national_id, keep.email) == (
        user_pk, fide_id, "AUT-4711", "anna@example.at")
    assert FideFollow.objects.filter(fide_id=keep.fide_id).count() == 1
    assert FideRating.objects.filter(fide_id=keep.fide_id).count() == 1
    last = MemberChange.objects.filter(member=keep).order_by("-pk").first()
    assert last.fields == [{"field": "merged", "old": str(anna.pk), "new": None}]
    assert last.changed_by == officer
    job = Job.objects.get(handler="ratings.jobs.pool_recalculate_run")
    assert (job.state, job.started_by, job.params) == ("done", officer, {"pool_id": one_of_everything_pool()})
    assert len(merged.notes) == 2 and reverse("jobs:detail", args=[job.pk]) in merged.notes[0]


def one_of_everything_pool():
    return PublishedList.objects.get(kind="start").pool_id


def test_merging_again_changes_nothing(officer):
    keep, duplicate = pair(email="karl@example.at")
    member_merge(keep=keep, duplicate_id=duplicate.pk, user=officer)
    changes = MemberChange.objects.count()

    again = member_merge(keep=keep, duplicate_id=duplicate.pk, user=officer)

    assert again.again and MemberChange.objects.count() == changes


def test_only_register_keepers_merge(plain_user):
    keep, duplicate = pair()
    with pytest.raises(MemberRefused):
        member_merge(keep=keep, duplicate_id=duplicate.pk, user=plain_user)
    assert Member.objects.filter(pk=duplicate.pk).exists()


def refusal(keep, duplicate, user, language="de-at") -> str:
    with translation.override(language), pytest.raises(MemberRefused) as error:
        member_merge(keep=keep, duplicate_id=duplicate.pk, user=user)
    assert Member.objects.filter(pk=duplicate.pk).exists()
    return error.value.message


def test_two_who_played_each_other_in_one_round_are_refused(official):
    keep, duplicate = pair()
    game = GameFactory(white=keep, black=duplicate)

    message = refusal(keep, duplicate, official)

    assert message == (f"{duplicate} kann nicht zusammengeführt werden: Sie haben gegeneinander gespielt: "
                       "niemand spielt gegen sich selbst. Beide spielen in Runde 1 von "
                       f"„{game.round.tournament.name}“.")
    assert Member.objects.get(pk=keep.pk).changes.count() == 0


def test_two_fide_ids_and_two_logins_are_refused_in_english(official, plain_user, staff_user):
    keep, duplicate = pair(user=plain_user)
    Member.objects.filter(pk=duplicate.pk).update(fide_id=1601001)
    Member.objects.filter(pk=keep.pk).update(fide_id=1601002, user=staff_user)

    message = refusal(keep, duplicate, official, "en")

    assert message == (f"{duplicate} cannot be merged: They have two different FIDE IDs (1601002 and "
                       "1601001): two people, not a duplicate. Both members have a login; unlink one on the "
                       "Rollen page first.")


def test_ratings_are_merged_by_a_rating_officer_only(rated_club, official):  # noqa: F811
    anna = rated_club["anna"]
    anna.birth_date = datetime.date(2010, 4, 2)
    anna.save()
    keep = twin_of(anna)

    message = refusal(keep, anna, official)

    assert message.endswith("Er hat Wertungen: nur ein Wertungsreferent führt ihn zusammen, da seine Pools "
                            "neu berechnet werden.")


def test_two_on_one_published_list_are_refused(rated_club, officer):  # noqa: F811
    anna = rated_club["anna"]
    anna.birth_date = datetime.date(2010, 4, 2)
    anna.save()
    keep = twin_of(anna)
    ListEntry.objects.create(list=rated_club["list"], member=keep, rank=9, rating=1500, games_count=3)

    message = refusal(keep, anna, officer)

    assert f"Beide stehen auf der veröffentlichten Liste {rated_club['list']}" in message


# --- ratings after a merge equal the ratings as if his games had been entered under him ------------

def _scenario(variant: str):
    """Karl (rated 1800) plays Olga; his duplicate (a newcomer record) plays Otto and Olga. In the
    variant "from the start" all three games are entered under Karl."""
    pool = make_pool(name="Standard", start=datetime.date(2026, 1, 1))
    keep = MemberFactory(last_name="Weber", first_name="Karl", birth_date=BORN, birth_year=None)
    olga = MemberFactory(last_name="Olga", first_name="O", birth_year=1970)
    otto = MemberFactory(last_name="Otto", first_name="O", birth_year=1975)
    publish_start_list(pool, {keep: (1800, 30), olga: (1700, 20), otto: (1900, 40)})
    duplicate = keep if variant == "from the start" else MemberFactory(
        last_name="Weber", first_name="Karl", birth_date=BORN, birth_year=None)
    spring = TournamentFactory(name="Frühjahr", start_date=datetime.date(2026, 3, 2))
    summer = TournamentFactory(name="Sommer", start_date=datetime.date(2026, 5, 4))
    games = ((RoundFactory(tournament=spring, number=1), keep, olga, Result.WHITE_WINS),
             (RoundFactory(tournament=spring, number=2), duplicate, otto, Result.DRAW),
             (RoundFactory(tournament=summer, number=1), olga, duplicate, Result.WHITE_WINS))
    for rnd, white, black, result in games:
        game = GameFactory(round=rnd, board=1, white=white, black=black, result=Result.NOT_PLAYED)
        game_record_result(game=game, result=result)
    return pool, keep, duplicate


def _ratings(pool) -> dict:
    members = {m.member.last_name: (m.rating, m.games_count, m.live_rating, m.live_change, m.live_games,
                                    m.pending_games)
               for m in PoolMember.objects.filter(pool=pool).select_related("member")}
    records = sorted((r.member.last_name, r.opponent.last_name, r.played_on.isoformat(), r.score, r.pending,
                      r.own_rating, r.opponent_rating, r.expected, r.factor, r.change)
                     for r in RatingRecord.objects.filter(pool=pool).select_related("member", "opponent"))
    return {"members": members, "records": records}


# Karl's three games as one rated player's, computed with Karl's games entered under him from the start.
RATINGS = {
    "members": {"Olga": (1700.0, 20, 1708.0, 8.0, 2, 0),
                "Otto": (1900.0, 40, 1897.0, -3.0, 1, 0),
                "Weber": (1800.0, 30, 1796.0, -4.0, 3, 0)},
    "records": [("Olga", "Weber", "2026-03-02", 0.0, False, 1700.0, 1800.0, 0.3625785, 28.9, -10.47851865),
                ("Olga", "Weber", "2026-05-04", 1.0, False, 1700.0, 1800.0, 0.3625785, 28.9, 18.421481349999997),  # noqa: E501
                ("Otto", "Weber", "2026-03-03", 0.5, False, 1900.0, 1800.0, 0.6374215, 21.25, -2.9202068749999994),  # noqa: E501
                ("Weber", "Olga", "2026-03-02", 1.0, False, 1800.0, 1700.0, 0.6374215, 25.6, 9.2820096),
                ("Weber", "Olga", "2026-05-04", 0.0, False, 1800.0, 1700.0, 0.6374215, 25.6, -16.3179904),
                ("Weber", "Otto", "2026-03-03", 0.5, False, 1800.0, 1900.0, 0.3625785, 25.6, 3.5179903999999995)],  # noqa: E501
}


@pytest.mark.parametrize("variant", ["merged", "from the start"])
def test_ratings_after_merging_equal_the_games_entered_under_him(variant, officer):
    pool, keep, duplicate = _scenario(variant)
    if variant == "merged":
        assert _ratings(pool) != RATINGS  # his duplicate's games waited as a newcomer's
        member_merge(keep=keep, duplicate_id=duplicate.pk, user=officer)

    assert _ratings(pool) == RATINGS


def test_published_lists_stay_as_published(officer):
    pool, keep, duplicate = _scenario("merged")
    plist = period_close(pool=pool)
    published = list(ListEntry.objects.filter(list=plist).order_by("rank").values_list(
        "member__last_name", "rating", "games_count"))

    merged = member_merge(keep=keep, duplicate_id=duplicate.pk, user=officer)

    assert list(ListEntry.objects.filter(list=plist).order_by("rank").values_list(
        "member__last_name", "rating", "games_count")) == published
    assert merged.notes[1] == (
        "Veröffentlichte Listen bleiben wie veröffentlicht: die Listen seit 01.01.2026–30.06.2026 wurden "
        "mit den beiden Datensätzen getrennt berechnet. Wird der zuletzt geschlossene Zeitraum auf der "
        "Referentenseite wieder geöffnet und erneut geschlossen, erscheint seine Liste neu mit seinen "
        "Partien.")


def test_the_merge_page_lists_what_moves_and_then_merges(client, officer, rated_club):  # noqa: F811
    anna = rated_club["anna"]
    anna.birth_date = datetime.date(2010, 4, 2)
    anna.save()
    keep = twin_of(anna)
    client.force_login(officer)
    speak(client, "de-at")
    url = reverse("clubs:member_merge", args=[keep.pk])

    page = client.get(url, {"duplicate": anna.pk}).content.decode()

    assert "Partien: 2" in page and "Jetzt zusammenführen" in page
    response = client.post(url, {"duplicate": anna.pk}, follow=True)
    assert not Member.objects.filter(pk=anna.pk).exists()
    assert "werden im Hintergrund ab dem Zeitraum" in response.content.decode()


def test_two_players_of_one_tournament_are_refused(official):
    keep, duplicate = pair()
    tournament = TournamentFactory(name="Stadtmeisterschaft")
    TournamentPlayer.objects.create(tournament=tournament, member=keep, start_rank=1)
    TournamentPlayer.objects.create(tournament=tournament, member=duplicate, start_rank=2)

    message = refusal(keep, duplicate, official)

    assert message == (f"{duplicate} kann nicht zusammengeführt werden: Beide sind Spieler von "
                       "„Stadtmeisterschaft“.")


def test_two_national_ids_are_refused(official):
    keep, duplicate = pair()
    Member.objects.filter(pk=keep.pk).update(national_id="1001")
    Member.objects.filter(pk=duplicate.pk).update(national_id="1002")

    message = refusal(keep, duplicate, official)

    assert message == (f"{duplicate} kann nicht zusammengeführt werden: Sie haben zwei verschiedene "
                       "ÖSB-Nummern (1001 und 1002): zwei Personen, kein Duplikat.")
