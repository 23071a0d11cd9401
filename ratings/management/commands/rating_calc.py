"""Rating calculator: one player's change against a list of opponents.

    manage.py rating_calc --rules oesb-classic --rating 1830 --games 40 --vs 1980:0.5 --vs 1700:1
"""

from __future__ import annotations

import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ratings.rules import (
    DEFAULT_RULES,
    PRESETS,
    GameIn,
    PlayerIn,
    UnknownRules,
    evaluate_period,
    expected_score,
    get_rules,
)
from ratings.rules.results import UnreadableResult, parse_score

ME = "me"


def parse_vs(text: str) -> tuple[float, float]:
    """"OPPONENT_RATING:RESULT" -> (rating, score); CommandError when unreadable."""
    rating_text, sep, result_text = text.partition(":")
    try:
        score = parse_score(result_text)
    except UnreadableResult:
        score = None
    try:
        rating = float(rating_text)
    except ValueError:
        rating = None
    if not sep or score is None or rating is None or rating <= 0:
        raise CommandError(
            _("--vs %(value)s: expected OPPONENT_RATING:RESULT, RESULT one of 1, 1.00, 1-0, 0.5, 0,50, ½, "
              "=, 0, 0.00 or 0-1.")
            % {"value": text}
        )
    return (int(rating) if rating.is_integer() else rating), score


class Command(BaseCommand):
    help = "Rating change of one player against a list of opponents."

    def add_arguments(self, parser):
        parser.add_argument("--rules", default=DEFAULT_RULES, help=f"rule set: {', '.join(PRESETS)}")
        parser.add_argument("--rating", type=float, default=None,
                            help="published rating (omit for a newcomer)")
        parser.add_argument("--games", type=int, default=0, help="games count on the last published list")
        parser.add_argument("--birth-year", type=int, default=None, help="birth year (FIDE junior K)")
        parser.add_argument("--peak-rating", type=float, default=None,
                            help="highest published rating ever reached (FIDE: K 10 once 2400 was reached)")
        parser.add_argument("--vs", action="append", default=[], metavar="RATING:RESULT",
                            help="an opponent and the result, e.g. 1980:0.5 (repeatable)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        try:
            rules = get_rules(options["rules"])
        except UnknownRules:
            raise CommandError(
                _("Unknown rule set %(name)s. Valid: %(valid)s.")
                % {"name": options["rules"], "valid": ", ".join(PRESETS)}
            ) from None
        if options["games"] < 0:
            raise CommandError(_("--games must not be negative."))
        rating = options["rating"]
        if rating is not None:
            if rating <= 0:
                raise CommandError(_("--rating must be positive."))
            rating = int(rating) if rating.is_integer() else rating
        peak = options["peak_rating"]
        if peak is not None:
            if peak <= 0:
                raise CommandError(_("--peak-rating must be positive."))
            peak = int(peak) if peak.is_integer() else peak
        opponents = [parse_vs(v) for v in options["vs"]]
        data = calculate(rules, rating, options["games"], options["birth_year"], opponents, peak_rating=peak)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
        else:
            self.stdout.write(render(data))


def calculate(rules, rating, games_count, birth_year, opponents, *, peak_rating=None) -> dict:
    players = [PlayerIn(ME, rating, games_count, birth_year, peak_rating=peak_rating)]
    players += [PlayerIn(i, r, 1000) for i, (r, _) in enumerate(opponents)]
    games = [GameIn(i, ME, i, s) for i, (_, s) in enumerate(opponents)]
    result = evaluate_period(rules, players, games, year=date.today().year)
    me = result.players[ME]
    data = {"rules": rules.name, "rating": rating}
    if me.newcomer:
        start = me.start_value
        data["factor"] = None
        data["games"] = [
            {
                "opponent": r, "result": s,
                "difference": None if start is None else start - r,
                "expected": None if start is None else expected_score(rules, start, r),
                "change": None,
            }
            for r, s in opponents
        ]
        data["change"] = None
        data["new_rating"] = me.new_rating
        data["start_value"] = start
        data["published"] = me.published
        return data
    calcs = {c.opponent: c for c in result.games if c.player == ME}
    data["factor"] = me.factor
    data["games"] = [
        {
            "opponent": r, "result": s, "difference": calcs[i].difference,
            "expected": calcs[i].expected, "change": calcs[i].change,
        }
        for i, (r, s) in enumerate(opponents)
    ]
    data["change"] = me.change
    data["new_rating"] = me.new_rating
    return data


def _num(value, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def render(data: dict) -> str:
    lines = [
        _("Rule set: %(rules)s") % {"rules": data["rules"]},
        _("Rating: %(rating)s") % {"rating": _("newcomer") if data["rating"] is None else data["rating"]},
    ]
    if data["factor"] is not None:
        lines.append(_("Factor: %(factor)s") % {"factor": _num(data["factor"], 2)})
    # Headings outside the f-string, so that makemessages finds them.
    heads = (_("Opponent"), _("Result"), _("Diff."), _("Expected"), pgettext("rating", "Change"))
    lines.append("{:>10} {:>7} {:>8} {:>9} {:>8}".format(*heads))
    for g in data["games"]:
        lines.append(
            f"{g['opponent']:>10} {g['result']:>7} {_num(g['difference'], 0):>8} "
            f"{_num(g['expected'], 3):>9} {_num(g['change'], 2):>8}"
        )
    if data["change"] is not None:
        lines.append(pgettext("rating", "Change: %(change)s") % {"change": _num(data["change"], 3)})
    if "start_value" in data:
        lines.append(_("Start value: %(value)s") % {"value": _num(data["start_value"], 1)})
        published = _("yes") if data["published"] else _("no")
        lines.append(_("Published: %(published)s") % {"published": published})
    new = "–" if data["new_rating"] is None else data["new_rating"]
    lines.append(_("New rating: %(rating)s") % {"rating": new})
    return "\n".join(lines)
