"""The pages every crawl of the demo club starts from (tests/browser/test_site_crawl.py,
tests/browser/test_hostile_names.py), with the demo club they need.

Each of them is visited by each role of the site crawl at 1366 px and 390 px, in German and English,
with every check of tests/crawl_checks.py; the names below pick the columns a page must show
(``HEADINGS`` there). The tournament tabs, result entry, pairing and registration are visited with a
tournament of their own by tests/browser/test_tournament_pages.py.
"""

import pytest

from clubrating.jobs.models import Job, JobState
from clubrating.leagues.models import LeagueMatch, LeagueSeason, MatchStatus
from clubrating.site.demo import DEMO_POOL, ROUND_ROBIN_NAME, SWISS_NAME
from clubrating.tournaments.models import Game, Tournament
from ratings.models import PeriodState, PublishedList, RatingPeriod, RatingPool
from tests.demo_data import demo_restore

# A calculation on the rating-change calculator: 1830 against 1980 (a draw) and 1750 (a loss).
CALCULATION = ("rules=oesb-classic&rating=1830&games_count=10&g-TOTAL_FORMS=10&g-INITIAL_FORMS=0"
               "&g-MIN_NUM_FORMS=0&g-MAX_NUM_FORMS=60&g-0-opponent=1980&g-0-result=0.5"
               "&g-1-opponent=1750&g-1-result=0")
MEMBERS_CSV = "last_name;first_name;birth_date;club\nNeumann;Lea;03.04.2011;Schachklub Donaustadt\n"


@pytest.fixture
def demo(db, demo_snapshot):
    demo_restore(demo_snapshot)
    return demo_objects()


def demo_objects() -> dict:
    """What the crawls start from in the demo club, with a finished job (its page) added."""
    pool = RatingPool.objects.get(name=DEMO_POOL)
    job = Job.objects.create(key="members-import", title="Mitgliederimport: mitglieder.csv",
                             handler="clubrating.interchange.jobs.members_import_run", state=JobState.DONE,
                             progress=100, message="3 Mitglieder angelegt, 0 aktualisiert.")
    return {
        "pool": pool,
        "list": PublishedList.objects.filter(pool=pool, superseded=False).order_by("-valid_from").first(),
        "open_period": RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN),
        "round_robin": Tournament.objects.get(name=ROUND_ROBIN_NAME),
        "member": Game.objects.filter(round__tournament__name=SWISS_NAME).first().white,
        "job": job,
        "season": LeagueSeason.objects.get(),
        "decided": LeagueMatch.objects.get(status=MatchStatus.DECIDED),
        "lined_up": LeagueMatch.objects.filter(match__round__number=5).order_by("pk").first(),
        "home_team": LeagueMatch.objects.filter(match__round__number=5).order_by("pk").first()
        .match.home_team.league_team.pk,
    }


def pages(demo) -> list[tuple[str, str]]:
    """The pages besides the tournament tabs, which tests/browser/test_tournament_pages.py visits at
    both widths and in both languages with a tournament of its own (the round robin's crosstable
    is here, as the one tab layout that tournament lacks)."""
    pool = demo["pool"].pk
    return [
        ("home", "/"),
        ("pools", "/ratings/"),
        ("list", f"/ratings/lists/{demo['list'].pk}/"),
        ("live", f"/ratings/pools/{pool}/live/"),
        ("members", "/members/"),
        ("member", demo["member"].get_absolute_url()),
        ("tournaments", "/tournaments/"),
        ("crosstable-rr", f"/tournaments/{demo['round_robin'].pk}/crosstable/"),
        ("create", "/tournaments/new/"),
        ("officer", "/ratings/officer/"),
        ("close", f"/ratings/officer/periods/{demo['open_period'].pk}/close/"),
        ("import-list", f"/ratings/officer/pools/{pool}/import/"),
        ("import-trf", f"/exchange/pools/{pool}/trf/"),
        ("import-members", "/exchange/members/"),
        ("import-pgn", "/exchange/pgn/"),
        ("job", f"/jobs/{demo['job'].pk}/"),
        ("calculators", "/ratings/calculators/"),
        ("calc-change", f"/ratings/calculators/rating-change/?{CALCULATION}"),
        ("calc-forecast", "/ratings/calculators/team-forecast/"),
        ("calc-newcomer", "/ratings/calculators/newcomer/"),
        ("league-captain", "/leagues/captain/"),
        ("league-director", f"/leagues/season/{demo['season'].pk}/director/"),
        ("league-decided", f"/leagues/match/{demo['decided'].pk}/"),
        ("league-lined-up", f"/leagues/match/{demo['lined_up'].pk}/"),
        ("league-roster", f"/leagues/season/{demo['season'].pk}/roster/{demo['season'].organizer_club_id}/"),
        ("league-lineup", f"/leagues/match/{demo['lined_up'].pk}/lineup/{demo['home_team']}/"),
    ]
