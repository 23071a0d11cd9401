"""A match card (both teams, the score or the forecast, every board) as HTML, drawn here: the
rounds page shows a round's cards, each a dozen boards of a few template tags, filters and
privacy checks per board, which cost the page about a quarter of its time as a template. Each
text is worked out as the template did (``numbers`` filters' rules, the ``date`` and ``time``
filters in the current time zone, ``team_player`` for the names as this reader may read them) and
escaped by ``format_html``; the markup is the template's own, byte for byte."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from clubrating.accounts.templatetags.privacy import team_player
from clubrating.core.formatting import decimal_text, points_text, rating_text

_RATED = '<span class="small text-muted league-rating">'
_STATUS_BADGES = {"disputed": "text-bg-danger", "entered": "text-bg-warning"}


def match_card(request, card: dict) -> SafeString:
    """``card`` (as the pages' ``_cards`` build it: the scored match ``m``, the sides' lineup
    visibility, the boards with their ratings, the averages and the forecast) as HTML."""
    m = card["m"]
    league = m.league
    context = {"request": request}
    score = ""
    if m.result:
        score = format_html('<span class="fw-bold fs-5 league-card-score">{} : {}</span>',
                            points_text(m.home_points), points_text(m.away_points))
    elif card.get("forecast"):
        home, away = card["forecast"]
        score = format_html(
            '<span class="small text-muted league-forecast" title="{}">{} {} : {}</span>',
            gettext("Expected board points from the ratings of the lineups"), gettext("Forecast"),
            decimal_text(home, 2), decimal_text(away, 2))
    status = ""
    if league.status != "open":
        status = format_html('<span class="badge ms-1 {}">{}</span>',
                             _STATUS_BADGES.get(league.status, "text-bg-success"),
                             league.get_status_display())
    absent = ""
    if league.absent:
        absent = format_html('<span class="badge text-bg-dark ms-1">{}</span>', gettext("team not appeared"))
    starts = timezone.localtime(league.starts_at)
    venue = format_html(" · {}", league.venue) if league.venue else ""
    head = format_html(
        '\n\n<div class="card mb-3 league-card" data-match="{}">\n'
        '  <div class="card-header d-flex flex-wrap justify-content-between align-items-center gap-2 py-2">\n'
        '    <a class="fw-bold text-decoration-none league-card-teams" href="{}">'
        '<span class="text-nowrap">{}</span> – <span class="text-nowrap">{}</span></a>\n'
        '    <span>{}\n    {}\n    {}</span>\n  </div>\n'
        '  <div class="px-2 pt-1 small text-muted league-card-when">{} {} {}{}</div>\n'
        '  <div class="table-responsive">\n  <table class="table table-sm mb-0 league-card-boards">\n'
        '    <tbody>',
        league.pk, reverse("leagues:public_match", args=[league.pk]), m.home.name, m.away.name,
        score, status, absent, formats.date_format(starts, "D"),
        formats.date_format(starts, "SHORT_DATE_FORMAT"), formats.time_format(starts, "H:i"), venue)
    visible = card["visible"]
    hidden = format_html('<span class="text-muted fst-italic">{}</span>',
                         gettext("hidden until the deadline"))
    empty = format_html('<span class="text-muted">{}</span>', gettext("empty board"))

    def side(shown: bool, player, rating, *, home: bool) -> str:
        """One side of a board: hidden, empty, or the name with its rating on the inner side."""
        if not shown:
            return hidden
        if not player:
            return empty
        name = team_player(context, player)
        if rating is None:
            return name
        rated = f'{_RATED}{escape(rating_text(rating, ""))}</span>'
        return f"{name} {rated}" if home else f"{rated} {name}"

    rows = []
    for b, (home_rating, away_rating) in card["rows"]:
        home = side(visible["home"], b.home, home_rating, home=True)
        away = side(visible["away"], b.away, away_rating, home=False)
        rows.append(
            f'<tr>\n      <td class="num text-muted">{conditional_escape(formats.localize(b.board))}</td>\n'
            f'      <td class="league-player">{home}</td>\n'
            f'      <td class="text-center text-nowrap fw-bold">{conditional_escape(b.result)}</td>\n'
            f'      <td class="league-player text-end">{away}</td>\n    </tr>')
    foot = ""
    averages = card.get("averages", (None, None))
    if averages[0] is not None or averages[1] is not None:
        foot = format_html(
            '<tfoot><tr class="small text-muted league-averages"><td></td><td>{}</td><td></td>'
            '<td class="text-end">{}</td></tr></tfoot>',
            *(format_html("Ø {}", rating_text(average, "")) if average is not None else ""
              for average in averages))
    # Every part is escaped: the texts by format_html or escape, the names by ``team_player``.
    return mark_safe(head + "".join(rows) + f"</tbody>\n    {foot}\n  </table>\n  </div>\n</div>\n\n")
