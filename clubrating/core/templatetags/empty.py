"""``{% empty_list text url label … show=may %}``: see ``clubrating.core.empty``."""

from django import template

from clubrating.core.empty import TEMPLATE, empty_list_links

register = template.Library()


@register.inclusion_tag(TEMPLATE)
def empty_list(text, *pairs, show=True, step_class=""):
    """``step_class``: a class of the page's own for its links (pages and tests find them by it)."""
    return {"text": text, "links": empty_list_links(pairs, show=show), "step_class": step_class}
