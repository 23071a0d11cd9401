"""Identifiers written into pages are never localised: German groups thousands with a dot, so a
primary key 1021 printed as "1.021" in a form field, a link or an element id stops naming the
object (a check-in list on PostgreSQL, whose sequences had passed 1000, answered such a tick with
a server error). Every ``{{ … .pk }}``, ``{{ … .id }}`` or ``{{ … _id }}`` outside ``{% url %}``
passes through ``unlocalize`` (or a filter that writes plain digits)."""

import re

from django.conf import settings

from tests.core.test_template_syntax import template_files

VARIABLE = re.compile(r"\{\{\s*([^}]*?)\s*\}\}")
IDENTIFIER = re.compile(r"(^|\.)(pk|id|\w+_id|\w+_pk)$")
PLAIN_FILTERS = ("unlocalize", "plain", "rating", "stringformat", "urlencode", "safe", "json_script",
                 "default_if_none")
# Text fields whose names end in "_id": never a number, never grouped.
TEXT_IDENTIFIERS = ("national_id",)


def unguarded(source: str) -> list[str]:
    found = []
    for match in VARIABLE.finditer(source):
        expression, *filters = [part.strip() for part in match.group(1).split("|")]
        if not IDENTIFIER.search(expression) or expression.endswith(TEXT_IDENTIFIERS):
            continue
        if not any(f.split(":")[0] in PLAIN_FILTERS for f in filters):
            found.append(match.group(0))
    return found


def test_the_guard_sees_a_bare_key_and_accepts_an_unlocalised_one():
    assert unguarded('<input value="{{ p.pk }}"><a href="?m={{ line.member_id }}">') == [
        "{{ p.pk }}", "{{ line.member_id }}"]
    assert unguarded('{{ p.pk|unlocalize }} {{ x.fide_id|plain }} {{ field.id_for_label }}') == []


def test_no_template_writes_a_localised_identifier():
    offenders = []
    for path in template_files():
        if path.suffix not in (".html", ".txt", ".xml", ".svg"):
            continue
        source = path.read_text(encoding="utf-8")
        # Inside {% localize off %} … {% endlocalize %} nothing is grouped.
        source = re.sub(r"\{%\s*localize off\s*%\}.*?\{%\s*endlocalize\s*%\}", "", source, flags=re.S)
        offenders += [f"{path.relative_to(settings.BASE_DIR)}: {v}" for v in unguarded(source)]
    assert offenders == []
