"""Readable, translated names of the rule sets (the code stays visible as a detail)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ratings.rules.presets import PRESETS

__all__ = ["RULES_NAMES", "rules_label", "rules_name"]

RULES_NAMES = {
    "oesb-classic": _("Austria (ÖSB) classic, floor 1200, factor reduction"),
    "oesb-2012": _("Austria (ÖSB) from 2012, quarterly, floor 800"),
    "oesb-2024": _("Austria (ÖSB) from September 2024, quarterly, floor 1200"),
    "fide-2024": _("FIDE 2024 (until September 2025)"),
    "fide-2025": _("FIDE from October 2025"),
    "fide-2005": _("FIDE 2005 (logistic curve)"),
    "dsb-1990": _("German ELO list 1990 (DSB)"),
    "egf-classic": _("Go: EGF classic"),
    "egf-2021": _("Go: EGF from 2021"),
}
assert RULES_NAMES.keys() == PRESETS.keys(), "every rule set needs a readable name"


def rules_name(code: str, *, table: bool = False) -> str:
    """The prose name; ``table``: the oesb variant with the expectation table (spec §1.1)."""
    name = str(RULES_NAMES.get(code, code))
    return _("%(name)s, with the expectation table") % {"name": name} if table else name


def rules_label(code: str, *, table: bool = False) -> str:
    """Name and code, e.g. for a choice: "FIDE from October 2025 (fide-2025)"."""
    return _("%(name)s (%(code)s)") % {"name": rules_name(code, table=table), "code": code}
