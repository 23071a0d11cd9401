"""The division's pages are drawn once per version and kept: a lineup change, a member's privacy
change and a result each show at once; a browser that has the page gets a 304 while nothing
changed. The rounds page reads only the round it shows; the players' table is drawn from rows
worked out in the view, with the names as the privacy rules allow."""

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.leagues.selectors_public import division_data, division_round, division_round_numbers
from tests.factories import ClubFactory
from tests.leagues.conftest import DATES, at, submit
from tests.leagues.played import play, play_landesliga, rate_everyone

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def public(db):
    return ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True,
                       public_tournaments=True)


@pytest.fixture
def visitor():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _boards(html: str) -> list[list[str]]:
    """Each board row of the match cards: its cells' texts."""
    body = html.split('id="live-pairings"', 1)[1]
    rows = re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
             for row in rows if 'class="num text-muted"' in row]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in row] for row in cells]


def test_a_lineup_change_shows_on_the_rounds_page_at_once(league, public, visitor, monkeypatch):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0] - datetime.timedelta(days=1), 15))
    url = reverse("leagues:division_rounds", args=[league.first.pk]) + "?round=1"
    don, ott = league.players["Donaustadt"], league.players["Ottakring"]
    first = visitor.get(url)
    card = [b for b in _boards(first.content.decode()) if b[1].endswith(", Don")]
    assert [(b[0], b[1], b[3]) for b in card] == [
        ("1", str(don[0]), str(ott[0])), ("2", str(don[1]), str(ott[1])),
        ("3", str(don[2]), str(ott[2])), ("4", str(don[3]), str(ott[3]))]
    assert visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    # The captain leaves board 4 empty (before the deadline, as the service allows).
    submit(league, "Donaustadt 1", 1, [1, 2, 3, None])
    after = visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200 and after.headers["ETag"] != first.headers["ETag"]
    card = [b for b in _boards(after.content.decode()) if b[3].endswith(", Ott")]
    assert [(b[0], b[1], b[3]) for b in card] == [
        ("1", str(don[0]), str(ott[0])), ("2", str(don[1]), str(ott[1])),
        ("3", str(don[2]), str(ott[2])), ("4", "empty board", str(ott[3]))]


def _player_names(html: str) -> list[str]:
    body = html.split('class="table table-sm table-striped league-players"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>\s*<td class=\"text-nowrap\">(.*?)<div", body, flags=re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in rows]


def test_a_privacy_change_shows_on_the_cached_players_page_at_once(league, public, visitor):
    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    url = reverse("leagues:division_players", args=[league.first.pk])
    member = league.players["Donaustadt"][0]
    first = visitor.get(url)
    names = _player_names(first.content.decode())
    assert str(member) in names and "protected profile" not in names
    assert f'href="{member.get_absolute_url()}"' in first.content.decode()
    assert visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    member.profile_restricted = True
    member.save()
    after = visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200
    names = _player_names(after.content.decode())
    assert str(member) not in names and names.count("protected profile") == 1
    assert member.get_absolute_url() not in after.content.decode()


def test_a_result_shows_on_the_cached_team_page_and_an_unchanged_one_is_a_304(league, public, visitor):
    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    team = league.teams["Favoriten 1"]
    url = reverse("leagues:division_team", args=[league.first.pk, team.pk])
    first = visitor.get(url)
    text = re.sub(r"\s+", " ", first.content.decode())
    assert "Rank 3 · MP 0 · BP 0.0" in text
    assert visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    play(league, "Favoriten 1", 1, "LLWW")
    after = visitor.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200
    assert "Rank 3 · MP 1 · BP 2.0" in re.sub(r"\s+", " ", after.content.decode())
    assert visitor.get(reverse("leagues:division_team", args=[league.first.pk, 10**6])).status_code == 404


def test_the_rounds_page_reads_the_round_it_shows_alone(league, public):
    rate_everyone(league)
    play_landesliga(league)
    division = league.first
    assert division_round_numbers(division=division) == ([1, 2, 3], [1, 2, 3])
    ((number, date, matches),) = division_round(division=division, number=2)
    whole = {n: ms for n, _d, ms in division_data(division=division).rounds}
    assert (number, date) == (2, DATES[1])
    assert [(m.home.name, m.away.name, m.home_points, m.away_points) for m in matches] == [
        ("Ottakring 1", "Hietzing 1", 0.0, 4.0), ("Donaustadt 1", "Favoriten 1", 2.5, 1.5)]
    assert [[b.result for b in m.score.boards] for m in matches] == [
        [b.result for b in m.score.boards] for m in whole[2]]
    assert division_round(division=division, number=9) == []


def test_the_round_numbers_count_a_round_once_a_match_in_it_is_entered(league, public):
    division = league.first
    assert division_round_numbers(division=division) == ([1, 2, 3], [])
    rate_everyone(league)
    play(league, "Favoriten 1", 1, "LLWW")
    assert division_round_numbers(division=division) == ([1, 2, 3], [1])
