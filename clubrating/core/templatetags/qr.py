"""QR codes as inline SVG (segno, no image files, no script): the printed sheets carry one that
leads to the live page, the hall screen one for the phones in the room."""

import segno
from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def qr_svg(url: str, label: str = "") -> str:
    """``url`` as a QR code (error correction M: a printed sheet may get creased), drawn in
    black on white; the size comes from the CSS (the SVG has a viewBox only)."""
    code = segno.make(str(url), error="m")
    svg = code.svg_inline(border=2, omitsize=True, svgclass="qr-code", lineclass=None, dark="#000",
                          light="#fff")
    # segno writes only the path data it computed; the label is the one user-facing text and is escaped.
    attributes = format_html('<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{}" ',
                             label or url)
    return mark_safe(svg.replace("<svg ", attributes, 1))
