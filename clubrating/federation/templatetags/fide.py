"""The sections of a FIDE list's preview and report, each with its translated heading."""

from django import template
from django.utils.translation import gettext as _

register = template.Library()


def _headings() -> dict[str, str]:
    return {
        "standard": _("Standard rating changes"),
        "rapid": _("Rapid rating changes"),
        "blitz": _("Blitz rating changes"),
        "titles": _("New titles"),
        "federations": _("Changed federations"),
        "names": _("Names that differ (not changed)"),
        "inactive": _("Flagged inactive"),
        "missing": _("FIDE ID not in the list"),
    }


@register.filter
def fide_report_sections(report: dict) -> list[tuple[str, str, tuple[int, list]]]:
    """(kind, heading, (count, shown rows)) in the order the page shows them."""
    counts = report.get("counts", {})
    return [(kind, heading, (counts.get(kind, 0), report.get(kind, [])))
            for kind, heading in _headings().items()]
