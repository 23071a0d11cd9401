"""Rating officer pages on a whole pool: create, 2024 transformation, FIDE take-over.

Built on ``rated_club`` (conftest): the list valid from 1.7.2026 holds Anna Berger 1835, Bernd
Huber 1977, Clara Moser 1700 and Dora Alt 1500. Here Emil Fuchs (FIDE 1700) and Franz Gruber
(FIDE 1450) are newcomers who drew Bernd in the open period.
"""

import datetime

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Result
from ratings.models import (
    FideTakeover,
    ListEntry,
    ListKind,
    PoolMember,
    PublishedList,
    RatingPool,
    RatingRecord,
)
from ratings.services import game_record_result
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomers(rated_club):
    emil = MemberFactory(first_name="Emil", last_name="Fuchs", fide_rating=1700)
    franz = MemberFactory(first_name="Franz", last_name="Gruber", fide_rating=1450)
    for number, member in enumerate((emil, franz), start=1):
        tournament = TournamentFactory(
            name=f"Blitz-Abend {number}", start_date=datetime.date(2026, 10, number)
        )
        game = GameFactory(
            round=RoundFactory(tournament=tournament, number=1),
            board=1,
            white=rated_club["bernd"],
            black=member,
            result=Result.NOT_PLAYED,
        )
        game_record_result(game=game, result=Result.DRAW)
    return {"emil": emil, "franz": franz}


def urls(pool):
    return [
        reverse("ratings:pool_create"),
        reverse("ratings:transform", args=[pool.pk]),
        reverse("ratings:fide", args=[pool.pk]),
    ]


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_rating_officers_get_in(client, rated_club, plain_user, official, method):
    pool = rated_club["pool"]
    for url in urls(pool):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
    for user in (plain_user, official):
        client.force_login(user)
        for url in urls(pool):
            assert getattr(client, method)(url).status_code == 403, (user, url)
    assert PublishedList.objects.count() == 2 and RatingPool.objects.count() == 1


def test_create_a_pool(client, officer):
    client.force_login(officer)
    url = reverse("ratings:pool_create")
    html = client.get(url).content.decode()
    assert "Neuer Wertungspool" in html and 'value="oesb-2024"' in html
    response = client.post(
        url,
        {
            "name": "Schnellschach",
            "rules": "oesb-2024",
            "expectation": "table",
            "category": "rapid",
            "start_date": "2026-02-10",
        },
        follow=True,
    )
    pool = RatingPool.objects.get()
    assert (pool.name, pool.rules, pool.expectation, pool.category, pool.start_date) == (
        "Schnellschach",
        "oesb-2024",
        "table",
        "rapid",
        datetime.date(2026, 2, 10),
    )
    assert response.redirect_chain == [(f"{reverse('ratings:officer')}#pool-{pool.pk}", 302)]
    html = response.content.decode()
    assert (
        "Die Wertungsliste „Schnellschach“ ist angelegt; ihre erste Periode läuft 10.02.2026 – 31.03.2026."
        in html
    )
    # The same name again: the service's message, nothing created.
    html = client.post(
        url, {"name": "Schnellschach", "rules": "oesb-2024", "category": "rapid", "start_date": "10.02.2026"}
    ).content.decode()
    assert "Eine Wertungsliste namens „Schnellschach“ gibt es bereits." in html
    assert RatingPool.objects.count() == 1


def test_create_a_pool_in_english(english, officer):
    english.force_login(officer)
    response = english.post(
        reverse("ratings:pool_create"),
        {"name": "Blitz", "rules": "fide-2024", "category": "blitz", "start_date": "2026-03-05"},
        follow=True,
    )
    assert (
        "The pool “Blitz” is created; its first period runs 2026-03-05 – 2026-03-31."
        in response.content.decode()
    )
    html = english.get(reverse("ratings:pool_create")).content.decode()
    assert "New rating pool" in html and "Create the pool" in html


def test_transformation_preview_then_publish(client, rated_club, officer):
    client.force_login(officer)
    pool = rated_club["pool"]
    html = client.get(reverse("ratings:officer")).content.decode()
    url = reverse("ratings:transform", args=[pool.pk])
    assert f'href="{url}"' in html
    response = client.get(url)
    rows = [(r.name, r.old, r.new, r.change) for r in response.context["rows"]]
    # old + (2000 − old) × 0.333333, rounded: 1835 → 1890, 1977 → 1985, 1700 → 1800, 1500 → 1667.
    assert rows == [
        ("Huber, Bernd", 1977, 1985, 8),
        ("Berger, Anna", 1835, 1890, 55),
        ("Moser, Clara", 1700, 1800, 100),
        ("Alt, Dora", 1500, 1667, 167),
    ]
    html = response.content.decode()
    assert "Transformation 2024 von Standard" in html
    assert "Vorschau der neuen Liste (4 Einträge, 4 geändert)" in html
    assert '<td>Berger, Anna</td><td class="text-end">1835</td><td class="text-end">1890</td>' in html
    assert PublishedList.objects.filter(pool=pool).count() == 2  # only a preview

    response = client.post(url)
    plist = PublishedList.objects.get(pool=pool, kind=ListKind.TRANSFORMATION)
    assert response["Location"] == reverse("ratings:list", args=[plist.pk])
    assert plist.published_by == officer
    assert PoolMember.objects.get(pool=pool, member=rated_club["anna"]).rating == 1890
    html = client.get(reverse("ratings:officer")).content.decode()
    assert f'href="{url}"' not in html  # once per pool
    day = plist.published_at.astimezone().strftime("%d.%m.%Y")
    assert f"Transformation 2024</a>, veröffentlicht {day}" in html and "von officer" in html
    # A second attempt is refused with the service's message.
    response = client.post(url, follow=True)
    assert "Die Wertungsliste „Standard“ wurde bereits transformiert." in response.content.decode()


def test_transformation_in_english(english, rated_club, officer):
    english.force_login(officer)
    html = english.get(reverse("ratings:transform", args=[rated_club["pool"].pk])).content.decode()
    assert "2024 transformation of Standard" in html
    assert "Preview of the new list (4 entries, 4 changed); nothing is published until you confirm." in html
    assert '<td>Berger, Anna</td><td class="text-end">1835</td><td class="text-end">1890</td>' in html


def test_fide_takeover_preview_then_publish(client, rated_club, newcomers, officer):
    client.force_login(officer)
    pool = rated_club["pool"]
    url = reverse("ratings:fide", args=[pool.pk])
    assert f'href="{url}"' in client.get(reverse("ratings:officer")).content.decode()
    response = client.get(url)
    taken = [(t.name, t.fide, t.rating, t.converted) for t in response.context["taken"]]
    assert taken == [("Fuchs, Emil", 1700, 1600, True), ("Gruber, Franz", 1450, 1267, True)]
    html = response.content.decode()
    assert "FIDE-Elo in Standard übernehmen" in html
    assert "Die FIDE-Elo werden umgerechnet (österreichischer Pool nach dem 1.9.2024)." in html
    assert (
        '<tr><td>Fuchs, Emil</td><td class="text-end">1700</td><td class="text-end">1600</td></tr>' in html
    )
    assert not FideTakeover.objects.exists()

    # Only Emil: the preview follows the choice, the confirmation takes exactly that choice.
    emil, franz = newcomers["emil"], newcomers["franz"]
    response = client.get(url, {"member": [emil.pk]})
    assert [t.name for t in response.context["taken"]] == ["Fuchs, Emil"]
    assert f'<input type="hidden" name="member" value="{emil.pk}">' in response.content.decode()
    response = client.post(url, {"member": [emil.pk]})
    plist = PublishedList.objects.get(pool=pool, kind=ListKind.FIDE_TAKEOVER)
    assert response["Location"] == reverse("ratings:list", args=[plist.pk])
    assert [(t.member, t.rating, t.converted) for t in plist.fide_takeovers.all()] == [(emil, 1600, True)]
    assert plist.published_by == officer
    assert ListEntry.objects.get(list=plist, member=emil).rating == 1600
    assert PoolMember.objects.get(pool=pool, member=franz).rating is None
    # Bernd's draw against Emil is now rated (1977 against 1600), not pending.
    record = RatingRecord.objects.get(pool=pool, member=rated_club["bernd"], opponent=emil)
    assert (record.pending, record.own_rating, record.opponent_rating) == (False, 1977, 1600)

    html = client.get(reverse("ratings:officer")).content.decode()
    assert "FIDE-Elo übernommen</a>, veröffentlicht" in html and "Fuchs, Emil (1700 → 1600)" in html


def test_fide_takeover_refusals(client, rated_club, newcomers, officer):
    client.force_login(officer)
    url = reverse("ratings:fide", args=[rated_club["pool"].pk])
    html = client.get(url, {"member": [rated_club["anna"].pk]}).content.decode()
    assert f"Bitte eine gültige Auswahl treffen. {rated_club['anna'].pk} ist keine gültige Auswahl." in html
    assert not FideTakeover.objects.exists()


def test_fide_takeover_without_candidates_in_english(english, rated_club, officer):
    english.force_login(officer)
    html = english.get(reverse("ratings:fide", args=[rated_club["pool"].pk])).content.decode()
    assert "Take over FIDE ratings into Standard" in html
    assert '<p id="no-candidates">No newcomer of this pool has a FIDE rating.</p>' in html


def test_fide_takeover_in_english(english, rated_club, newcomers, officer):
    english.force_login(officer)
    url = reverse("ratings:fide", args=[rated_club["pool"].pk])
    html = english.get(url).content.decode()
    assert (
        "The FIDE ratings are converted (Austrian pool after 1.9.2024). "
        "Nothing is published until you confirm." in html
    )
    assert (
        '<tr><td>Gruber, Franz</td><td class="text-end">1450</td><td class="text-end">1267</td></tr>'
        in html
    )
    response = english.post(url, {"member": [newcomers["emil"].pk, newcomers["franz"].pk]}, follow=True)
    assert "2 first ratings taken over from FIDE are published." in response.content.decode()


@pytest.mark.parametrize(("given", "years"), [("", 7), ("0", None), ("10", 10)])
def test_create_a_pool_with_its_inactivity_setting(client, officer, given, years):
    client.force_login(officer)
    client.post(reverse("ratings:pool_create"), {
        "name": "Standard", "rules": "oesb-2024", "category": "standard", "start_date": "2026-01-01",
        "inactivity_years": given,
    })
    assert RatingPool.objects.get().inactivity_years == years


def test_the_new_pool_page_explains_each_rule_set_and_its_period_calendar(client, officer):
    client.force_login(officer)

    html = client.get(reverse("ratings:pool_create")).content.decode()

    assert '<span class="text-muted fw-normal">(oesb-classic)</span>' in html
    assert "2 Perioden im Jahr, 2027: 01.01.2027–30.06.2027, 01.07.2027–31.12.2027" in html
    assert "4 Perioden im Jahr, 2027: 01.01.2027–31.03.2027" in html
    assert "ein Turnier je Periode" in html  # Go's EGF rule sets
    assert "keine Wertungszahl unter 1200; erste Wertungszahl eines Neulings nach 7 Partien." in html


def test_the_import_page_explains_the_start_lists_id_column(client, rated_club, officer):
    client.force_login(officer)

    html = client.get(reverse("ratings:import", args=[rated_club["pool"].pk])).content.decode()

    assert ("<dt>„id“</dt><dd>Die nationale ID des Mitglieds (ÖSB-Nummer), wie auf seiner "
            "Mitgliedsseite") in html
