"""Issue 4's acceptance: karl-mala-2005 as starting list and as tournament, then close the period."""

import datetime
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from clubrating.interchange.trf_import import tournament_import_trf
from ratings.models import ListEntry, PublishedList
from ratings.rules.period import GameIn, PlayerIn, evaluate_period
from ratings.rules.presets import get_rules
from ratings.services import period_close, ratings_import_list, tournament_ratings_update
from ratings.trf.reader import read_trf
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

TRF = Path("/work/shared/data/trf/karl-mala-2005.trf")


def engine_result():
    """What rate_trf computes: the file's ratings as published, every played game once."""
    trf = read_trf(TRF)
    players = [PlayerIn(p.start_rank, p.rating, 0, p.birth_year) for p in trf.players if not p.is_dummy]
    games = {}
    for p in trf.players:
        for g in p.results:
            if g.is_played and g.colour == "w" and not p.is_dummy:
                games[(g.round, p.start_rank)] = GameIn(
                    (g.round, p.start_rank), p.start_rank, g.opponent, g.points
                )
    return trf, evaluate_period(get_rules("oesb-classic"), players, list(games.values()), year=2005)


def test_closing_publishes_exactly_the_engine_ratings_and_start_values():
    pool = make_pool(name="Klassisch", start=datetime.date(2005, 7, 1))
    report = tournament_import_trf(text=TRF)
    tournament_ratings_update(tournament=report.tournament)
    imported = ratings_import_list(pool=pool, path=TRF)
    assert imported.unknown == []

    plist = period_close(pool=pool)

    trf, expected = engine_result()
    member_of = {rank: m.pk for rank, m in report.matched + report.created}
    published = {e.member_id: e for e in ListEntry.objects.filter(list=plist)}
    checked = 0
    for p in trf.players:
        if p.is_dummy:
            continue
        pr = expected.players[p.start_rank]
        entry = published.get(member_of[p.start_rank])
        if pr.new_rating is None:
            assert entry is None, p.name
            continue
        assert entry.rating == pr.new_rating, p.name
        assert entry.start_value == (p.rating is None), p.name
        checked += 1
    assert checked == len(published) > 146
    assert PublishedList.objects.filter(pool=pool).count() == 2

    out = StringIO()
    call_command("rating_list", "--pool", "Klassisch", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert len(rows) == len(published)
    best = max(published.values(), key=lambda e: e.rating)
    assert rows[0]["rating"] == best.rating and rows[0]["rank"] == 1
    assert set(rows[0]) >= {"rank", "name", "rating", "change", "games", "markers", "class"}
