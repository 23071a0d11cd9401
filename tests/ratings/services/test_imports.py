import datetime

import pytest

from ratings.models import ListEntry, ListKind, PoolMember
from ratings.services import RatingsError, ratings_import_list
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_csv_starting_list_matches_by_id_or_name_and_birth_date_and_reports_the_rest():
    pool = make_pool()
    by_id = MemberFactory(national_id="12345")
    by_name = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 4))
    MemberFactory(last_name="Maier", first_name="Karl", birth_year=1970)
    MemberFactory(last_name="Maier", first_name="Karl", birth_year=1970)  # ambiguous: not guessed
    text = (
        "id;name;birth_date;rating;games\n"
        "12345;;;1850;40\n"
        ";Huber, Anna;04.05.1990;1620;12\n"
        ";Maier, Karl;1970;1500;3\n"
        ";Unbekannt, Otto;1960;1400;0\n"
    )

    report = ratings_import_list(pool=pool, text=text)

    assert report.imported == 2
    assert report.unknown == [
        "line 4: Maier, Karl (several members match)", "line 5: Unbekannt, Otto (no member matches)",
    ]
    assert report.plist.kind == ListKind.START
    assert sorted(ListEntry.objects.values_list("member_id", "rating", "games_count", "rank")) == sorted(
        [(by_id.pk, 1850, 40, 1), (by_name.pk, 1620, 12, 2)]
    )
    assert PoolMember.objects.get(pool=pool, member=by_id).rating == 1850


def test_unrated_and_repeated_rows_are_listed_with_their_line_and_reason():
    pool = make_pool()
    MemberFactory(national_id="1", last_name="Adler", first_name="Max")
    MemberFactory(national_id="2", last_name="Berger", first_name="Eva")
    text = "id;name;rating\n1;Adler, Max;1500\n2;Berger, Eva;\n1;Adler, Max;1510\n"

    plain = ratings_import_list(pool=pool, text=text).plain()

    assert plain["summary"] == "1 ratings imported, 2 rows skipped."
    assert plain["preview"] == "1 ratings will be imported, 2 rows skipped."
    assert plain["refused"] == [
        "line 3: Berger, Eva (no rating: an unrated player)",
        "line 4: Adler, Max (the same member as line 2)",
    ]


def test_bad_csv_and_second_import_are_refused_and_change_nothing():
    pool = make_pool()
    MemberFactory(national_id="1")
    with pytest.raises(RatingsError, match="columns"):
        ratings_import_list(pool=pool, text="foo,bar\n1,2\n")
    with pytest.raises(RatingsError, match="^Line 2: column “rating” “abc” is not a rating: 0 "
                                           r"\(unrated\) or 100 to 3000.$"):
        ratings_import_list(pool=pool, text="id,rating\n1,abc\n")
    assert not ListEntry.objects.exists()
    ratings_import_list(pool=pool, text="id,rating\n1,1500\n")
    with pytest.raises(RatingsError, match="already has a published list"):
        ratings_import_list(pool=pool, text="id,rating\n1,1600\n")


def test_a_starting_list_that_matches_nobody_is_refused_and_the_pool_stays_new():
    """Importing the ratings before the members would otherwise publish an empty starting list
    and lock the pool; the officer is told the order instead, and can import again later."""
    from ratings.models import PublishedList

    pool = make_pool()
    with pytest.raises(RatingsError) as refused:
        ratings_import_list(pool=pool, text="id,rating\nAT1,1500\nAT2,1600\n")
    assert str(refused.value) == (
        "None of the 2 rows matches a member. Import the members first (CSV, or the "
        "tournament's TRF file), then the starting list."
    )
    assert not PublishedList.objects.filter(pool=pool).exists()
    MemberFactory(national_id="AT2")
    assert ratings_import_list(pool=pool, text="id,rating\nAT1,1500\nAT2,1600\n").imported == 1
