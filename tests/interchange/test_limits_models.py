"""The lengths and ranges the pure readers check are those of the fields the values go into."""

from clubrating.clubs.models import Club, Member
from clubrating.interchange.formats.limits import (
    BOARDS_MAX,
    FIDE_ID_MAX,
    LENGTHS,
    RATING_MAX,
    ROUNDS_MAX,
    START_RANK_MAX,
)
from clubrating.tournaments.models import Game, Round, Tournament, TournamentPlayer

SMALL = 32767  # PositiveSmallIntegerField on every supported database


def _length(model, name):
    return model._meta.get_field(name).max_length


def test_lengths_are_the_model_fields():
    assert LENGTHS == {
        "member_name": _length(Member, "last_name"), "national_id": _length(Member, "national_id"),
        "club": _length(Club, "name"), "email": _length(Member, "email"), "phone": _length(Member, "phone"),
        "tournament_name": _length(Tournament, "name"), "place": _length(Tournament, "place"),
        "federation": _length(Tournament, "federation"),
    }
    assert _length(Member, "federation") == LENGTHS["federation"]
    assert _length(Member, "first_name") == LENGTHS["member_name"]
    assert _length(Tournament, "director") == _length(Tournament, "time_control") == LENGTHS["place"]


def test_numbers_fit_their_fields():
    assert Member._meta.get_field("fide_id").get_internal_type() == "PositiveBigIntegerField"
    assert FIDE_ID_MAX < 2**63
    for model, name in ((Member, "fide_rating"), (TournamentPlayer, "rating"), (Round, "number"),
                        (Game, "board"), (TournamentPlayer, "start_rank"), (Tournament, "rounds_count")):
        assert model._meta.get_field(name).get_internal_type() == "PositiveSmallIntegerField"
    assert max(RATING_MAX, ROUNDS_MAX, BOARDS_MAX, START_RANK_MAX) <= SMALL
