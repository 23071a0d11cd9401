"""A club season end to end, through the services and the pages (Django test client).

Pool "Standard" (oesb-classic: half-years) from 1.1.2026 with eight rated players and two
newcomers. A round robin of five (five rounds, every other week from 1.5.2026) and a Swiss of
eight (five rounds, weekly from 5.6.2026) are created, registered, paired and scored in the app.
The Swiss's last round (3.7.) lies in the second half-year. The first half-year is closed while a
round-robin game of 26.6. has no result and the Swiss is still running; the later rounds are
entered; the period is reopened with a reason, the missing result is entered and one result
corrected, a round is moved; closing again republishes. The newcomers' games stay pending across
both periods. After every step the stored records and live values equal a full recalculation.
"""

import csv
import datetime
import io
import json

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, Round, Tournament
from ratings.models import ListEntry, PeriodState, PoolMember, PublishedList, RatingPeriod, RatingRecord
from ratings.selectors import member_rating_blocks, period_close_preview
from ratings.services import RatingsError, game_record_result, pool_recalculate
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.django_db

D = datetime.date
# Results in board order, repeated: white wins, draw, black wins, white wins, ...
CYCLE = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_WINS, Result.DRAW]


def recalculated(pool):
    with transaction.atomic():
        pool_recalculate(pool=pool)
        after = snapshot(pool)
        transaction.set_rollback(True)
    return after


def consistent(pool):
    assert snapshot(pool) == recalculated(pool)


@pytest.fixture
def staff(client):
    user = User.objects.create_user("leitung")
    for name in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    client.force_login(user)
    return client


@pytest.fixture
def club():
    pool = make_pool(name="Standard", start=D(2026, 1, 1))
    names = ["Adler", "Bauer", "Czech", "Dorn", "Eder", "Fuchs", "Gruber", "Huber"]
    rated = [MemberFactory(last_name=name, first_name="Vorname") for name in names]
    newcomers = [MemberFactory(last_name="Neu", first_name=first) for first in ("Ida", "Jan")]
    publish_start_list(pool, {m: (2000 - 60 * i, 10 + i) for i, m in enumerate(rated)})
    return pool, rated, newcomers


def create(staff, **data) -> Tournament:
    response = staff.post(reverse("tournaments:create"), {"category": "standard", "rated": "on", **data})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Tournament.objects.get(name=data["name"])


def register(staff, tournament, members):
    response = staff.post(reverse("tournaments:register", args=[tournament.pk]),
                          {"members": [m.pk for m in members]})
    assert response.status_code == 302


def pair(staff, tournament, date=None) -> Round:
    data = {"date": date.strftime("%d.%m.%Y")} if date else {}
    response = staff.post(reverse("tournaments:pair", args=[tournament.pk]), data)
    assert response.status_code == 302
    return tournament.rounds.order_by("-number").first()


def enter(staff, rnd, skip=()):
    """Type the round's results on the result page (htmx posts, as the keyboard does)."""
    for game in rnd.games.order_by("board"):
        if game.board in skip:
            continue
        url = reverse("tournaments:board_result", args=[rnd.tournament_id, rnd.number, game.pk])
        result = CYCLE[(game.board + rnd.number) % len(CYCLE)]
        response = staff.post(url, {"result": result, "seen": game.result}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.result, response.content.decode()


def live(pool, member):
    return PoolMember.objects.get(pool=pool, member=member)


def test_a_season(staff, club):
    pool, rated, newcomers = club
    first = RatingPeriod.objects.get(pool=pool)

    # --- a round robin of five: its rounds follow from the players, its tie-breaks from FIDE's set
    rr = create(staff, name="Klubmeisterschaft", kind="round_robin", start_date="2026-05-01",
                round_interval_days="14", tiebreak_preset="auto", tiebreaks="")
    register(staff, rr, rated[:4] + newcomers[:1])
    rr.refresh_from_db()
    assert (rr.rounds_count, rr.tiebreaks) == (5, "DE,WIN,SB,KS")
    pair(staff, rr)  # the whole schedule at once, dated by the tournament's schedule
    for number in range(1, 6):
        rnd = rr.rounds.get(number=number)
        assert rnd.date == D(2026, 5, 1) + datetime.timedelta(days=14 * (number - 1))
        enter(staff, rnd, skip=(2,) if number == 5 else ())
        consistent(pool)
    assert "5 / 5" in staff.get(reverse("tournaments:detail", args=[rr.pk])).content.decode()

    # --- a Swiss of eight, weekly from 5.6.; round 1 is dated by hand on the pairing page
    swiss = create(staff, name="Sommeropen", kind="swiss", start_date="2026-06-05", end_date="2026-07-31",
                   round_interval_days="7", rounds_count="5", tiebreak_preset="swiss-fide", tiebreaks="")
    assert swiss.tiebreaks == "BH/C1,BH,SB,DE,WIN"
    register(staff, swiss, rated[2:] + newcomers)
    for number in range(1, 5):
        rnd = pair(staff, swiss, D(2026, 6, 5) if number == 1 else None)
        assert rnd.date == D(2026, 6, 5) + datetime.timedelta(days=7 * (number - 1))
        enter(staff, rnd)
        consistent(pool)
    pairs = [frozenset(p) for p in Game.objects.filter(round__tournament=swiss).values_list("white", "black")]
    assert len(pairs) == len(set(pairs)) == 16
    last = pair(staff, swiss)
    assert last.date == D(2026, 7, 3)  # the second half-year

    # --- closing mid-tournament: the preview says what stays open
    preview = period_close_preview(period=first)
    assert [(t.tournament.name, t.open_games, t.rounds) for t in preview.tournaments] == [
        ("Klubmeisterschaft", 1, [5])]
    # Ida has played enough for a start value; Jan's four Swiss games wait (carried to the next
    # period), and so do his opponents' sides of them (ratings.md §1.7).
    pending = [(p.member.last_name, p.member.first_name[:1], p.games, p.newcomer) for p in preview.pending]
    assert pending == PENDING
    html = staff.get(reverse("ratings:period_close", args=[first.pk])).content.decode()
    assert "1 ausgeloste Partie in dieser Periode hat kein Ergebnis" in html
    assert reverse("tournaments:results", args=[rr.pk, 5]) in html
    assert staff.post(reverse("ratings:period_close", args=[first.pk])).status_code == 302
    first.refresh_from_db()
    assert first.state == PeriodState.CLOSED
    plist = PublishedList.objects.get(period=first, superseded=False)
    consistent(pool)

    # The open game of 26.6. is locked; the Swiss's round of 3.7. is not blocked by the closing.
    open_game = rr.rounds.get(number=5).games.get(board=2)
    with pytest.raises(RatingsError, match="abgeschlossenen Wertungsperiode"):
        game_record_result(game=open_game, result=Result.DRAW)
    enter(staff, last)
    consistent(pool)
    second = RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)
    assert set(RatingRecord.objects.filter(game__round=last).values_list("period", flat=True)) == {second.pk}
    # Moving a round of the closed half-year is refused; nothing changes.
    response = staff.post(reverse("tournaments:round_date", args=[swiss.pk, 4]), {"date": "02.07.2026"},
                          follow=True)
    assert "abgeschlossenen Wertungsperiode" in response.content.decode()
    assert swiss.rounds.get(number=4).date == D(2026, 6, 26)
    # Moving the open round within the open period: its records follow.
    staff.post(reverse("tournaments:round_date", args=[swiss.pk, 5]), {"date": "10.07.2026"})
    assert set(RatingRecord.objects.filter(game__round=last).values_list("played_on", flat=True)) == {
        D(2026, 7, 10)}
    consistent(pool)

    # --- newcomers pending across both periods
    jan = live(pool, newcomers[1])
    assert (jan.rating, jan.live_rating, jan.pending_games) == (None, None, 5)

    # --- reopening with a reason: the list is withdrawn everywhere it is shown
    reason = {"reason": "Ergebnis nachtragen"}
    response = staff.post(reverse("ratings:period_reopen", args=[first.pk]), reason)
    assert response.status_code == 302
    assert first.reopenings.get().reason == "Ergebnis nachtragen"
    consistent(pool)
    index = staff.get(reverse("ratings:pool_list")).content.decode()
    assert "zurückgezogen (Periode wieder geöffnet)" in index
    page = staff.get(reverse("ratings:list", args=[plist.pk])).content.decode()
    assert "Zurückgezogen: Die Periode wurde wieder geöffnet" in page
    rows = list(csv.reader(io.StringIO(
        staff.get(reverse("ratings:list", args=[plist.pk]) + "?_export=csv").getvalue().decode("utf-8-sig")),
        delimiter=";"))
    assert rows[0][0] == "Status" and {r[0] for r in rows[1:]} == {
        "Zurückgezogen: Die Periode wurde wieder geöffnet; diese Liste ist nicht gültig."}
    out = io.StringIO()
    call_command("rating_list", pool="Standard", json=True, stdout=out)
    assert [r["rating"] for r in json.loads(out.getvalue())][:2] == [2000, 1940]  # the starting list
    # The member page's history (and its chart) leaves the withdrawn list out.
    assert staff.get(reverse("clubs:member_detail", args=[rated[0].pk])).status_code == 200
    (block,) = member_rating_blocks(rated[0])
    assert [(e.list.valid_from, e.rating) for e in block.history] == [(D(2026, 1, 1), 2000.0)]

    # --- the correction: the missing result, a corrected one, a round moved across the period end
    game_record_result(game=open_game, result=Result.DRAW)
    corrected = rr.rounds.get(number=1).games.get(board=1)
    response = staff.post(reverse("tournaments:game_correct", args=[corrected.pk]),
                          {"result": Result.BLACK_WINS, "seen": corrected.result, "rated_result": "same"})
    assert response.status_code == 302
    consistent(pool)
    staff.post(reverse("tournaments:round_date", args=[swiss.pk, 4]), {"date": "01.07.2026"})
    assert swiss.rounds.get(number=4).date == D(2026, 7, 1)
    # After the reopened period: in the next one, which waits until the reopened one closes.
    waiting = RatingPeriod.objects.get(pool=pool, state=PeriodState.WAITING)
    assert (waiting.start, waiting.end) == (D(2026, 7, 1), D(2026, 12, 31))
    assert set(RatingRecord.objects.filter(game__round__tournament=swiss, game__round__number=4)
               .values_list("period", "change")) == {(waiting.pk, None)}
    consistent(pool)
    assert staff.post(reverse("ratings:period_close", args=[first.pk])).status_code == 302
    consistent(pool)
    plist.refresh_from_db()
    assert plist.superseded
    republished = PublishedList.objects.get(period=first, superseded=False)
    second = RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)
    assert second == waiting
    assert set(RatingRecord.objects.filter(game__round__tournament=swiss, game__round__number__gte=4)
               .values_list("period", flat=True)) == {second.pk}
    assert "gültig" in staff.get(reverse("ratings:pool_list")).content.decode()

    # Exact values: the republished list and the live list of the second half-year.
    entries = {e.member.last_name: (e.rating, e.change, e.period_games)
               for e in ListEntry.objects.filter(list=republished).select_related("member")}
    assert entries == EXPECTED_LIST
    live_values = {
        pm.member.last_name + pm.member.first_name[:1]: (pm.live_rating, pm.live_change, pm.pending_games)
        for pm in PoolMember.objects.filter(pool=pool).select_related("member")}
    assert live_values == EXPECTED_LIVE


PENDING = [
    ("Fuchs", "V", 1, False), ("Gruber", "V", 1, False), ("Huber", "V", 1, False), ("Neu", "J", 4, True)]
# last name: (rating, change, games in the period); Ida Neu's first rating has no change.
EXPECTED_LIST = {
    "Adler": (1996.0, -4.0, 4), "Bauer": (1923.0, -17.0, 4), "Czech": (1856.0, -24.0, 7),
    "Neu": (1825.0, None, 7), "Dorn": (1812.0, -8.0, 7), "Eder": (1736.0, -24.0, 3),
    "Fuchs": (1724.0, 24.0, 2), "Gruber": (1678.0, 38.0, 2), "Huber": (1619.0, 39.0, 3),
}
# last name + initial: (live rating, live change, pending games) in the second half-year; Jan Neu
# still has no rating: his five games (four carried from the first half-year) wait.
EXPECTED_LIVE = {
    "AdlerV": (1996.0, None, 0), "BauerV": (1923.0, None, 0), "CzechV": (1840.0, -16.0, 1),
    "NeuI": (1829.0, 4.0, 0), "DornV": (1792.0, -20.0, 0), "EderV": (1764.0, 28.0, 0),
    "FuchsV": (1717.0, -7.0, 1), "GruberV": (1704.0, 26.0, 1), "HuberV": (1608.0, -11.0, 1),
    "NeuJ": (None, None, 5),
}
