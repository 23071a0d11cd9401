"""Why a rating waits: a board's change reads "N" where the game counts towards a newcomer's
first rating and "wartet" where its rating period is not open yet (a rated player with 165 games
is no newcomer, and his board must not read "N"); the officer's page and the close page list the
waiting games by reason, with what to do."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from clubrating.tournaments.models import Result
from ratings.selectors import WaitingGames, game_rating_changes, pools_waiting_games
from ratings.services import game_record_result
from tests.factories import MemberFactory, TournamentFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db


def test_a_game_after_the_open_period_waits_for_it_and_says_so():
    pool = make_pool(start=datetime.date(2025, 1, 1))  # open period 1.1.–30.6.2025
    rated, other = MemberFactory(), MemberFactory()
    publish_start_list(pool, {rated: (2210, 165), other: (1980, 40)})
    later = TournamentFactory(start_date=datetime.date(2025, 9, 1))
    game = unplayed_game(make_round(later, 1, date=datetime.date(2025, 9, 1)), rated, other)
    game_record_result(game=game, result=Result.WHITE_WINS)

    [change] = game_rating_changes([game.pk])[game.pk]

    assert (change.white_waits_for_period, change.white_first_rating, change.pending) == (True, False, False)
    with translation.override("de-at"):
        html = render_to_string("tournaments/_changes.html", {"changes": [change]})
    assert ">N<" not in html
    why = "noch nicht gewertet: wartet auf die Öffnung ihrer Wertungsperiode"
    assert html.count(f'title="{why}">wartet<') == 2


def test_a_newcomers_game_in_the_open_period_is_pending_not_waiting():
    pool = make_pool(start=datetime.date(2025, 1, 1))
    rated, newcomer = MemberFactory(), MemberFactory(last_name="Huber", first_name="Anna")
    publish_start_list(pool, {rated: (1900, 30)})
    spring = TournamentFactory(start_date=datetime.date(2025, 3, 1))
    game = unplayed_game(make_round(spring, 1), newcomer, rated)
    game_record_result(game=game, result=Result.DRAW)

    [change] = game_rating_changes([game.pk])[game.pk]

    assert (change.white_waits_for_period, change.white_first_rating, change.pending) == (False, False, True)
    assert change.awaited == [newcomer]  # whose first rating: the newcomer's, not the rated player's
    for language, text in (("de-at", "wartet auf die erste Wertungszahl von Huber, Anna"),
                           ("en", "waits for the first rating of Huber, Anna")):
        with translation.override(language):
            board = render_to_string("tournaments/_changes.html", {"changes": [change]})
        assert f'<span class="rating-awaited">{text}</span>' in board


def test_a_game_of_two_newcomers_waits_for_both_and_the_pages_name_them(client):
    make_pool(start=datetime.date(2025, 1, 1))
    first = MemberFactory(last_name="Huber", first_name="Anna")
    second = MemberFactory(last_name="Maier", first_name="Karl")
    tournament = TournamentFactory(start_date=datetime.date(2025, 3, 1))
    game = unplayed_game(make_round(tournament, 1), second, first)
    game_record_result(game=game, result=Result.WHITE_WINS)

    [change] = game_rating_changes([game.pk])[game.pk]

    assert change.awaited == [second, first]  # white's first, as the board reads
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de-at"
    page = client.get(game.get_absolute_url()).content.decode()  # the game's page, as a visitor
    assert "wartet auf die erste Wertungszahl von Maier, Karl; Huber, Anna" in page


def test_the_officer_page_and_the_close_page_list_the_waiting_games_with_what_to_do(client):
    pool = make_pool(start=datetime.date(2025, 1, 1))
    rated, other = MemberFactory(last_name="Gruber", first_name="Bernd"), MemberFactory()
    newcomer = MemberFactory(last_name="Huber", first_name="Anna")
    publish_start_list(pool, {rated: (2210, 165), other: (1980, 40)})
    autumn = TournamentFactory(start_date=datetime.date(2025, 9, 1))
    later = make_round(autumn, 1, date=datetime.date(2025, 9, 1))
    game_record_result(game=unplayed_game(later, rated, other), result=Result.WHITE_WINS)
    spring = make_round(TournamentFactory(start_date=datetime.date(2025, 3, 1)), 1)
    game_record_result(game=unplayed_game(spring, rated, newcomer), result=Result.DRAW)

    assert pools_waiting_games() == {pool.pk: WaitingGames(after_open_period=1, newcomers=1,
                                                           awaited=[(newcomer, 1)])}
    officer = User.objects.create_user("referent", password="pw-referent-2026")
    officer.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
    client.force_login(officer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de-at"
    home = client.get(reverse("ratings:officer")).content.decode()
    close = client.get(reverse("ratings:period_close", args=[pool.periods.get().pk])).content.decode()
    for page in (home, close):
        assert ("1 Partie liegt nach der offenen Periode: Sie wird gewertet, sobald diese Periode "
                "abgeschlossen ist und die nächste sich öffnet.") in page
        assert "1 Partie wartet auf die erste Wertungszahl eines Neulings" in page
        assert "Sie warten auf die erste Wertungszahl von:" in page
        assert f'<a href="{newcomer.get_absolute_url()}">Huber, Anna</a> (1 Partie)' in page
    # The close preview names, for each player whose games stay pending, whose first rating.
    assert (f'<a href="/members/{rated.pk}/">Gruber, Bernd</a>: 1 offene Partie · '
            '<span class="rating-awaited">wartet auf die erste Wertungszahl von Huber, Anna</span>') in close
    assert f'<a href="/members/{newcomer.pk}/">Huber, Anna</a>: 1 offene Partie · Neueinsteiger</li>' in close
