"""Calculators: rating change, newcomer start value, team-match forecast (both languages)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def games(*pairs):
    data = {"g-TOTAL_FORMS": "10", "g-INITIAL_FORMS": "0", "g-MIN_NUM_FORMS": "0", "g-MAX_NUM_FORMS": "60"}
    for index, (opponent, result) in enumerate(pairs):
        data[f"g-{index}-opponent"] = str(opponent)
        data[f"g-{index}-result"] = result
    return data


def test_index_links_every_calculator(client):
    html = client.get(reverse("ratings:calculators")).content.decode()
    for name in ("calc_change", "calc_forecast", "calc_newcomer"):
        assert reverse(f"ratings:{name}") in html
    assert "Wertungsänderung" in html


def test_rating_change_oesb_example_in_german(client):
    # Austrian national rating rules: 1830 vs 1980, draw -> +5 (F 24.6, E 0.30).
    response = client.get(reverse("ratings:calc_change"),
                          {"rules": "oesb-classic", "rating": "1830", "games_count": "10",
                           **games((1980, "0.5"))})
    html = response.content.decode()
    assert response.context["player"].rounded_change == 5
    assert '<dd class="col-sm-7" id="rounded-change">+5</dd>' in html
    assert '<dd class="col-sm-7" id="new-rating">1835</dd>' in html
    # The per-game arithmetic: (0.5 - E) x F with German decimals.
    assert "(0,5 − 0,300) × 24,65" in html
    assert "<td class=\"text-end\">+4,9</td>" in html  # a change not yet rounded: one decimal


def test_rating_change_several_games_in_english(english):
    # Their second example (1950 vs 1820, loss -> -14) plus a win against 1950.
    response = english.get(reverse("ratings:calc_change"), {
        "rules": "oesb-classic", "rating": "1950", "games_count": "0", **games((1820, "0"), (1950, "1")),
    })
    html = response.content.decode()
    calcs = response.context["calcs"]
    assert [round(c.change, 2) for c in calcs] == [-14.21, 10.51]
    assert response.context["player"].rounded_change == -4
    assert '<dd class="col-sm-7" id="rounded-change">−4</dd>' in html
    assert '<dd class="col-sm-7" id="new-rating">1946</dd>' in html
    assert "(0.0 − 0.676) × 21.03" in html
    assert "Rating change" in html


def test_rating_change_with_the_table_variant(client):
    response = client.get(reverse("ratings:calc_change"),
                          {"rules": "oesb-classic+table", "rating": "1830", **games((1980, "0.5"))})
    assert response.context["rules"].expectation == "table"
    assert round(response.context["calcs"][0].expected, 2) == 0.30


def test_rating_change_validation_is_translated(client, english):
    html = client.get(reverse("ratings:calc_change"),
                      {"rules": "oesb-classic", "rating": "1830", **games((1980, ""))}).content.decode()
    assert "Bitte Wertung des Gegners und Ergebnis angeben oder beides leer lassen." in html
    html = english.get(reverse("ratings:calc_change"), {"rules": "oesb-classic", "rating": "1830", **games()}
                       ).content.decode()
    assert "Enter at least one game." in html


def test_newcomer_start_value(client):
    # 7 games against an average of 1600 with 5 points: 1600 + 700 (5/7 - 0.5) 7/9 = 1716.67.
    pairs = [(1500, "1"), (1600, "1"), (1700, "0.5"), (1550, "1"), (1650, "0.5"), (1600, "1"), (1600, "0")]
    response = client.get(reverse("ratings:calc_newcomer"), {"rules": "oesb-classic", **games(*pairs)})
    html = response.content.decode()
    assert '<dd class="col-sm-6" id="start-value">1716,67</dd>' in html
    assert '<dd class="col-sm-6" id="published-value">1717</dd>' in html
    assert "1600,0 + 700 × (5,0/7 − 0,5) × 7/(7 + 2) = 1600,0 + 116,67" in html


def test_newcomer_with_too_few_games_in_english(english):
    response = english.get(reverse("ratings:calc_newcomer"), {"rules": "oesb-classic", **games((1600, "1"))})
    html = response.content.decode()
    assert "not yet: a first rating needs at least 7 rated games" in html


def test_team_forecast_dsb_example(client, english):
    # DSB 1990 ELO list explanation: A (1984, 1808) vs B (1744, 1648) -> 1.50 for A, whatever the board order.
    params = {"rules": "oesb-classic", "team_a": "1984 1808", "team_b": "1648, 1744"}
    html = client.get(reverse("ratings:calc_forecast"), params).content.decode()
    assert '<dd class="col-sm-6" id="quick">1,50 : 0,50</dd>' in html
    response = english.get(reverse("ratings:calc_forecast"), params)
    assert response.context["quick"] == 1.5
    # The exact forecast sums the boards (0.8802 + 0.5894 = 1.4696) and is shown to two decimals.
    assert [round(b["expected"], 4) for b in response.context["boards"]] == [0.8802, 0.5894]
    assert (response.context["exact"], response.context["exact_b"]) == (1.47, 0.53)
    assert 'id="quick">1.50 : 0.50</dd>' in response.content.decode()


def test_team_forecast_refuses_unequal_lineups(client):
    html = client.get(reverse("ratings:calc_forecast"),
                      {"rules": "oesb-classic", "team_a": "1984 1744 1500", "team_b": "1808 1648"}
                      ).content.decode()
    assert "Beide Mannschaften brauchen gleich viele Bretter (3 gegen 2)." in html
    html = client.get(reverse("ratings:calc_forecast"),
                      {"rules": "oesb-classic", "team_a": "1984 abc", "team_b": "1808 1648"}).content.decode()
    assert "„abc“ ist keine Wertungszahl zwischen 0 und 3500." in html


def test_forecast_sides_add_up_to_the_boards(english):
    # Quick: 500 / 800 + 3 = 3.625 for A; B gets 6 - 3.63 = 2.37, not a separately rounded 2.38.
    params = {"rules": "oesb-classic", "team_a": "2100 2000 1900 1800 1700 1600",
              "team_b": "2000 1900 1800 1700 1600 1600"}
    response = english.get(reverse("ratings:calc_forecast"), params)
    html = response.content.decode()
    assert 'id="quick">3.63 : 2.37</dd>' in html
    assert response.context["exact"] + response.context["exact_b"] == 6
    assert "Quick forecast (after the 1990 German ELO list explanation)" in html
    assert "seed" not in html.lower() and "Quelle" not in html


@pytest.mark.parametrize("name", ["calc_change", "calc_newcomer", "calc_forecast"])
def test_get_forms_carry_no_csrf_token(client, name):
    html = client.get(reverse(f"ratings:{name}")).content.decode()
    start = html.index('<form method="get"')
    form = html[start:html.index("</form>", start)]
    assert 'name="rules"' in form and "csrfmiddlewaretoken" not in form


def test_rule_sets_are_offered_by_prose_name(client):
    html = client.get(reverse("ratings:calc_change")).content.decode()
    assert '<option value="fide-2025">FIDE ab Oktober 2025 (fide-2025)</option>' in html
    assert ('<option value="oesb-classic" selected>Österreich (ÖSB) klassisch, 1200er-Grenze, '
            "Faktorreduktion (oesb-classic)</option>") in html
    response = client.get(reverse("ratings:calc_change"),
                          {"rules": "fide-2025", "rating": "2813", "games_count": "100",
                           **games((1787, "1.00"))})
    assert "FIDE ab Oktober 2025" in response.content.decode()
    assert response.context["rules_code"] == "fide-2025"


def test_fide_2025_in_the_calculator(english):
    # FIDE 8.3.1 from October 2025: 2813 beats 1787, full difference 1026 -> E 1.00 -> 0.00.
    response = english.get(reverse("ratings:calc_change"),
                           {"rules": "fide-2025", "rating": "2813", "games_count": "100",
                            **games((1787, "1.00"))})
    calc = response.context["calcs"][0]
    assert (calc.difference, calc.expected, calc.factor, calc.change) == (1026, 1.0, 10, 0.0)


def test_peak_rating_gives_k_10(english):
    # 2395 now, 2400 reached before: K 10, a win against 2395 gives +5 (not +10 with K 20).
    params = {"rules": "fide-2024", "rating": "2395", "games_count": "100", **games((2395, "1"))}
    assert english.get(reverse("ratings:calc_change"), params).context["player"].factor == 20
    response = english.get(reverse("ratings:calc_change"), {**params, "peak_rating": "2410"})
    assert response.context["player"].factor == 10
    assert response.context["player"].rounded_change == 5


@pytest.mark.parametrize(("written", "score"), [("1.00", 1.0), ("0,50", 0.5), ("0.00", 0.0), ("½", 0.5)])
def test_results_written_as_decimals(english, written, score):
    response = english.get(reverse("ratings:calc_change"),
                           {"rules": "oesb-classic", "rating": "1830", **games((1980, written))})
    assert response.context["calcs"][0].score == score


def test_unreadable_result_is_refused_in_german(client):
    html = client.get(reverse("ratings:calc_change"),
                      {"rules": "oesb-classic", "rating": "1830", **games((1980, "0.25"))}).content.decode()
    assert "„0.25“ ist kein Ergebnis: 1, 0.5 oder 0 (auch 1.00, 0,5, ½, 1-0, 0-1)." in html
