"""The pages' plain rows of a tournament's players and members (selectors/plain.py) give what the
models give: the same standings rows and crosstable, the same texts, the same privacy answers."""

import datetime

import pytest

from clubrating.clubs import privacy
from clubrating.clubs.models import Member
from clubrating.tournaments.models import Result
from clubrating.tournaments.selectors import tournament_standings, tournament_tables
from clubrating.tournaments.selectors.plain import PlainMember, plain_members, plain_players
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss():
    """Six players, two rounds with every kind of game, a club with a name to escape."""
    club = ClubFactory(name="SK <Turm> & Co")
    tournament = TournamentFactory(rounds_count=3, tiebreaks="BH/C1,BH,SB")
    members = [MemberFactory(last_name=f"Name{i}", first_name="" if i == 5 else "Vor",
                             club=club if i % 2 else None, fide_rating=2000 + i,
                             birth_year=2015 if i == 3 else 1980) for i in range(6)]
    for rank, member in enumerate(members, start=1):
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank,
                                rating=1500 + 10 * rank, fide_rating=None if rank == 2 else 1900 + rank)
    results = [[Result.WHITE_WINS, Result.DRAW, Result.BLACK_FORFEIT_WIN],
               [Result.BLACK_WINS, Result.WHITE_WINS, Result.NOT_PLAYED]]
    for number, row in enumerate(results, start=1):
        rnd = RoundFactory(tournament=tournament, number=number)
        for board, result in enumerate(row, start=1):
            white, black = (members[board - 1], members[6 - board]) if number == 1 else \
                (members[2 * board - 2], members[2 * board - 1])
            GameFactory(round=rnd, board=board, white=white, black=black, result=result)
    return tournament


def _line(row) -> tuple:
    player, member = row.player, row.player.member
    return (row.rank, row.points, row.tiebreaks, player.pk, player.member_id, player.start_rank,
            player.rating, player.fide_rating, member.pk, str(member), member.full_name, member.club_id,
            str(member.club) if member.club_id else None, member.get_absolute_url())


def test_standings_from_plain_rows_equal_those_from_models(swiss):
    models = tournament_standings(tournament=swiss)
    plain = tournament_standings(tournament=swiss, plain=True)
    assert [_line(row) for row in plain] == [_line(row) for row in models]
    # BH/C1, BH, SB by C.07 (2023): an unplayed round's dummy opponent has the player's own score.
    assert [(row.rank, row.player.start_rank, row.points, row.tiebreaks) for row in plain] == [
        (1, 2, 1.5, [1.0, 2.0, 1.5]), (2, 1, 1.0, [1.5, 2.0, 0.5]), (3, 3, 1.0, [1.0, 2.0, 1.0]),
        (3, 4, 1.0, [1.0, 2.0, 1.0]), (5, 5, 0.5, [1.5, 2.0, 0.75]), (6, 6, 0.0, [1.0, 1.0, 0.0])]
    assert str(plain[5].player.member) == "Name5" and str(plain[0].player.member.club) == "SK <Turm> & Co"


def test_the_crosstable_from_plain_rows_equals_that_from_models(swiss):
    standings, crosstable = tournament_tables(tournament=swiss)
    plain_standings, plain_crosstable = tournament_tables(tournament=swiss, plain=True)
    assert [_line(row) for row in plain_standings] == [_line(row) for row in standings]
    assert [(row.player.pk, row.points, row.cells) for row in plain_crosstable] == [
        (row.player.pk, row.points, row.cells) for row in crosstable]


@pytest.mark.parametrize("audience", list(privacy.Audience))
def test_privacy_answers_equal_those_for_the_models(swiss, audience):
    today = datetime.date(2026, 11, 29)
    Member.objects.filter(last_name="Name1").update(profile_restricted=True)
    Member.objects.filter(last_name="Name3").update(guardian_consent_on=None)  # a minor
    models = {m.pk: m for m in Member.objects.select_related("club").filter(registrations__tournament=swiss)}
    plain = plain_members(models)
    assert set(plain) == set(models)
    for pk, member in models.items():
        for check in (privacy.member_page_visible, privacy.name_beside_team_visible):
            assert check(plain[pk], audience=audience, today=today) == check(member, audience=audience,
                                                                           today=today), (check, pk)
        assert privacy.shown_club(plain[pk], audience=audience, today=today) == privacy.shown_club(
            member, audience=audience, today=today)
    restricted = next(m for m in plain.values() if m.last_name == "Name1")
    assert privacy.member_page_visible(restricted, audience=privacy.Audience.VISITOR, today=today) is False


def test_players_in_starting_order_with_their_members(swiss):
    players = plain_players(swiss)
    assert [p.start_rank for p in players] == [1, 2, 3, 4, 5, 6]
    assert [str(p.member) for p in players] == ["Name0, Vor", "Name1, Vor", "Name2, Vor", "Name3, Vor",
                                                "Name4, Vor", "Name5"]
    assert PlainMember(pk=7).get_absolute_url() == "/members/7/"


def test_a_rounds_version_from_the_rows_read_for_the_tournaments_version_equals_the_queried_one(swiss):
    """The round page reads the tournament's rows for its version first; the round's live
    version taken from them is the one its two queries give (the poll compares them)."""
    from clubrating.tournaments.models import Bye, ByeKind, Tournament
    from clubrating.tournaments.selectors import pairings_version, tournament_version

    Bye.objects.create(round=swiss.rounds.get(number=2), member=Member.objects.get(last_name="Name5"),
                       kind=ByeKind.HALF)
    for number in (1, 2, 3):
        queried = pairings_version(tournament=Tournament.objects.get(pk=swiss.pk), round_number=number)
        read = Tournament.objects.get(pk=swiss.pk)
        tournament_version(tournament=read)
        assert pairings_version(tournament=read, round_number=number) == queried
    assert pairings_version(tournament=read, round_number=2)[1] is True  # a game without result
    assert pairings_version(tournament=read, round_number=1)[1] is False
