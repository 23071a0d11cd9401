"""Print layouts, PDFs and table exports of standings, crosstable and pairings."""

from collections.abc import Callable

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import public_tournaments_required
from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs.selectors import home_club_name
from clubrating.core.downloads import download_name
from clubrating.core.exports import EXPORT_FORMATS, ExportColumn, export_response
from clubrating.core.pdf import print_context, render_pdf_response

from ..models import Round, Tournament, TournamentKind
from ..tiebreaks import decimals_for
from . import _standings, _tables
from .public import national_label, rounds_with_pairings

PRINT_KINDS = ("standings", "crosstable")


def _lines(tournament: Tournament, extra: str = "") -> list[str]:
    dates = tournament.start_date.strftime("%d.%m.%Y")
    if tournament.end_date:
        dates += "–" + tournament.end_date.strftime("%d.%m.%Y")
    return [tournament.get_kind_display(), tournament.place, dates, extra]


def _tiebreak_line(tournament: Tournament, codes: list[str]) -> str:
    """The print's line naming the edition of FIDE C.07 and the tie-breaks in their order."""
    if not codes:
        return ""
    return _("Tie-breaks by %(rules)s: %(codes)s") % {
        "rules": tournament.get_tiebreak_rules_display(), "codes": ", ".join(codes)}


def _tournament_print(request, tournament: Tournament, kind: str) -> tuple[str, dict]:
    if kind == "standings":
        codes, rows, _error = _standings.standings(tournament)
        title = _("Standings")
        context = {"codes": codes, "rows": rows}
        extra = _tiebreak_line(tournament, codes)
    else:
        round_robin = tournament.kind == TournamentKind.ROUND_ROBIN
        table = _tables.ranked_crosstable(tournament, round_robin=round_robin,
                                          club_of=viewer_of(request).club)
        title = _("Crosstable")
        extra = _tiebreak_line(tournament, table.codes)
        context = {"table": table, "is_round_robin": round_robin}
    context.update(print_context(
        club_name=home_club_name(), title=f"{tournament.name}: {title}", lines=_lines(tournament, extra),
        back_url=reverse(f"tournaments:{kind}", args=[tournament.pk]),
        pdf_url=reverse("tournaments:print", args=[tournament.pk, kind]) + "?pdf=1",
    ))
    context["tournament"] = tournament
    context["national_label"] = national_label(tournament)
    # The QR code leads to the live page of what is printed (the standings for the crosstable too).
    live = reverse("tournaments:standings", args=[tournament.pk])
    context["print_qr_url"] = request.build_absolute_uri(live)
    return f"tournaments/print/{kind}.html", context


@public_tournaments_required
def tournament_print(request, pk, kind):
    tournament = get_object_or_404(Tournament, pk=pk)
    if kind not in PRINT_KINDS:
        raise Http404
    template, context = _tournament_print(request, tournament, kind)
    if request.GET.get("pdf"):
        title = _("Standings") if kind == "standings" else _("Crosstable")
        return render_pdf_response(request, template, context,
                                   download_name(tournament.name, title, extension="pdf"))
    return render(request, template, context)


@public_tournaments_required
def round_print(request, pk, number):
    tournament = get_object_or_404(Tournament, pk=pk)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    rnd = rounds_with_pairings(tournament, pk=rnd.pk)[0]
    title = _("Pairings round %(number)d") % {"number": rnd.number}
    context = {
        "round": rnd, "tournament": tournament, "rows": rnd.rows,
        "national_label": national_label(tournament),
        **print_context(
            club_name=home_club_name(), title=f"{tournament.name}: {title}",
            lines=_lines(tournament, rnd.date.strftime("%d.%m.%Y") if rnd.date else ""),
            back_url=rnd.get_absolute_url(),
            pdf_url=reverse("tournaments:round_print", args=[pk, number]) + "?pdf=1",
        ),
    }
    context["print_qr_url"] = request.build_absolute_uri(rnd.get_absolute_url())
    template = "tournaments/print/pairings.html"
    if request.GET.get("pdf"):
        return render_pdf_response(request, template, context,
                                   download_name(tournament.name, title, extension="pdf"))
    return render(request, template, context)


def standings_columns(codes: list[str], national: str | None = None, *,
                      club_of: Callable[[object], str]) -> list[ExportColumn]:
    """The standings' export columns: rank, player, club (as the reader may see it: ``club_of``,
    ``Viewer.club``), the national rating (headed ``national``, the pool that rates the
    tournament) and FIDE, points and the tournament's tie-breaks."""
    def club(row) -> str:
        return club_of(row.player.member)

    return [
        ExportColumn(_("Rank"), lambda r: r.rank, numeric=True),
        ExportColumn(_("Name"), lambda r: r.player.member.full_name),
        ExportColumn(_("Club"), club),
        ExportColumn(national or _("Rating"), lambda r: r.player.rating, numeric=True),
        ExportColumn(_("FIDE"), lambda r: r.player.fide_rating, numeric=True),
        ExportColumn(_("FIDE ID"), lambda r: r.player.member.fide_id, numeric=True),
        ExportColumn(_("Points"), lambda r: r.points, numeric=True, decimals=1),
        # Each tie-break with the decimals the page shows (``decimals_for``).
        *[ExportColumn(code, lambda r, i=i: r.tiebreaks[i], numeric=True, decimals=decimals_for(code))
          for i, code in enumerate(codes)],
    ]


@public_tournaments_required
def standings_export(request, pk, fmt):
    tournament = get_object_or_404(Tournament, pk=pk)
    if fmt not in EXPORT_FORMATS:
        raise Http404
    codes, rows, _error = _standings.standings(tournament)
    return export_response(
        fmt, name=[tournament.name, _("Standings")], sheet=_("Standings"),
        columns=standings_columns(codes, national_label(tournament), club_of=viewer_of(request).club),
        rows=rows,
    )
