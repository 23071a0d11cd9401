from django.utils import formats, translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from clubrating.core.tables import cell_text

VALUES = [0, 7, -7, 999, -999, 1000, -1000, 12345, 1999.5, "", "Müller, Anna", "<b>&\"'",
          format_html("<a href='{}'>{}</a>", "/x/", "<y>"), None, True, False]


def _template_cell(value, localize=None) -> str:
    """A cell as django-tables2's template writes it: localized, then escaped."""
    return conditional_escape(formats.localize(value, use_l10n=localize is not False))


def test_cell_text_writes_every_value_as_the_template_does():
    for language in ("de-at", "en"):
        with translation.override(language):
            for value in VALUES:
                for localize in (None, False):
                    text = cell_text(value, localize=localize)
                    assert text == _template_cell(value, localize), (language, value, localize)
                    assert isinstance(text, SafeString)


def test_cell_text_groups_digits_from_a_thousand_on():
    with translation.override("de-at"):
        assert cell_text(999) == "999"
        assert cell_text(12345) == formats.localize(12345, use_l10n=True) != "12345"
        assert cell_text(12345, localize=False) == "12345"
