"""Pair the next round of a tournament in a TRF file, or check every round of a finished one.

The output is that of the endorsed pairing programs (``bbpPairings --dutch FILE -p``, JaVaFo): the
number of pairs, then one pair a line with White first, the pairing-allocated bye as ``N 0``.
"""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.formats.trf import TrfError, parse_trf
from clubrating.interchange.refusals import trf_message
from clubrating.interchange.trf_check import pairing_error_message, reason_text, rules_label
from clubrating.tournaments.pairing.trf_pairing import (
    EDITION_2017,
    EDITION_2026,
    TrfPairingError,
    check_trf,
    file_edition,
    pair_next_round,
)

from ._common import read_text


def pairs_text(pairs: list[tuple[int, int]]) -> str:
    return "\n".join([str(len(pairs)), *(f"{white} {black}" for white, black in pairs)]) + "\n"


class Command(FileCommand):
    help = (
        "Pair the next round of the tournament in a TRF file by the FIDE Dutch system (as "
        "bbpPairings --dutch FILE -p), or with --check re-pair every round and list those that differ."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--check", action="store_true", help="re-pair every round and list the differences"
        )
        parser.add_argument(
            "--rules", choices=("2017", "2026"),
            help="edition of the Dutch system: 2017 (until 31 January 2026) or 2026 (from 1 February "
                 "2026); default: the file's 192 (or 092) line, else its start date",
        )
        parser.add_argument("-o", "--output", help="write the pairing to this file instead of the screen")

    def handle(self, *args, path, check, rules, output, **options):
        try:
            trf = parse_trf(read_text(path))
        except TrfError as error:
            raise CommandError(trf_message(error)) from None
        if not [p for p in trf.players if not p.is_dummy]:
            raise CommandError(_("The file has no players."))
        edition = {"2017": EDITION_2017, "2026": EDITION_2026}.get(rules or "", "") or file_edition(trf)
        if check:
            return self._check(trf, edition)
        try:
            pairs = pair_next_round(trf, edition=edition)
        except TrfPairingError as error:
            raise CommandError(pairing_error_message(error)) from None
        text = pairs_text(pairs)
        if output:
            try:
                with open(output, "w", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as error:
                raise CommandError(
                    _("Cannot write %(path)s: %(error)s") % {"path": output, "error": error}
                ) from None
        else:
            self.stdout.write(text, ending="")
        return None

    def _check(self, trf, edition: str) -> None:
        checks = check_trf(trf, edition=edition)
        differing = [c for c in checks if not c.matches]
        for check in differing:
            self.stdout.write(_("Round %(round)d differs.") % {"round": check.round})
            # Only the boards that differ: the rest of the round is as the rules give it.
            self.stdout.write("  " + _("Published: %(pairs)s") % {"pairs": _boards(check.only_played)})
            if check.expected is None:
                error = pairing_error_message(check)
                self.stdout.write("  " + _("By the rules: %(error)s") % {"error": error})
            else:
                boards = _boards(check.only_expected)
                self.stdout.write("  " + _("By the rules: %(pairs)s") % {"pairs": boards})
                self.stdout.write("  " + _("Why: %(reason)s") % {"reason": reason_text(check.reason)})
        self.stdout.write(
            _("%(same)d of %(total)d rounds paired as the rules give (%(rules)s).")
            % {"same": len(checks) - len(differing), "total": len(checks), "rules": rules_label(edition)}
        )
        return None


def _boards(pairs: list[tuple[int, int]]) -> str:
    return ", ".join(f"{w}-{b}" if b else _("%(player)d bye") % {"player": w} for w, b in pairs)
