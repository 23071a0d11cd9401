"""Member searches by a part of the name: accents, umlauts and their transcriptions, "ß" and "ss"
and case folded alike (``clubrating.clubs.search``), in the member search, the rating list's name
filter, the registration form and the admin site; on SQLite and on PostgreSQL (with its trigram
index)."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.clubs.search import fold_plain, fold_reduced
from clubrating.clubs.selectors import member_search
from clubrating.tournaments.forms import RegisterPlayersForm
from ratings.lists.faces import list_filters, published_source
from tests.factories import ClubFactory, MemberFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]

NAMES = [("Müller", "Jürgen"), ("Mueller", "Anna"), ("Muller", "Eva"), ("MÜLLER", "Karl"),
         ("Strauß", "Johann"), ("Strauss", "Lena"), ("Berger", "Samuel"), ("Šimić", "Ivan"),
         ("Dvořák", "Zoë"), ("Huber", "Ärne"), ("Maier", "Ötzi")]


@pytest.fixture
def members():
    club = ClubFactory(name="SK Mitte")
    return {last: MemberFactory(last_name=last, first_name=first, club=club) for last, first in NAMES}


def found(query: str) -> list[str]:
    return sorted(m.last_name for m in member_search(query=query))


@pytest.mark.parametrize(("text", "plain", "reduced"), [
    ("Müller", "muller", "muller"), ("Mueller", "mueller", "muller"), ("MÜLLER", "muller", "muller"),
    ("Strauß", "strauss", "strauss"), ("Šimić", "simic", "simic"), ("DVOŘÁK", "dvorak", "dvorak"),
    ("Samuel", "samuel", "samul"), ("Zoë", "zoe", "zo"),
])
def test_folding(text, plain, reduced):
    assert (fold_plain(text), fold_reduced(text)) == (plain, reduced)


def test_the_stored_key_is_folded_by_the_database_as_the_query_is_by_python(members):
    assert Member.objects.get(last_name="Müller").search_name == "muller jurgen muller jurgen"
    assert Member.objects.get(last_name="Mueller").search_name == "mueller anna muller anna"
    assert Member.objects.get(last_name="Strauß").search_name == "strauss johann strauss johann"
    assert Member.objects.get(last_name="Dvořák").search_name == "dvorak zoe dvorak zo"
    for last, first in NAMES:
        member = Member.objects.get(last_name=last)
        both = f"{last} {first}"
        assert member.search_name == f"{fold_plain(both)} {fold_reduced(both)}"


@pytest.mark.parametrize("query", ["Müller", "Mueller", "muller", "MUELLER", "müll"])
def test_mueller_muller_and_mueller_find_each_other(members, query):
    assert found(query) == sorted(["Müller", "Mueller", "Muller", "MÜLLER"])


@pytest.mark.parametrize("query", ["Strauß", "strauss", "STRAUSS", "traus"])
def test_sharp_s_and_ss_find_each_other(members, query):
    assert found(query) == ["Strauss", "Strauß"]


def test_accents_are_folded_in_both_directions(members):
    assert found("simic") == ["Šimić"]
    assert found("Dvorak zoe") == ["Dvořák"]
    assert found("ötzi") == ["Maier"]
    assert found("Oetzi") == ["Maier"]
    assert found("arne") == ["Huber"]


def test_a_part_after_a_transcription_still_finds_the_name(members):
    # "Samuel" and "Mueller" are kept in their plain spellings beside the reduced "samul" and
    # "muller", which have no "el".
    assert found("el") == ["Berger", "Mueller"]
    assert found("amuel") == ["Berger"]


def test_every_word_must_be_found_in_the_names(members):
    assert found("müller jürgen") == ["Müller"]
    assert found("mueller jürgen") == ["Müller"]
    assert found("müller zoë") == []


def test_the_trigram_index_exists_on_postgresql_only(members):
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, Member._meta.db_table)
    assert ("clubs_member_search_name_trgm" in indexes) == (connection.vendor == "postgresql")


def test_the_member_list_searches_folded(client, members):
    ClubFactory(name="Sonstige", is_home=True)
    html = client.get(reverse("clubs:member_list"), {"q": "mueller"}).content.decode()
    assert html.count('class="col-primary"><a href=') == 4
    assert "Müller, Jürgen" in html and "Strauß" not in html


def test_the_rating_list_name_filter_searches_folded(members):
    pool = make_pool()
    publish_start_list(pool, {member: 1500 + i for i, member in enumerate(members.values())})
    source = published_source(pool.lists.get().pk)
    for query, expected in [("muller", sorted(["Müller", "Mueller", "Muller", "MÜLLER"])),
                            ("STRAUSS", ["Strauss", "Strauß"]), ("Šimic", ["Šimić"])]:
        rows = list_filters({"name": query}).filter(source.rows, year=2025)
        assert sorted(rows.values_list("member__last_name", flat=True)) == expected


def test_registering_players_searches_folded(members):
    form = RegisterPlayersForm(tournament=TournamentFactory(), query="straus")
    assert [m.last_name for m in form.fields["members"].queryset] == ["Strauss", "Strauß"]


def test_the_admin_member_search_folds_names_and_still_finds_numbers(client, members):
    client.force_login(User.objects.create_superuser("admin", "a@example.at", "pw-admin-123"))
    Member.objects.filter(last_name="Huber").update(national_id="123456")
    url = reverse("admin:clubs_member_changelist")
    html = client.get(url, {"q": "mueller"}).content.decode()
    assert all(name in html for name in ("Müller", "Mueller", "Muller", "MÜLLER")) and "Strauß" not in html
    html = client.get(url, {"q": "123456"}).content.decode()
    assert "Huber" in html and "Müller" not in html
