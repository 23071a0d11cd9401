"""The member page's rated games' rows (``clubrating.clubs.member_games``): the cells as the
template wrote them, names escaped, each reason a game waits worded, the opponent as the caller
names him."""

import datetime
from types import SimpleNamespace

from django.utils import translation
from django.utils.html import escape, format_html

from clubrating.clubs.member_games import member_game_rows, member_performance_rows


def record(**changes):
    tournament = SimpleNamespace(name="Open <b>&</b>", kind="individual")
    values = dict(
        game=SimpleNamespace(pk=7, round=SimpleNamespace(number=3, tournament=tournament)),
        opponent=SimpleNamespace(full_name="Berger <i>", pk=5), played_on=datetime.date(2024, 3, 9),
        white=True, score=0.5, pending=False, expected=0.64, own_rating=1835, opponent_rating=1735,
        difference=100, factor=20.0, change=-2.8, waits_for_period=False, period_id=None, period=None,
        counts_for_first_rating=False, waits_for_own=False, own_games=0, needed_games=5,
    )
    values.update(changes)
    return SimpleNamespace(**values)


def rows(records):
    return member_game_rows(
        records, opponent_link=lambda member, tournament: format_html("<a>{}</a>", member.full_name),
        opponent_name=lambda member, tournament: f"{member.full_name} ({tournament.kind})")


def test_a_rated_game_shows_its_calculation_escaped():
    with translation.override("en"):
        html = rows([record()])
    assert html == (
        '\n    <tr>\n      <td class="d-none d-sm-table-cell">2024-03-09</td>\n'
        '      <td class="d-none d-md-table-cell">'
        '<a href="/tournaments/game/7/">Open &lt;b&gt;&amp;&lt;/b&gt;</a></td>\n'
        '      <td class="text-end d-none d-sm-table-cell">3</td>\n'
        '      <td><a>Berger &lt;i&gt;</a></td>\n      <td class="d-none d-sm-table-cell">white</td>\n'
        '      <td class="text-end">0.5</td>\n      \n'
        '      <td class="text-end d-none d-md-table-cell">1835</td>\n      <td class="text-end">1735</td>\n'
        '      <td class="text-end d-none d-lg-table-cell">+100</td>\n'
        '      <td class="text-end d-none d-md-table-cell">0.640</td>\n'
        '      <td class="text-end d-none d-lg-table-cell">20.00</td>\n'
        '      <td class="text-end">\u22122.8</td>\n      \n    </tr>\n  '
    )


def reason(html):
    return html.split('class="small pending-reason">')[1].split("</td>")[0]


def test_each_reason_a_game_waits_is_worded_in_german_and_english():
    waiting = record(pending=False, expected=None, change=None, waits_for_period=True, period_id=4,
                     period=SimpleNamespace(start=datetime.date(2025, 1, 1), end=datetime.date(2025, 6, 30)))
    cases = [
        (waiting, "not rated yet: waits for its rating period 2025-01-01–2025-06-30 to open",
         "noch nicht gewertet: wartet auf die Öffnung ihrer Wertungsperiode 01.01.2025–30.06.2025"),
        (record(expected=None, change=None, waits_for_period=True),
         "not rated yet: waits for its rating period to open", None),
        (record(expected=None, change=None, counts_for_first_rating=True),
         "counts towards the own first rating", None),
        (record(pending=True, expected=None, change=None, waits_for_own=True, own_games=2),
         "pending: waits for the own first rating (2 of 5 games)", None),
        (record(pending=True, expected=None, change=None),
         "pending: waits for the first rating of " + escape("Berger <i> (individual)"), None),
    ]
    for case, english, german in cases:
        with translation.override("en"):
            html = rows([case])
        assert reason(html) == english
        assert ('<tr class="text-muted">' in html) == case.pending
        if german:
            with translation.override("de-at"):
                assert reason(rows([case])) == german


def test_a_tournaments_performance_row_with_games_still_waiting():
    perf = SimpleNamespace(tournament=SimpleNamespace(pk=9, name="Cup <b>"), games=2, points=1.5,
                           unrated=1, unrated_points=0.5, average=1787.5, performance=1980,
                           opponents=[1700.0, 1875.0], change=4.26)
    with translation.override("en"):
        html = member_performance_rows([perf])
    assert html == (
        '\n    <tr><td class="wrap-words"><a href="/tournaments/9/">Cup &lt;b&gt;</a></td>\n'
        '      <td class="text-end d-none d-sm-table-cell">2 '
        '<small class="text-muted">(+1 pending)</small></td>\n'
        '      <td class="text-end">1.5 <small class="text-muted">(+0.5)</small></td>\n'
        '      <td class="text-end d-none d-sm-table-cell">1788</td>\n'
        '      <td class="text-end d-none d-sm-table-cell"><span class="rp">1980</span> '
        '<span class="small text-muted rp-games" title="rated games it rests on">(2)</span></td>'
        '<td class="text-end">+4.3</td></tr>\n  '
    )
    empty = SimpleNamespace(tournament=perf.tournament, games=0, points=0.0, unrated=0, unrated_points=0.0,
                            average=None, performance=None, opponents=[], change=None)
    with translation.override("de-at"):
        html = member_performance_rows([empty])
    assert html.endswith(
        '<td class="text-end d-none d-sm-table-cell">0</td>\n      <td class="text-end">0,0</td>\n'
        '      <td class="text-end d-none d-sm-table-cell">—</td>\n'
        '      <td class="text-end d-none d-sm-table-cell">—</td><td class="text-end">—</td></tr>\n  ')
