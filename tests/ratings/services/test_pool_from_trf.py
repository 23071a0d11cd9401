"""A pool started from a TRF file (karl-mala-2005 as starting list and as tournament): closing the
period publishes exactly what the engine computes."""

import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command

from clubrating.interchange.trf_import import tournament_import_trf
from ratings.models import ListEntry, PublishedList
from ratings.services import period_close, ratings_import_list, tournament_ratings_update
from tests.paths import TRF_DIR
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

TRF = TRF_DIR / "karl-mala-2005.trf"


def rate_trf_json() -> dict:
    out = StringIO()
    call_command("rate_trf", str(TRF), "--json", stdout=out)
    return {p["start_rank"]: p for p in json.loads(out.getvalue())["players"]}


def test_closing_publishes_exactly_the_engine_ratings_and_start_values():
    pool = make_pool(name="Klassisch", start=datetime.date(2005, 7, 1))
    report = tournament_import_trf(text=TRF)
    tournament_ratings_update(tournament=report.tournament)
    imported = ratings_import_list(pool=pool, path=TRF)
    assert imported.unknown == []

    plist = period_close(pool=pool)

    expected = rate_trf_json()
    member_of = {rank: m.pk for rank, m in report.matched + report.created}
    published = {e.member_id: e for e in ListEntry.objects.filter(list=plist)}
    checked = newcomers = 0
    values = []
    for rank, member_id in member_of.items():
        player, entry = expected[rank], published.get(member_id)
        value = player["new_rating"] if player["rating"] else player["start_value"]
        if value is None:
            assert entry is None, player["name"]
            continue
        assert (entry.rating, entry.start_value) == (value, not player["rating"]), player["name"]
        checked += 1
        values.append(value)
        newcomers += entry.start_value
    assert checked == len(published) and newcomers > 0
    assert len(published) >= 146
    assert PublishedList.objects.filter(pool=pool).count() == 2

    out = StringIO()
    call_command("rating_list", "--pool", "Klassisch", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert len(rows) == len(published)
    assert sorted(r["rating"] for r in rows) == sorted(values)
    assert sum(r["change"] is None for r in rows) == newcomers  # start values have no change
    best = max(published.values(), key=lambda e: e.rating)
    assert rows[0]["rating"] == best.rating and rows[0]["rank"] == 1
    assert set(rows[0]) >= {"rank", "name", "rating", "change", "games", "markers", "class"}
