"""An empty list on any page: a sentence saying so and, for those who may take it, a link to the
next step (add the first one, import them). One rendering for templates (``{% empty_list %}``)
and tables (``empty_list_html`` as a table's ``empty_text``); a visitor sees the sentence only."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

TEMPLATE = "partials/empty_list.html"


def empty_list_links(pairs, *, show: bool = True) -> list[tuple[str, str]]:
    """(url, label) pairs from a flat sequence ``url, label, url, label…``; none unless ``show``."""
    pairs = list(pairs)
    return [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs) - 1, 2) if pairs[i]] if show else []


def empty_list_html(text: str, *pairs: str, show: bool = True) -> SafeString:
    """The sentence and the links (``url, label`` pairs, shown only when ``show``), as HTML."""
    return SafeString(render_to_string(TEMPLATE, {"text": text, "links": empty_list_links(pairs, show=show)})
                      .strip())
