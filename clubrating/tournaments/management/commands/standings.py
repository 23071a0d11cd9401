import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.core.exports import number_text
from clubrating.tournaments.models import Tournament
from clubrating.tournaments.selectors import tiebreak_specs, tournament_standings
from clubrating.tournaments.tiebreaks import UnknownTiebreak, decimals_for


def _number(value: float) -> float | int:
    """Whole numbers as ints (7 rather than 7.0) so the JSON reads like a crosstable."""
    return int(value) if float(value).is_integer() else value


def tournament_lookup(text: str) -> Tournament:
    """A tournament by id or by exact name; CommandError when none or several match."""
    if text.isdigit():
        tournament = Tournament.objects.filter(pk=int(text)).first()
        if tournament is not None:
            return tournament
    matches = list(Tournament.objects.filter(name=text)[:2])
    if not matches:
        raise CommandError(_("No tournament with the id or name “%(name)s”.") % {"name": text})
    if len(matches) > 1:
        raise CommandError(_("Several tournaments are called “%(name)s”; give the id.") % {"name": text})
    return matches[0]


class Command(BaseCommand):
    help = "Print a tournament's standings with FIDE tie-breaks (TRF-2026 codes)."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="tournament id or exact name")
        parser.add_argument(
            "--tiebreaks", default=None,
            help="comma separated codes, e.g. BH/C1,BH,ARO/C1 (default: the tournament's own list)",
        )
        parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")

    def handle(self, *args, **options):
        tournament = tournament_lookup(options["tournament"])
        codes = options["tiebreaks"] if options["tiebreaks"] is not None else tournament.tiebreaks
        try:
            labels = [spec.label for spec in tiebreak_specs(tournament=tournament, codes=codes)]
        except UnknownTiebreak as exc:
            raise CommandError(_("Unknown tie-break code “%(code)s”.") % {"code": exc}) from exc
        rows = tournament_standings(tournament=tournament, codes=labels)
        if options["json"]:
            data = [
                {
                    "rank": row.rank,
                    "name": row.player.member.full_name,
                    "fide_id": row.player.member.fide_id,
                    "points": _number(row.points),
                    "tiebreaks": [_number(v) for v in row.tiebreaks],
                }
                for row in rows
            ]
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        header = [_("Rank"), _("Name"), _("Points"), *labels]
        lines = [header] + [
            # The decimals the pages and exports show ("2.0", SB "9.25").
            [str(row.rank), row.player.member.full_name, number_text(row.points, 1),
             *(number_text(v, decimals_for(code)) for v, code in zip(row.tiebreaks, labels, strict=True))]
            for row in rows
        ]
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        for line in lines:
            cells = [cell.ljust(w) if i == 1 else cell.rjust(w)
                     for i, (cell, w) in enumerate(zip(line, widths))]
            self.stdout.write("  ".join(cells).rstrip())
