"""The league's invariants hold in the database too, whatever writes the rows."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubrating.leagues import services
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import LeagueMatch, LeagueSeason, MatchStatus, RosterChange, RosterEntry
from tests.leagues.conftest import submit

pytestmark = pytest.mark.usefixtures("english")


def refused_by_database(write) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def test_a_win_gives_more_match_points_than_a_draw(db):
    refused_by_database(
        lambda: LeagueSeason.objects.create(
            name="X", start_date=datetime.date(2026, 9, 1), match_points_win=1, match_points_draw=1
        )
    )
    refused_by_database(
        lambda: LeagueSeason.objects.create(name="Y", start_date=datetime.date(2026, 9, 1), fixing_games=0)
    )


def test_a_dispute_and_a_decision_carry_their_reason(league):
    match = league.match("Donaustadt 1", 1)
    now = timezone.now()
    refused_by_database(
        lambda: LeagueMatch.objects.filter(pk=match.pk).update(
            status=MatchStatus.DISPUTED, entered_at=now, disputed_at=now, dispute_reason=""
        )
    )
    refused_by_database(
        lambda: LeagueMatch.objects.filter(pk=match.pk).update(
            status=MatchStatus.DECIDED, entered_at=now, decided_at=now, decision_reason=""
        )
    )
    refused_by_database(lambda: LeagueMatch.objects.filter(pk=match.pk).update(status=MatchStatus.CONFIRMED))
    refused_by_database(lambda: LeagueMatch.objects.filter(pk=match.pk).update(absent="both"))


def test_a_roster_holds_each_rank_and_each_player_once(league):
    entry = RosterEntry.objects.filter(roster__club=league.teams["Donaustadt 1"].club).get(rank=2)
    refused_by_database(lambda: RosterEntry.objects.filter(pk=entry.pk).update(rank=1))
    first = RosterEntry.objects.filter(roster=entry.roster).get(rank=1)
    refused_by_database(lambda: RosterEntry.objects.filter(pk=entry.pk).update(member=first.member))
    refused_by_database(
        lambda: RosterChange.objects.create(
            roster=entry.roster, member=entry.member, kind="added", valid_from=datetime.date(2026, 10, 1)
        )
    )


def test_the_teams_take_consecutive_blocks_of_the_roster(league):
    don = league.players["Donaustadt"]
    with pytest.raises(LeagueRefused) as caught:
        services.roster_set(
            season=league.season,
            club=league.teams["Donaustadt 1"].club,
            on=league.season.start_date,
            entries=[(don[0], league.teams["Donaustadt 2"]), (don[1], league.teams["Donaustadt 1"])],
        )
    assert caught.value.message == (
        "The teams take consecutive blocks of the roster: the players of team 1 first, "
        "then those of team 2, and so on."
    )
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    with pytest.raises(LeagueRefused) as caught:
        services.roster_set(
            season=league.season,
            club=league.teams["Donaustadt 1"].club,
            on=league.season.start_date,
            entries=[(don[0], league.teams["Donaustadt 1"])],
        )
    assert (
        caught.value.message
        == "SK Donaustadt has lined up players already; add late registrations one by one."
    )
    assert RosterEntry.objects.filter(roster__club=league.teams["Donaustadt 1"].club).count() == 12


def test_the_season_admin_refuses_standings_criteria_the_table_cannot_read(league, client):
    from django.contrib.auth.models import User
    from django.urls import reverse

    admin = User.objects.create_superuser("chef", password="pw")
    client.force_login(admin)
    url = reverse("admin:leagues_leagueseason_change", args=[league.season.pk])
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(
        directors=[league.director.pk],
        start_date="2026-09-01",
        end_date="2027-06-30",
        match_start_time="14:00",
        **{
            f"divisions-{key}": value
            for key, value in {"TOTAL_FORMS": "2", "INITIAL_FORMS": "2", "MIN_NUM_FORMS": "0"}.items()
        },
        **{
            "divisions-MAX_NUM_FORMS": "1000",
            "divisions-0-id": league.first.pk,
            "divisions-1-id": league.second.pk,
        },
    )
    for criteria in ("MP,XX", "MP,BP,MP", "MP,"):
        response = client.post(url, {**data, "standings_criteria": criteria})
        assert response.status_code == 200
        assert response.context["adminform"].form.errors["standings_criteria"] == [
            "Wählen Sie jedes Wertungskriterium höchstens einmal, aus den angebotenen."
        ]
    league.season.refresh_from_db()
    assert league.season.standings_criteria == "MP,BP,BW,DE"
    # The division table still reads.
    assert client.get(reverse("leagues:division", args=[league.first.pk])).status_code in (200, 302)
    response = client.post(url, {**data, "standings_criteria": "MP,BW"})
    assert response.status_code == 302
    league.season.refresh_from_db()
    assert league.season.criteria == ["MP", "BW"]
