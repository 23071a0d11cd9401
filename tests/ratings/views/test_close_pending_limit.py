"""The close page lists the first members whose games stay pending and counts the rest: a
federation's newcomers are thousands."""

import datetime

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from ratings.services.pools import open_period
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, set_today, unplayed_game

pytestmark = pytest.mark.django_db


def test_the_pending_members_beyond_a_page_are_counted(client, officer, monkeypatch):
    monkeypatch.setattr("ratings.views.officer.PER_PAGE", 2)
    pool = make_pool()
    rated = MemberFactory(last_name="Stark")
    publish_start_list(pool, {rated: 1900})
    for day, name in enumerate(["Neu A", "Neu B", "Neu C", "Neu D", "Neu E"], start=1):
        rnd = make_round(start_date=datetime.date(2025, 3, day))
        game = unplayed_game(rnd, rated, MemberFactory(last_name=name))
        game_record_result(game=game, result=Result.DRAW)
    set_today(monkeypatch, datetime.date(2026, 1, 15))
    client.force_login(officer)
    html = client.get(reverse("ratings:period_close", args=[open_period(pool).pk]),
                      HTTP_ACCEPT_LANGUAGE="de-at").content.decode()
    listed = html[html.index('id="close-pending"'):]
    listed = listed[:listed.index("</ul>")]
    assert "Neu A" in listed and "Neu B" in listed and "Neu C" not in listed
    # Three newcomers more, and "Stark", whose games with them wait too.
    assert "… und 4 weitere Spieler" in listed


def test_the_preview_ranks_skip_the_members_closing_leaves_out(client, officer, monkeypatch):
    """ÖSB TUWO § 27 d: closing leaves the inactive out; the preview read in SQL ranks the rows
    that stay (the live rank less the inactive ahead), as the published list does."""
    from ratings.models import ListEntry, PublishedList

    pool = make_pool()
    members = [MemberFactory(last_name=f"Spieler {i}") for i in range(6)]
    publish_start_list(pool, {m: 2000 - 50 * i for i, m in enumerate(members)})
    left_out = {members[1].pk, members[3].pk}
    for module in ("ratings.close_preview", "ratings.services.periods"):
        monkeypatch.setattr(f"{module}.inactive_members", lambda **kwargs: set(left_out))
    set_today(monkeypatch, datetime.date(2026, 1, 15))
    client.force_login(officer)
    url = reverse("ratings:period_close", args=[open_period(pool).pk])
    rows = [row.record for row in client.get(url).context["table"].page.object_list]
    preview = [(r.rank, r.member_id, r.list_rating) for r in rows]
    assert preview == [(1, members[0].pk, 2000), (2, members[2].pk, 1900), (3, members[4].pk, 1800),
                       (4, members[5].pk, 1750)]
    client.post(url)
    plist = PublishedList.objects.filter(pool=pool).latest("pk")
    assert preview == list(ListEntry.objects.filter(list=plist).order_by("rank").values_list(
        "rank", "member_id", "rating"))
