"""The start page: the club's top 10, running and recent tournaments, quick links by role."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Tournament
from ratings.models import PublishedList, RatingPool
from tests.language import speak

pytestmark = pytest.mark.django_db

DEMO_TODAY = datetime.date(2026, 11, 22)  # Herbstopen running, Vereinsmeisterschaft finished


@pytest.fixture
def demo(demo_club, db, monkeypatch):
    # The demo club of the whole module (tests/conftest.py), seen on the day it describes.
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: DEMO_TODAY)


def _section(html: str, section_id: str) -> str:
    """The HTML of one <section> of the page, found by the id of its heading."""
    start = html.index(f'id="{section_id}"')
    return html[start:html.index("</section>", start)]


def _login(client, username: str) -> None:
    client.force_login(User.objects.get(username=username))


def test_running_and_recent_tournaments_are_separated(client, demo):
    speak(client, "en")
    html = client.get("/").content.decode()
    running = _section(html, "running")
    recent = _section(html, "recent")
    assert "Herbstopen 2026" in running
    assert "21 players · round 5 of 7" in running
    assert "Vereinsmeisterschaft 2026" in recent
    assert "Herbstopen 2026" not in recent
    open_ = Tournament.objects.get(name="Herbstopen 2026")
    assert reverse("tournaments:round", args=[open_.pk, 5]) in running
    # Visitors get no result-entry button.
    assert reverse("tournaments:results", args=[open_.pk, 5]) not in html


def test_a_team_competition_counts_its_teams_not_registered_players(client, demo):
    speak(client, "en")
    running = _section(client.get("/").content.decode(), "running")
    line = re.search(r"Landesliga Wien 2026/27 – Landesliga</a>\s*<div[^>]*>([^<]*)</div>", running).group(1)
    assert line == "team competition · 2026-09-01 – 2027-06-30 · 6 teams · round 5 of 5"
    speak(client, "de-at")
    listing = client.get(reverse("tournaments:list")).content.decode()
    cells = r"</a></td>(?:\s*<td[^>]*>[^<]*</td>){7}\s*<td[^>]*>"  # to the players' column
    assert re.search(rf"Landesliga Wien 2026/27 – Landesliga{cells}6 Mannschaften</td>", listing)
    assert re.search(rf"Herbstopen 2026{cells}21</td>", listing)


def test_top_ten_of_the_home_club_with_links_to_the_full_lists(client, demo):
    html = client.get("/").content.decode()
    block = _section(html, "club-ratings")
    rows = re.findall(r"<tr>\s*<td class=\"num col-primary\">(\d+)</td>", block)
    assert rows == [str(n) for n in range(1, 11)]
    home = Club.objects.get(is_home=True)
    assert "SV Wienerwald" not in block
    pool = RatingPool.objects.get()
    live = reverse("ratings:live", args=[pool.pk])
    assert f'href="{live}?club=Schachklub+Donaustadt"' in block
    latest = PublishedList.objects.filter(superseded=False).order_by("-valid_from").first()
    assert reverse("ratings:list", args=[latest.pk]) in block
    assert "Veröffentlichte Liste vom 01.07.2026" in block
    assert "Wagner, Lena" in block and ">2109<" in block  # ratings are never digit-grouped
    assert home.name in html


def test_a_restricted_profile_is_left_out_of_the_clubs_top_list_for_all_but_officials(client, demo):
    from clubrating.clubs.models import Member

    def top(html: str) -> tuple[list[str], str]:
        block = _section(html, "club-ratings")
        names = re.findall(r'<td class="col-primary"><a href="[^"]*">([^<]*)</a></td>', block)
        return names, re.search(r"Ganze Liste \((\d+) Spieler\)", block).group(1)

    names, count = top(client.get("/").content.decode())
    # The demo's minors without their guardians' consent are left out already (Reiter, Weber, …).
    assert names[:3] == ["Wagner, Lena", "Egger, Maximilian", "Steiner, Jakob"] and count == "25"
    assert "Reiter, Felix" not in names
    # Her choice: visitors and members see her name and ratings only, so not on her club's list
    # (it would tell her club), as the list page filtered by the club leaves her out.
    Member.objects.filter(last_name="Wagner", first_name="Lena").update(
        profile_restricted=True, changed_at=timezone.now())
    names, count = top(client.get("/").content.decode())
    assert names[0] == "Egger, Maximilian" and "Wagner, Lena" not in names and count == "24"
    _login(client, "member")
    assert top(client.get("/").content.decode())[1] == "24"
    _login(client, "official")
    names, count = top(client.get("/").content.decode())
    assert names[:4] == ["Wagner, Lena", "Egger, Maximilian", "Steiner, Jakob", "Reiter, Felix"]
    assert count == "35"


def test_a_league_divisions_buttons_lead_to_the_leagues_pages(client, demo):
    from clubrating.leagues.models import Division

    _login(client, "official")
    running = _section(client.get("/").content.decode(), "running")
    division = Division.objects.get(name="Landesliga")
    item = running.split(">Landesliga Wien 2026/27 – Landesliga</a>")[1].split("</li>")[0]
    assert re.findall(r'href="([^"]*)"', item) == [reverse("leagues:division", args=[division.pk]),
                                                   reverse("leagues:division_rounds", args=[division.pk])]
    herbst = Tournament.objects.get(name="Herbstopen 2026")
    assert reverse("tournaments:results", args=[herbst.pk, 5]) in running


def test_official_gets_result_entry_and_creation_links(client, demo):
    _login(client, "official")
    html = client.get("/").content.decode()
    open_ = Tournament.objects.get(name="Herbstopen 2026")
    assert reverse("tournaments:results", args=[open_.pk, 5]) in html
    assert reverse("tournaments:create") in html
    assert reverse("ratings:officer") not in _section(html, "quick-links")


def test_member_sees_his_page_and_his_rating(client, demo):
    _login(client, "member")
    html = client.get("/").content.decode()
    member = User.objects.get(username="member").member
    quick = _section(html, "quick-links")
    assert member.get_absolute_url() in quick
    assert 'id="my-rating"' in quick
    assert reverse("tournaments:create") not in html


def test_rating_officer_gets_the_officer_link(client, demo):
    _login(client, "ratingofficer")
    assert reverse("ratings:officer") in _section(client.get("/").content.decode(), "quick-links")


def test_private_lists_and_tournaments_are_not_shown_to_visitors(client, demo):
    Club.objects.filter(is_home=True).update(public_ratings=False, public_tournaments=False)
    speak(client, "en")
    html = client.get("/").content.decode()
    assert "visible to members only" in html
    assert 'id="top-ratings"' not in html
    assert "Herbstopen 2026" not in html


def test_query_count_does_not_depend_on_the_data(client, demo, django_assert_max_num_queries):
    _login(client, "official")
    with django_assert_max_num_queries(17):  # two of them: the latest change of a member and a club
        client.get("/")



def test_the_page_shows_the_latest_running_tournaments_and_links_all(client, db):
    from clubrating.site.views import RUNNING
    from tests.factories import TournamentFactory

    today = timezone.localdate()
    for day in range(RUNNING + 2):
        TournamentFactory(name=f"Offen {day:02d}", start_date=today - datetime.timedelta(days=day),
                          end_date=None)
    html = client.get(reverse("home")).content.decode()
    running = _section(html, "running")
    shown = re.findall(r"Offen (\d\d)", running)
    assert shown == [f"{day:02d}" for day in range(RUNNING - 1, -1, -1)]  # the latest, oldest first
    assert 'id="running-more"' in html


def test_the_cached_blocks_follow_every_change_of_what_they_show(client, db):
    """The blocks are cached by what they show: a tournament created, renamed or given a player
    without any service telling the cache is on the next page at once."""
    from tests.factories import MemberFactory, TournamentFactory, TournamentPlayerFactory

    today = timezone.localdate()
    first = TournamentFactory(name="Blitz am Montag", start_date=today, end_date=None)
    html = client.get(reverse("home")).content.decode()
    assert "Blitz am Montag" in _section(html, "running")
    TournamentFactory(name="Schnellschach", start_date=today, end_date=None)
    Tournament.objects.filter(pk=first.pk).update(name="Blitz am Dienstag")
    TournamentPlayerFactory(tournament=first, member=MemberFactory())
    running = _section(client.get(reverse("home")).content.decode(), "running")
    assert "Schnellschach" in running and "Blitz am Dienstag" in running and "Montag" not in running
    assert re.search(r"Blitz am Dienstag</a>\s*<div[^>]*>[^<]*· 1 Spieler ·", running)


def test_the_tournaments_block_reads_counts_per_tournament_not_a_join_of_players_and_games(client, db):
    """The start page's queries are the same in number whatever a running tournament's size, and
    none groups a join of players with games: that read players × games rows of every candidate."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import GameFactory, RoundFactory, TournamentFactory, TournamentPlayerFactory

    today = timezone.localdate()
    TournamentFactory(name="Klein", start_date=today, end_date=None, rounds_count=3)
    client.get(reverse("home"))
    cache.clear()  # both requests read everything (a member added below changes the top list's key)
    with CaptureQueriesContext(connection) as before:
        client.get(reverse("home"))
    big = TournamentFactory(name="Groß", start_date=today, end_date=None, rounds_count=3)
    players = [TournamentPlayerFactory(tournament=big) for _ in range(8)]
    for number in (1, 2):
        rnd = RoundFactory(tournament=big, number=number)
        for board in range(4):
            GameFactory(round=rnd, board=board + 1, white=players[2 * board].member,
                        black=players[2 * board + 1].member, result="1-0" if number == 1 else "")
    cache.clear()
    with CaptureQueriesContext(connection) as after:
        html = client.get(reverse("home")).content.decode()
    assert len(after.captured_queries) == len(before.captured_queries)
    for query in after.captured_queries:
        sql = query["sql"]
        assert not ("GROUP BY" in sql and 'JOIN "tournaments_tournamentplayer"' in sql), sql
    running = _section(html, "running")
    assert re.search(r"Groß</a>\s*<div[^>]*>[^<]*· 8 Spieler · Runde 2 von 3", running), running
    assert re.search(r"Klein</a>\s*<div[^>]*>[^<]*· 0 Spieler · Runde 0 von 3", running), running
