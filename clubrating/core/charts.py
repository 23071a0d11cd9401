"""Line charts drawn on the server as inline SVG: no JavaScript, sharp in print and in PDFs.

Ratings are written as everywhere else (``clubrating.core.formatting.rating_text``: "1834", never
grouped), dates for the active language (22.11.2026 in German).
Each series gets its own colour *and* dash pattern and marker, so the chart stays readable
when printed in black and white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from clubrating.core.formatting import rating_text

STYLES = [  # (colour, dash pattern); dark enough for grey-scale printers
    ("#0b4f9c", ""),
    ("#b3261e", "6 3"),
    ("#1b7a3a", "2 2"),
    ("#6a3d9a", "8 3 2 3"),
]
NICE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]


@dataclass
class Series:
    label: str
    points: list[tuple[date, float]]
    # The last point is a live (provisional) value: drawn dashed with a hollow marker.
    provisional_last: bool = False
    point_titles: list[str] = field(default_factory=list)


def _nice_step(span: float, max_ticks: int = 6) -> float:
    for step in NICE_STEPS:
        if span / step <= max_ticks:
            return step
    return 10 ** math.ceil(math.log10(span))


def _y_range(values: list[float]) -> tuple[float, float, float]:
    low, high = min(values), max(values)
    if high - low < 20:  # a flat history still needs a readable scale
        low, high = low - 10, high + 10
    step = _nice_step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _x_ticks(first: date, last: date) -> list[date]:
    if (last - first).days > 2 * 366:
        return [date(year, 1, 1) for year in range(first.year + 1, last.year + 1)]
    ticks, current = [], date(first.year, first.month, 1)
    months = max(1, ((last - first).days // 30) // 5 + 1)
    while current <= last:
        if current >= first:
            ticks.append(current)
        month = current.month - 1 + months
        current = date(current.year + month // 12, month % 12 + 1, 1)
    return ticks or [first]


def _fmt_number(value: float) -> str:
    """A rating on the axis or at a point, never digit-grouped; whole from 100 on."""
    value = float(value)
    return rating_text(round(value) if value.is_integer() or abs(value) >= 100 else value)


def rating_history_svg(
    series: list[Series], *, title: str, x_label: str, y_label: str, width: int = 720, height: int = 280
) -> SafeString:
    """The chart as an ``<svg>`` element; an empty string when there is nothing to draw."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return mark_safe("")
    left, right, top, bottom = 64, 40, 16, 58 + 18 * ((len(drawn) + 1) // 2)
    plot_w, plot_h = width - left - right, height - top - bottom
    dates = [d for s in drawn for d, _ in s.points]
    first, last = min(dates), max(dates)
    if first == last:
        first, last = first - timedelta(days=30), last + timedelta(days=30)
    y_min, y_max, y_step = _y_range([v for s in drawn for _, v in s.points])

    def x_of(day: date) -> float:
        return left + plot_w * (day - first).days / (last - first).days

    def y_of(value: float) -> float:
        return top + plot_h * (1 - (value - y_min) / (y_max - y_min))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(title)}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="#000"/>',
    ]
    tick = y_min
    while tick <= y_max + 1e-9:
        y = y_of(tick)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ccc"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{_fmt_number(tick)}</text>')
        tick += y_step
    for day in _x_ticks(first, last):
        x = x_of(day)
        label = str(day.year) if (day.month, day.day) == (1, 1) and (last - first).days > 2 * 366 else (
            formats.date_format(day, "SHORT_DATE_FORMAT"))
        parts.append(
            f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 5}" stroke="#000"/>'
        )
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 18}" text-anchor="middle">{escape(label)}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 36}" text-anchor="middle" '
        f'font-weight="bold">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text transform="translate(14 {top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
        f'font-weight="bold">{escape(y_label)}</text>'
    )
    for index, s in enumerate(drawn):
        colour, dash = STYLES[index % len(STYLES)]
        coords = [(x_of(d), y_of(v)) for d, v in s.points]
        solid = coords[:-1] if s.provisional_last and len(coords) > 1 else coords
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        if len(solid) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in solid)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}/>'
            )
        if s.provisional_last and len(coords) > 1:
            (x1, y1), (x2, y2) = coords[-2], coords[-1]
            parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                         f'stroke-width="1.5" stroke-dasharray="1 3"/>')
        for point_index, ((x, y), (day, value)) in enumerate(zip(coords, s.points)):
            hollow = s.provisional_last and point_index == len(coords) - 1
            tip = (s.point_titles[point_index] if point_index < len(s.point_titles)
                   else f"{s.label}: {formats.date_format(day, 'SHORT_DATE_FORMAT')} {_fmt_number(value)}")
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{"#fff" if hollow else colour}" '
                f'stroke="{colour}" stroke-width="1.5"><title>{escape(tip)}</title></circle>'
            )
        legend_x = left + (index % 2) * (plot_w / 2)
        legend_y = top + plot_h + 54 + 18 * (index // 2)
        parts.append(
            f'<line x1="{legend_x:.1f}" y1="{legend_y - 4}" x2="{legend_x + 28:.1f}" '
            f'y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"{dash_attr}/>'
        )
        parts.append(f'<text x="{legend_x + 34:.1f}" y="{legend_y}">{escape(s.label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
