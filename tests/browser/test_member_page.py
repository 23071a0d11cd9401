"""A member logs in, opens his page from the navigation and sees his chart and his games."""

import pytest
from django.contrib.auth.models import User

from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_member_opens_his_page_and_sees_chart_and_games(
    page, live_server, login, shoot, rated_club,  # noqa: F811 (the imported fixture)
):
    anna = rated_club["anna"]
    anna.user = User.objects.create_user("anna", password="anna-pw")
    anna.save(update_fields=["user"])
    login(page, "anna", "anna-pw")
    page.get_by_role("link", name="Meine Seite").click()
    # The click does not wait for the next page; the load state of the page it left is no answer.
    page.wait_for_url(f"{live_server.url}{anna.get_absolute_url()}")
    assert page.url == f"{live_server.url}{anna.get_absolute_url()}"
    assert page.locator("h1").inner_text() == "Anna Berger"

    chart = page.locator("#rating-chart svg")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box["width"] > 400 and box["height"] > 150
    assert chart.get_attribute("aria-label") == "Wertungsverlauf von Berger, Anna"
    # Two published lists and the provisional live value.
    assert chart.locator("circle").count() == 3
    assert chart.locator("text", has_text="Datum").count() == 1

    games = page.locator("table.games tbody tr")
    assert games.count() == 2
    assert games.nth(0).locator("td").all_inner_texts() == [
        "01.03.2026", "Frühjahrsturnier 2026", "1", "Huber, Bernd", "Weiß", "0,5",
        "1830", "1980", "−150", "0,300", "24,65", "+4,9",
    ]
    assert page.locator("#ratings tbody td").nth(2).inner_text() == "1843 vorläufig"
    shoot(page, "member-page")
