"""A period closes from its last day on; before that only early, with a reason, and never before
it starts (docs/rules.md §4.3). Closing early ends the period on the day it is closed: the games
dated after it belong to the next period, which a running tournament keeps using.

Pool "Standard" (oesb-classic, half-years) from 1.1.2026 with a starting list; "today" is
25.11.2026, inside the period 1.7.–31.12.2026. The autumn Swiss has round 5 on 20.11. (Berger
1830 draws Huber 1980: +5 for Berger, the seed example of §1.3), round 6 on 2.12. (Moser 1950
loses to Wagner 1820: −14 for Moser, the second seed example) and round 7 on 16.12., paired but
not yet played.
"""

import datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodState, PublishedList, RatingPeriod, RatingRecord
from ratings.selectors import period_close_preview, published_rows
from ratings.services import RatingsError, game_record_result, period_close, period_reopen
from ratings.services.period_checks import CloseCheck, period_close_check, period_reopen_refusal
from ratings.services.pools import open_period
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, set_today

pytestmark = pytest.mark.django_db

D = datetime.date
TODAY = D(2026, 11, 25)
NOT_ENDED = ("The period 2026-07-01 – 2026-12-31 ends on 2026-12-31. Closing it before its last day "
             "needs “close early” and a reason.")
NOT_ENDED_DE = ("Die Periode 01.07.2026 – 31.12.2026 endet am 31.12.2026. Vor ihrem letzten Tag kann "
                "sie nur mit „Vorzeitig abschließen“ und einer Begründung abgeschlossen werden.")


@pytest.fixture
def season(monkeypatch):
    set_today(monkeypatch, D(2026, 7, 2))
    pool = make_pool(start=D(2026, 1, 1))
    names = ("Berger", "Huber", "Moser", "Wagner")
    berger, huber, moser, wagner = (MemberFactory(last_name=n) for n in names)
    publish_start_list(pool, {berger: 1830, huber: 1980, moser: 1950, wagner: 1820})
    period_close(pool=pool)  # 1.1.–30.6.2026, on 2.7.: not early
    set_today(monkeypatch, TODAY)
    swiss = TournamentFactory(name="Herbstopen", start_date=D(2026, 9, 4), end_date=D(2026, 12, 18))
    five = RoundFactory(tournament=swiss, number=5, date=D(2026, 11, 20))
    six = RoundFactory(tournament=swiss, number=6, date=D(2026, 12, 2))
    seven = RoundFactory(tournament=swiss, number=7, date=D(2026, 12, 16))
    game_record_result(game=GameFactory(round=five, board=1, white=berger, black=huber,
                                        result=Result.NOT_PLAYED), result=Result.DRAW)
    # A result of a round dated after today (entered ahead of time): it is rated in the period.
    late = GameFactory(round=six, board=1, white=moser, black=wagner, result=Result.NOT_PLAYED)
    game_record_result(game=late, result=Result.BLACK_WINS)
    last = GameFactory(round=seven, board=1, white=berger, black=moser, result=Result.NOT_PLAYED)
    return {"pool": pool, "berger": berger, "huber": huber, "moser": moser, "wagner": wagner,
            "swiss": swiss, "late": late, "last": last}


def test_the_decisions_exactly():
    period = RatingPeriod(start=D(2026, 7, 1), end=D(2026, 12, 31), state=PeriodState.OPEN)
    with translation.override("en"):
        assert period_close_check(period, today=D(2026, 6, 30)) == CloseCheck(
            "The period 2026-07-01 – 2026-12-31 has not started yet; it cannot be closed.")
        assert period_close_check(period, today=D(2026, 7, 1)) == CloseCheck(early=True)
        assert period_close_check(period, today=D(2026, 12, 30)) == CloseCheck(early=True)
        assert period_close_check(period, today=D(2026, 12, 31)) == CloseCheck()
        assert period_close_check(period, today=D(2027, 3, 1)) == CloseCheck()
        period.state = PeriodState.WAITING
        assert period_close_check(period, today=D(2027, 3, 1)).refusal == (
            "A waiting period cannot be closed: it opens when the period before it is closed again.")
        period.state = PeriodState.CLOSED
        assert period_close_check(period, today=D(2027, 3, 1)).refusal == "This period is already closed."
        assert period_reopen_refusal(period, later_closed=False, later_list=False) == ""
        latest_only = ("Only the latest closed period can be reopened, and only while no later list has "
                       "been published.")
        assert period_reopen_refusal(period, later_closed=True, later_list=False) == latest_only
        assert period_reopen_refusal(period, later_closed=False, later_list=True) == latest_only
        period.state = PeriodState.OPEN
        assert period_reopen_refusal(period, later_closed=False, later_list=False) == (
            "Only a closed period can be reopened.")
    with translation.override("de-at"):
        assert period_close_check(period, today=D(2026, 6, 30)).refusal == (
            "Die Periode 01.07.2026 – 31.12.2026 hat noch nicht begonnen; sie kann nicht abgeschlossen "
            "werden.")


def test_closing_before_the_last_day_is_refused_unless_early_with_a_reason(season):
    pool = season["pool"]
    with translation.override("en"):
        with pytest.raises(RatingsError) as refused:
            period_close(pool=pool)
        assert str(refused.value) == NOT_ENDED
        with pytest.raises(RatingsError) as refused:
            period_close(pool=pool, early=True, reason="   ")
        assert str(refused.value) == "Closing a period early needs a reason."
    with translation.override("de-at"), pytest.raises(RatingsError) as refused:
        period_close(pool=pool, reason="Saisonende")  # a reason alone does not close early
    assert str(refused.value) == NOT_ENDED_DE
    # Nothing changed.
    assert (open_period(pool).start, open_period(pool).end) == (D(2026, 7, 1), D(2026, 12, 31))
    assert PublishedList.objects.filter(pool=pool).count() == 2


def test_closing_early_ends_the_period_today_and_the_running_swiss_goes_on(season):
    pool, berger, moser = season["pool"], season["berger"], season["moser"]
    preview = period_close_preview(period=open_period(pool), end=TODAY)
    assert [(m.tournament.name, [(r.number, r.date, r.games, r.results) for r in m.rounds])
            for m in preview.moving] == [
        ("Herbstopen", [(6, D(2026, 12, 2), 1, 1), (7, D(2026, 12, 16), 1, 0)])]

    plist = period_close(pool=pool, early=True, reason="  Vereinswechsel zum Jahresende  ")
    assert (plist.valid_from, plist.early_reason) == (D(2026, 11, 26), "Vereinswechsel zum Jahresende")
    closed = plist.period
    assert (closed.start, closed.end, closed.state) == (D(2026, 7, 1), TODAY, PeriodState.CLOSED)
    following = open_period(pool)
    assert (following.start, following.end) == (D(2026, 11, 26), D(2026, 12, 31))
    # The list holds the games up to today: Berger's draw (+5); Moser's loss of 2.12. is not on it.
    entries = {e.member.last_name: (e.rating, e.change, e.period_games)
               for e in ListEntry.objects.filter(list=plist).select_related("member")}
    assert entries["Berger"] == (1835, 5, 1)
    assert entries["Moser"] == (1950, 0, 0)
    # Round 6's game belongs to the next period, rated against the new list: −14 for Moser.
    late = RatingRecord.objects.get(game=season["late"], member=moser)
    assert (late.period, round(late.change)) == (following, -14)
    # Round 7 (16.12.) can still be entered: the Swiss is not locked out.
    game_record_result(game=season["last"], result=Result.WHITE_WINS)
    assert RatingRecord.objects.get(game=season["last"], member=berger).period == following


def test_a_period_that_has_not_started_cannot_be_closed_even_early(season):
    period_close(pool=season["pool"], early=True, reason="Saisonende")
    following = open_period(season["pool"])  # starts tomorrow
    with translation.override("en"), pytest.raises(RatingsError) as refused:
        period_close(pool=season["pool"], early=True, reason="noch einmal")
    assert str(refused.value) == (
        "The period 2026-11-26 – 2026-12-31 has not started yet; it cannot be closed.")
    assert open_period(season["pool"]) == following


def test_reopening_an_early_closed_period_and_closing_it_again(season):
    plist = period_close(pool=season["pool"], early=True, reason="Saisonende")
    period_reopen(period=plist.period, reason="Ergebnis korrigiert")
    # Its end stays: it has ended, so closing it again is no longer early.
    again = period_close(pool=season["pool"])
    assert (again.valid_from, again.early_reason, again.period.end) == (D(2026, 11, 26), "", TODAY)
    assert open_period(season["pool"]).start == D(2026, 11, 26)


def test_close_period_command_refuses_unless_early_with_a_reason(season):
    with translation.override("en"):
        with pytest.raises(CommandError) as refused:
            call_command("close_period", "--pool", "Standard")
        assert str(refused.value) == NOT_ENDED
        with pytest.raises(CommandError) as refused:
            call_command("close_period", "--pool", "Standard", "--early")
        assert str(refused.value) == "Closing a period early needs a reason."
    with translation.override("de-at"), pytest.raises(CommandError) as refused:
        call_command("close_period", "--pool", "Standard", "--reason", "Saisonende")
    assert str(refused.value) == NOT_ENDED_DE
    assert PublishedList.objects.filter(pool=season["pool"]).count() == 2
    call_command("close_period", "--pool", "Standard", "--early", "--reason", "Saisonende")
    plist = PublishedList.objects.filter(pool=season["pool"]).latest("pk")
    assert (plist.valid_from, plist.early_reason) == (D(2026, 11, 26), "Saisonende")
    # The next period starts tomorrow: not even --early closes it.
    with translation.override("de-at"), pytest.raises(CommandError) as refused:
        call_command("close_period", "--pool", "Standard", "--early", "--reason", "noch einmal")
    assert str(refused.value) == (
        "Die Periode 26.11.2026 – 31.12.2026 hat noch nicht begonnen; sie kann nicht abgeschlossen werden.")


# --- the close page's preview: what closing publishes, read without writing -------------------------


@pytest.mark.parametrize("rules", ["oesb-classic", "dsb-1990", "fide-2024", "egf-2021"])
def test_the_preview_is_what_closing_publishes_in_every_family(rules, monkeypatch):
    from ratings.close_preview import close_preview_rows
    from ratings.lists.table import live_decorate

    set_today(monkeypatch, D(2026, 12, 31))
    pool = make_pool(rules=rules, start=D(2026, 1, 1))
    rated = [MemberFactory(last_name=f"Spieler {i}") for i in range(6)]
    newcomer = MemberFactory(last_name="Neu")
    publish_start_list(pool, {m: (1500 + 97 * i, 3 * i) for i, m in enumerate(rated)})
    period = open_period(pool)
    tournament = TournamentFactory(start_date=period.start)
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for number in range(1, 8):
        day = period.start + datetime.timedelta(days=number)
        rnd = RoundFactory(tournament=tournament, number=number, date=day)
        players = [newcomer, *rated]
        for board in range(3):
            white, black = players[(board + number) % 7], players[(6 - board + number) % 7]
            game = GameFactory(round=rnd, board=board + 1, white=white, black=black, result=Result.NOT_PLAYED)
            game_record_result(game=game, result=results[(board + number) % 3])
    rows = close_preview_rows(period=period)
    # Read in SQL as the page reads it (classes per row shown), but where the engine blends.
    assert isinstance(rows, list) == (rules == "dsb-1990")
    if not isinstance(rows, list):
        rows = live_decorate(pool, list(rows))
    preview = [(r.rank, r.member.pk, r.list_rating, r.list_change, r.list_games, r.list_period_games,
                r.list_markers, r.list_class) for r in rows]
    plist = period_close(pool=pool)
    published = [(e.rank, e.member_id, e.rating, e.change, e.games_count, e.period_games, e.list_markers,
                  e.class_code) for e in published_rows(plist).order_by("rank")]
    assert preview == published
    assert len(published) >= 6
    # A first rating is marked "N" on the preview as on the published list's rows, before the
    # rule set's own markers (stored as the engine gave them). The newcomer's 6 games give one
    # where a family's first rating needs fewer than 7.
    first = ListEntry.objects.filter(list=plist, start_value=True).order_by("rank")
    assert [(r[1], r[6]) for r in published if r[6].startswith("N")] == [
        (e.member_id, "N" + e.markers) for e in first]
    assert [e.member_id for e in first] == ([] if rules == "oesb-classic" else [newcomer.pk])
