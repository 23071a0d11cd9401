"""The players' table of a division's players page, drawn from rows worked out once."""

from __future__ import annotations

from django.utils.html import format_html_join

from clubrating.accounts.templatetags.privacy import team_player
from clubrating.core.formatting import decimal_text
from clubrating.core.templatetags.numbers import performance


def player_rows(request, lines: list, boards: list[int]) -> list[dict]:
    """The players' lines as the table shows them, each cell's text worked out once here (the
    name as ``team_player`` shows it to this reader, numbers by the ``numbers`` filters' rules):
    a division's hundred-odd lines with a cell per board cost the template a tag per cell."""
    context = {"request": request}
    texts: dict[tuple[float, int], str] = {}  # a handful of scores, each formatted once

    def text(value: float, places: int = 1) -> str:
        key = (value, places)
        if key not in texts:
            texts[key] = decimal_text(value, places)
        return texts[key]

    return [
        {
            "name": team_player(context, line.member),
            "team": line.team.name,
            "cells": format_html_join("", '<td class="num text-nowrap">{}</td>', (
                (f"{text(cell[0])}/{cell[1]}" if cell else "",) for cell in map(line.boards.get, boards))),
            "points": text(line.points),
            "games": line.games,
            "percent": text(line.percent, 0),
            "rp": performance(line.performance, len(line.opponents)),
        }
        for line in lines
    ]
