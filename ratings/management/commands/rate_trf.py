"""Evaluate a TRF tournament as one rating period against the ratings in the file.

    manage.py rate_trf tournament.trf --rules fide-2024 --json
"""

from __future__ import annotations

import json
from datetime import date

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.formats.trf import TrfError, TrfTournament, played_games, read_trf
from clubrating.interchange.refusals import file_error, trf_message
from ratings.rules import DEFAULT_RULES, PRESETS, UnknownRules, evaluate_period, get_rules
from ratings.rules.performance import performance_exact
from ratings.rules.period import GameIn, PlayerIn


class Command(FileCommand):
    help = "Evaluate a TRF tournament file as one rating period."

    def add_arguments(self, parser):
        parser.add_argument("path", help="TRF16 file")
        parser.add_argument("--rules", default=DEFAULT_RULES, help=f"rule set: {', '.join(PRESETS)}")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        try:
            rules = get_rules(options["rules"])
        except UnknownRules:
            raise CommandError(
                _("Unknown rule set %(name)s. Valid: %(valid)s.")
                % {"name": options["rules"], "valid": ", ".join(PRESETS)}
            ) from None
        path = options["path"]
        try:
            tournament = read_trf(path)
            players, games = period_data(tournament)
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": file_error(exc)}
            ) from None
        except TrfError as exc:  # checked as import_trf checks it, in the same words
            raise CommandError(
                _("%(path)s: %(message)s") % {"path": path, "message": trf_message(exc)}) from None
        data = rate(rules, tournament, players, games)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
        else:
            self.stdout.write(render(data))


def period_data(tournament: TrfTournament) -> tuple[list[PlayerIn], list[GameIn]]:
    """Every player line (rating 0 or blank: newcomer; TRF files carry no games counts) and the
    games played over the board, keyed (round, white, black); forfeits, byes and unrated W/D/L
    results are not rated: only games played over the board count."""
    players = [
        PlayerIn(key=p.start_rank, rating=p.rating, games_count=0, birth_year=p.birth_year)
        for p in tournament.players
    ]
    games = [
        GameIn((g.round, g.white, g.black), g.white, g.black, g.white_score)
        for g in played_games(tournament)
    ]
    return players, games


def rate(rules, tournament, players, games) -> dict:
    when = tournament.end_date or tournament.start_date or date.today()
    result = evaluate_period(rules, players, games, year=when.year)
    opponents: dict[int, list[float]] = {}
    for calc in result.games:  # rated players: the games counted, at the values used
        opponents.setdefault(calc.player, []).append(calc.opponent_rating)
    rating_of = {p.key: p.rating for p in players}
    out = []
    for p in tournament.players:
        r = result.players[p.start_rank]
        entry = {
            "start_rank": p.start_rank,
            "name": p.name,
            "rating": p.rating,
            "games": r.games,
            "score": r.points,
            "expected": r.expected,
        }
        if r.newcomer:
            # Newcomers: performance against their rated opponents (ratings in the file).
            own = [(g.opponent, g.points) for g in p.results if g.is_played]
            rated = [(rating_of[o], pts) for o, pts in own if rating_of[o] is not None]
            entry.update(
                factor=None, change=None, new_rating=r.new_rating,
                performance=performance_exact([x for x, _ in rated], sum(s for _, s in rated)),
                start_value=r.new_rating if r.published else None,
            )
        else:
            entry.update(
                factor=r.factor, change=r.change, new_rating=r.new_rating,
                performance=performance_exact(opponents.get(p.start_rank, []), r.points),
            )
        entry["pending_games"] = r.pending_games
        if r.markers:
            entry["markers"] = r.markers
        out.append(entry)
    return {"tournament": tournament.name, "rules": rules.name, "players": out}


def _num(value, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def render(data: dict) -> str:
    lines = [
        _("Tournament: %(name)s") % {"name": data["tournament"]},
        _("Rule set: %(rules)s") % {"rules": data["rules"]},
    ]
    # Headings outside the f-string, so that makemessages finds them.
    heads = (_("No."), _("Name"), _("Rating"), _("Games"), _("Score"), _("Exp."), _("Factor"),
             pgettext("rating", "Change"), _("New"), _("Perf."))
    lines.append("{:>4} {:<32} {:>6} {:>5} {:>5} {:>6} {:>6} {:>7} {:>6} {:>5}".format(*heads))
    for p in data["players"]:
        lines.append(
            f"{p['start_rank']:>4} {p['name'][:32]:<32} {p['rating'] or '':>6} {p['games']:>5} "
            f"{_num(p['score'], 1):>5} {_num(p['expected'], 2):>6} {_num(p['factor'], 1):>6} "
            f"{_num(p['change'], 2):>7} {p['new_rating'] or '':>6} {p['performance'] or '':>5}"
        )
    return "\n".join(lines)
