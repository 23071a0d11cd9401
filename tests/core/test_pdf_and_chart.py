"""The PDF renderer's CSS strings and static fetcher, and the SVG rating chart."""

import datetime
import re

import pytest
from django.utils import translation

from clubrating.core.charts import Series, rating_history_svg
from clubrating.core.pdf import _static_file, css_string


def test_css_string_escapes_quotes_backslashes_and_newlines():
    assert css_string('Club "Turm"\nA\\B') == '"Club \\22 Turm\\22 \\a A\\5c B"'


def test_css_string_cannot_close_the_style_element_or_the_string():
    hostile = "</style><meta http-equiv=refresh content='0;url=https://evil.example/'>&amp;\r\n\x00"
    assert css_string(hostile) == (
        '"\\3c /style\\3e \\3c meta http-equiv=refresh content=\\27 0;url=https://evil.example/\\27 \\3e '
        '\\26 amp;\\a \\0 "'
    )
    # Printed by a template it stays as it is: it is already safe HTML.
    from django.template import engines

    rendered = engines["django"].from_string("{% load css %}{{ text|css_string }}").render({"text": "a<b"})
    assert rendered == '"a\\3c b"'


def test_pdf_resources_come_from_the_static_files_only():
    body, mime_type = _static_file("http://clubrating.invalid/static/css/print.css")
    assert b"@page" in body and mime_type == "text/css"
    with pytest.raises(ValueError, match="must be static files"):
        _static_file("http://example.com/secret.css")
    with pytest.raises(ValueError, match="not found"):
        _static_file("http://clubrating.invalid/static/css/missing.css")


def grouped(svg: str) -> list[str]:
    """The texts of the chart (labels and tooltips) holding a digit-grouped number ("1.500")."""
    return [text for text in re.findall(r">([^<]+)<", svg) if re.search(r"\d[.,]\d{3}\b", text)]


def test_chart_without_points_is_empty():
    assert rating_history_svg([Series("Standard", [])], title="t", x_label="x", y_label="y") == ""


def test_chart_axes_are_localized_and_labelled():
    series = [
        Series("Standard", [(datetime.date(2020, 1, 1), 1500), (datetime.date(2024, 7, 1), 1712)]),
        Series("Schnellschach", [(datetime.date(2022, 1, 1), 1650)]),
    ]
    with translation.override("de-at"):
        svg = rating_history_svg(series, title="Verlauf", x_label="Datum", y_label="Wertung")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and svg.endswith("</svg>")
    # Ticks every 50 points from 1500 to 1750, never digit-grouped ("1.500" before), years on the time axis.
    assert [f">{tick}</text>" in svg for tick in ("1500", "1550", "1700", "1750")] == [True] * 4
    assert not grouped(svg)
    assert ">2021</text>" in svg and ">2024</text>" in svg
    assert ">Datum</text>" in svg and ">Wertung</text>" in svg
    # A second series gets its own dash pattern (black-and-white print) and a legend entry.
    assert 'stroke-dasharray="6 3"' in svg and ">Schnellschach</text>" in svg
    assert "<title>Standard: 01.01.2020 1500</title>" in svg


def test_chart_texts_are_escaped():
    hostile = '</title><img src=x onerror=alert(1)>"'
    series = [Series(hostile, [(datetime.date(2024, 1, 1), 1500), (datetime.date(2024, 7, 1), 1550)],
                     point_titles=[hostile, hostile])]
    svg = rating_history_svg(series, title=hostile, x_label=hostile, y_label=hostile)
    assert "<img" not in svg and "</title><img" not in svg
    escaped = "&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;&quot;"
    assert f'aria-label="{escaped}"' in svg
    assert svg.count(f"<title>{escaped}</title>") == 3  # the chart's and each point's
    assert svg.count(f">{escaped}</text>") == 3  # both axes and the legend


def test_chart_axis_in_english_is_not_grouped_either():
    series = [Series("Standard", [(datetime.date(2026, 1, 1), 1295), (datetime.date(2026, 7, 1), 1330)])]
    with translation.override("en"):
        svg = rating_history_svg(series, title="History", x_label="Date", y_label="Rating")
    assert ">1290</text>" in svg and ">1330</text>" in svg and not grouped(svg)
