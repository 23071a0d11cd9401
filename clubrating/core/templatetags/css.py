"""``{{ text|css_string }}``: a text as a quoted CSS string inside a ``<style>`` element (see
``clubrating.core.pdf.css_string``)."""

from django import template

from clubrating.core.pdf import css_string as _css_string

register = template.Library()


@register.filter
def css_string(value) -> str:
    return _css_string(str(value))
