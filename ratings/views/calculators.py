"""Calculators for everyone: rating change, team-match forecast, newcomer start value.

They only call the engine (``ratings.rules``), exactly as the pools do, so a calculator and a
published list always agree.
"""

from __future__ import annotations

import dataclasses
import datetime

from django.shortcuts import render

from ratings.forms import NewcomerForm, OpponentFormSet, RatingChangeForm, TeamForecastForm
from ratings.rule_names import rules_name
from ratings.rules.engine import evaluate_period
from ratings.rules.expectation import expected_score
from ratings.rules.forecast import team_forecast_exact, team_forecast_quick
from ratings.rules.period import GameIn, PlayerIn
from ratings.rules.presets import Rules, get_rules
from ratings.rules.rounding import round_half_away

ME = "me"


def rules_from_choice(choice: str) -> Rules:
    """``oesb-classic+table`` = the preset with the Austrian expectation table (§1.1)."""
    name, _sep, variant = choice.partition("+")
    rules = get_rules(name)
    return dataclasses.replace(rules, expectation="table") if variant == "table" else rules


def rules_heading(choice: str) -> dict:
    """The prose name of a choice and its code, for the result headings."""
    name, _sep, variant = choice.partition("+")
    return {"rules_name": rules_name(name, table=variant == "table"), "rules_code": choice}


def split_forecast(points_a: float, boards: int) -> tuple[float, float]:
    """Team A's expected points rounded to two decimals, and B's as the rest of the boards, so
    that the two sides add up to the number of boards (3.63 : 2.37, never 3.63 : 2.38)."""
    a = round_half_away(points_a, 2)
    return a, round_half_away(boards - a, 2)


def evaluate_games(rules: Rules, *, rating: int | None, games: list[tuple[int, float]],
                   games_count: int = 0, birth_year: int | None = None, peak_rating: int | None = None):
    """One player (``ME``) against fixed-rating opponents, through the period engine."""
    players = [PlayerIn(ME, rating, games_count=games_count, birth_year=birth_year, peak_rating=peak_rating)]
    games_in = []
    for index, (opponent, score) in enumerate(games):
        key = f"opp{index}"
        players.append(PlayerIn(key, opponent, games_count=100))
        games_in.append(GameIn(index, ME, key, score, only_for=ME))
    result = evaluate_period(rules, players, games_in, year=datetime.date.today().year)
    calcs = sorted((c for c in result.games if c.player == ME), key=lambda c: c.game.key)
    return result.players[ME], calcs


def calculators(request):
    return render(request, "ratings/calculators/index.html")


def rating_change(request):
    form = RatingChangeForm(request.GET or None)
    formset = OpponentFormSet(request.GET or None, prefix="g")
    context = {"form": form, "formset": formset}
    if request.GET and form.is_valid() and formset.is_valid():
        rules = rules_from_choice(form.cleaned_data["rules"])
        player, calcs = evaluate_games(
            rules, rating=form.cleaned_data["rating"], games=formset.games(),
            games_count=form.cleaned_data["games_count"] or 0, birth_year=form.cleaned_data["birth_year"],
            peak_rating=form.cleaned_data["peak_rating"],
        )
        context.update(rules=rules, player=player, calcs=calcs, **rules_heading(form.cleaned_data["rules"]))
    return render(request, "ratings/calculators/rating_change.html", context)


def newcomer(request):
    form = NewcomerForm(request.GET or None)
    formset = OpponentFormSet(request.GET or None, prefix="g")
    context = {"form": form, "formset": formset}
    if request.GET and form.is_valid() and formset.is_valid():
        rules = rules_from_choice(form.cleaned_data["rules"])
        games = formset.games()
        player, _calcs = evaluate_games(rules, rating=None, games=games)
        n = len(games)
        points = sum(score for _r, score in games)
        average = sum(r for r, _s in games) / n
        context.update(
            rules=rules, player=player, n=n, points=points, average=average,
            **rules_heading(form.cleaned_data["rules"]),
            # The ÖSB start formula, shown for the oesb family (other families use their own method).
            formula_term=rules.start_scale * (points / n - 0.5) * n / (n + 2),
            shows_formula=rules.first_rating == "oesb" and not rules.hypothetical_draws,
        )
    return render(request, "ratings/calculators/newcomer.html", context)


def team_forecast(request):
    form = TeamForecastForm(request.GET or None)
    context = {"form": form}
    if request.GET and form.is_valid():
        rules = rules_from_choice(form.cleaned_data["rules"])
        team_a, team_b = form.cleaned_data["team_a"], form.cleaned_data["team_b"]
        boards = [
            {"board": i + 1, "a": a, "b": b, "difference": a - b, "expected": expected_score(rules, a, b)}
            for i, (a, b) in enumerate(zip(team_a, team_b))
        ]
        quick, quick_b = split_forecast(team_forecast_quick(team_a, team_b), len(boards))
        exact, exact_b = split_forecast(team_forecast_exact(rules, team_a, team_b), len(boards))
        context.update(
            rules=rules, boards=boards, quick=quick, exact=exact, boards_count=len(boards),
            quick_b=quick_b, exact_b=exact_b, sum_a=sum(team_a), sum_b=sum(team_b),
            **rules_heading(form.cleaned_data["rules"]),
        )
    return render(request, "ratings/calculators/team_forecast.html", context)

