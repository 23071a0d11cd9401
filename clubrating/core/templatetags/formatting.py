"""``{{ change|signed }}`` / ``{{ change|signed:1 }}``: see ``clubrating.core.formatting.signed``."""

from django import template

from clubrating.core import formatting

register = template.Library()


@register.filter
def signed(value, decimals=0):
    return formatting.signed(value, int(decimals))
