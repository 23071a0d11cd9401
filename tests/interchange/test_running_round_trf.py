"""A TRF file exported while a round is being played (paired, some boards without a result) is
written as the round to pair, with its requested byes: ``pair_trf`` pairs that round from it exactly
as the site did. (bbpPairings 6.0.0 accepts such a file and pairs it the same: docs/rules.md §6.)"""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command

from clubrating.interchange.formats.trf import parse_trf
from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.tournaments.models import ByeKind, Result
from clubrating.tournaments.recording import game_result_record
from clubrating.tournaments.services import bye_request, player_register, round_pair
from tests.factories import ClubFactory, MemberFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_running_round_is_paired_from_the_file_as_the_site_paired_it(tmp_path):
    home = ClubFactory(name="Schachklub Heimat", is_home=True)
    tournament = TournamentFactory(name="Frühjahrsopen", start_date=datetime.date(2026, 3, 1), rounds_count=5)
    members = [MemberFactory(club=home, fide_rating=2100 - 60 * i) for i in range(12)]
    players = [player_register(tournament=tournament, member=member) for member in members]
    bye_request(player=players[2], round_number=2, kind=ByeKind.HALF)
    bye_request(player=players[7], round_number=2, kind=ByeKind.FULL)
    for n, game in enumerate(round_pair(tournament=tournament).games.order_by("board")):
        game_result_record(game=game, result=[Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS][n % 3])
    round_2 = round_pair(tournament=tournament)
    game_result_record(game=round_2.games.order_by("board").first(), result=Result.DRAW)  # one board done

    text = tournament_export_trf(tournament=tournament)
    trf = parse_trf(text)
    ranks = {p.name: p.start_rank for p in trf.players}
    # Round 2 is the round to pair: only the requested byes are in it (3 half a point, 8 a full one).
    assert {p.start_rank: [(g.opponent, g.result) for g in p.results[1:]] for p in trf.players
            if len(p.results) > 1} == {3: [(None, "H")], 8: [(None, "F")]}
    assert [line for line in trf.extra_lines if line[:3] in ("XXR", "142")] == ["XXR 5", "142 5"]
    path = tmp_path / "running.trf"
    path.write_text(text)
    out = StringIO()
    call_command("pair_trf", str(path), stdout=out)
    site = [(ranks[g.white.full_name], ranks[g.black.full_name]) for g in round_2.games.order_by("board")]
    assert out.getvalue() == "5\n" + "".join(f"{white} {black}\n" for white, black in site)
    assert site == [(9, 1), (6, 10), (2, 5), (11, 4), (7, 12)]
