"""German is the default language: every catalogue is complete, and what runs is what was written.

Each .po file of the project (root and apps) must translate every message, carry no fuzzy
entries, and its committed .mo must contain exactly those translations (so nobody forgets to
compile after an edit).
"""

import ast
import gettext
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(
    p for p in ROOT.glob("**/locale/de_AT/LC_MESSAGES/django.po") if ".venv" not in p.parts
)


def _unquote(line: str) -> str:
    return ast.literal_eval(line)


def parse_po(path: Path) -> list[dict]:
    """A small .po reader: entries with msgctxt, msgid, msgid_plural, msgstr[n] and flags."""
    entries, entry, key = [], None, None

    def finish():
        if entry is not None and "msgid" in entry:
            entries.append(entry)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            finish()
            entry, key = {"flags": line[2:].strip(), "msgstr": {}}, None
            continue
        if line.startswith("#"):
            continue
        if line.startswith(("msgctxt", "msgid ")) and (entry is None or "msgid" in entry or key == "msgstr"):
            if not (line.startswith("msgid ") and entry is not None and "msgid" not in entry):
                finish()
                entry = {"flags": "", "msgstr": {}}
        word, _space, rest = line.partition(" ")
        if word.startswith("msgstr"):
            index = int(word[7:-1]) if "[" in word else 0
            entry["msgstr"][index] = _unquote(rest)
            key = ("msgstr", index)
        elif word in {"msgctxt", "msgid", "msgid_plural"}:
            entry[word] = _unquote(rest)
            key = word
        elif line.startswith('"'):
            if isinstance(key, tuple):
                entry["msgstr"][key[1]] += _unquote(line)
            else:
                entry[key] += _unquote(line)
    finish()
    return [e for e in entries if e["msgid"]]  # the header has an empty msgid


def test_there_are_catalogues():
    names = {p.relative_to(ROOT).parts[0] for p in CATALOGUES}
    assert {"locale", "ratings", "clubrating"} <= names


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_complete_and_compiled(po):
    entries = parse_po(po)
    assert entries
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not fuzzy, f"fuzzy entries in {po}: {fuzzy[:5]}"
    missing = [e["msgid"] for e in entries if not all(e["msgstr"].values())]
    assert not missing, f"untranslated in {po}: {missing[:10]}"
    with po.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for e in entries:
        msgid = e["msgid"] if "msgctxt" not in e else f"{e['msgctxt']}\x04{e['msgid']}"
        if "msgid_plural" in e:
            assert compiled.ngettext(msgid, e["msgid_plural"], 1) == e["msgstr"][0], msgid
        else:
            assert compiled.gettext(msgid) == e["msgstr"][0], f"{po.with_suffix('.mo')} is stale: {msgid!r}"
