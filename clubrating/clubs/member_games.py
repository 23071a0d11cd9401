"""The member page's rated games as table rows, drawn here instead of by a template loop: a member
with hundreds of games has some 15 template nodes (tags, filters, an include) per game, which cost
his page more than reading them. Each cell's text is worked out as the template did (the
``numbers`` filters' rules, the ``privacy`` tags for the opponent) and escaped by ``format_html``;
the markup is the template's own, byte for byte. The opponent's name comes from the caller, as
the reader may see it (``accounts.templatetags.privacy``, which the views compose)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from clubrating.core.formatting import decimal_text, game_change_text, points_text, rating_text, signed
from clubrating.core.templatetags.numbers import performance

_KEY = 987654321  # a key no game has: the game page's address reversed once, each game's put in


def _day(value) -> str:
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def _pending_reason(record, tournament, opponent_name) -> str:
    """``ratings/_pending_reason.html``: whose first rating, or which period, the record waits
    for, or the own first rating it counts towards (``ratings.selectors.member._mark_pending``)."""
    if record.waits_for_period:
        if record.period_id:
            return gettext("not rated yet: waits for its rating period %(start)s–%(end)s to open") % {
                "start": escape(_day(record.period.start)), "end": escape(_day(record.period.end))}
        return gettext("not rated yet: waits for its rating period to open")
    if record.counts_for_first_rating:
        return gettext("counts towards the own first rating")
    if record.waits_for_own:
        return gettext("pending: waits for the own first rating (%(n)s of %(needed)s games)") % {
            "n": escape(formats.localize(record.own_games)),
            "needed": escape(formats.localize(record.needed_games))}
    name = opponent_name(record.opponent, tournament)
    return gettext("pending: waits for the first rating of %(name)s") % {"name": escape(name)}


def member_game_rows(records, *, opponent_link, opponent_name) -> SafeString:
    """The rows of a pool's games table on the member page (``clubs/_member_ratings.html``).
    ``opponent_link(member, tournament)`` is the opponent's name as HTML (the ``member_link`` or,
    in a team competition, ``team_player`` tag), ``opponent_name(member, tournament)`` as text
    (the ``board_player_text`` tag)."""
    shape = escape(reverse("tournaments:game", args=[_KEY]))
    white, black = escape(gettext("white")), escape(gettext("black"))
    parts = []
    for r in records:
        game = r.game
        tournament = game.round.tournament
        opponent = opponent_link(r.opponent, tournament)
        parts.append(format_html(
            '\n    <tr{}>\n      <td class="d-none d-sm-table-cell">{}</td>\n'
            '      <td class="d-none d-md-table-cell"><a href="{}">{}</a></td>\n'
            '      <td class="text-end d-none d-sm-table-cell">{}</td>\n'
            '      <td>{}</td>\n      <td class="d-none d-sm-table-cell">{}</td>\n'
            '      <td class="text-end">{}</td>\n      ',
            mark_safe(' class="text-muted"') if r.pending else "", _day(r.played_on),
            mark_safe(shape.replace(str(_KEY), str(game.pk))), tournament.name,
            formats.localize(game.round.number), opponent, mark_safe(white if r.white else black),
            points_text(r.score)))
        if r.pending or r.expected is None:
            parts.append(format_html('\n      <td colspan="6" class="small pending-reason">{}</td>\n      ',
                                     mark_safe(_pending_reason(r, tournament, opponent_name))))
        else:
            parts.append(format_html(
                '\n      <td class="text-end d-none d-md-table-cell">{}</td>\n'
                '      <td class="text-end">{}</td>\n'
                '      <td class="text-end d-none d-lg-table-cell">{}</td>\n'
                '      <td class="text-end d-none d-md-table-cell">{}</td>\n'
                '      <td class="text-end d-none d-lg-table-cell">{}</td>\n'
                '      <td class="text-end">{}</td>\n      ',
                rating_text(r.own_rating), rating_text(r.opponent_rating), _signed(r.difference, -3),
                decimal_text(r.expected, 3), decimal_text(r.factor, 2), game_change_text(r.change)))
        parts.append("\n    </tr>\n  ")
    return mark_safe("".join(parts))  # each part escaped by format_html


def _signed(value, places: int) -> str:
    # The ``signed`` filter's rule.
    return signed(None if value == "" else value, places)


def member_performance_rows(performances) -> SafeString:
    """The rows of a pool's performance table on the member page: per tournament the rated games
    and points (the games still waiting beside them), the opponents' average, the performance
    with the games it rests on and the change (``ratings.selectors.member.TournamentPerformance``)."""
    shape = escape(reverse("tournaments:detail", args=[_KEY]))
    parts = []
    for perf in performances:
        tournament = perf.tournament
        games = formats.localize(perf.games)
        points = points_text(perf.points)
        if perf.unrated:
            pending = ngettext("%(n)s pending", "%(n)s pending", perf.unrated) % {
                "n": escape(formats.localize(perf.unrated))}
            games = format_html('{} <small class="text-muted">(+{})</small>', games, mark_safe(pending))
            points = format_html('{} <small class="text-muted">(+{})</small>', points,
                                 points_text(perf.unrated_points))
        parts.append(format_html(
            '\n    <tr><td class="wrap-words"><a href="{}">{}</a></td>\n'
            '      <td class="text-end d-none d-sm-table-cell">{}</td>\n'
            '      <td class="text-end">{}</td>\n'
            '      <td class="text-end d-none d-sm-table-cell">{}</td>\n'
            '      <td class="text-end d-none d-sm-table-cell">{}</td><td class="text-end">{}</td></tr>\n  ',
            mark_safe(shape.replace(str(_KEY), str(tournament.pk))), tournament.name, games, points,
            decimal_text(perf.average, 0) or "—", performance(perf.performance, len(perf.opponents), "—"),
            game_change_text(perf.change, "—")))
    return mark_safe("".join(parts))  # each part escaped by format_html
