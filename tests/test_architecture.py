"""Dependencies point one way.

The pure rating rules and the pure file formats (``clubrating.interchange.formats``) know
nothing of Django or the apps; the club apps (members, tournaments)
know nothing of the ratings except those pure rules; the ratings app builds on the club apps but
never on pages. Views (``views.py`` or a ``views`` package) and URL configurations compose the
layers and may use any of them.

Every module's imports are read with ``ast``, including imports inside functions, so a
function-level import cannot hide a dependency. The rules are the table ``RULES``: one row per
layer, with the imports it must not use and the exceptions it may.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("clubrating", "ratings")
COMPOSING = ("*.views", "*.views.*", "*.urls")


@dataclass(frozen=True)
class Rule:
    """Modules matching ``layer`` (and not ``exempt``) import nothing matching ``forbidden``
    unless it also matches ``allowed``. Patterns are ``fnmatch`` patterns on dotted names."""

    why: str
    layer: tuple[str, ...]
    forbidden: tuple[str, ...]
    allowed: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()


RULES = [
    Rule(
        "the rating rules are pure: no Django, nothing of the project outside themselves",
        layer=("ratings.rules", "ratings.rules.*"),
        forbidden=("django", "django.*", "clubrating", "clubrating.*", "ratings", "ratings.*"),
        allowed=("ratings.rules", "ratings.rules.*"),
    ),
    Rule(
        "the club apps do not depend on the ratings, except on the pure rating rules",
        layer=("clubrating.clubs", "clubrating.clubs.*",
               "clubrating.tournaments", "clubrating.tournaments.*"),
        forbidden=("ratings", "ratings.*"),
        allowed=("ratings.rules", "ratings.rules.*"),
        exempt=COMPOSING,
    ),
    Rule(
        "the file formats are pure: no Django, nothing of the project outside themselves",
        layer=("clubrating.interchange.formats", "clubrating.interchange.formats.*"),
        forbidden=("django", "django.*", "clubrating", "clubrating.*", "ratings", "ratings.*"),
        allowed=("clubrating.interchange.formats", "clubrating.interchange.formats.*"),
    ),
    Rule(
        "the exchange services import into the club apps only; commands and pages compose the rating",
        layer=("clubrating.interchange", "clubrating.interchange.*"),
        forbidden=("ratings", "ratings.*"),
        allowed=("ratings.rules", "ratings.rules.*"),
        exempt=(*COMPOSING, "clubrating.interchange.management.commands.*"),
    ),
    Rule(
        "the ratings app's models, services, selectors and commands never use pages",
        layer=("ratings", "ratings.*"),
        forbidden=("*.views", "*.views.*"),
        exempt=COMPOSING,
    ),
]

# Imports that break a rule today, each with the reason it is tolerated; an entry that no longer
# occurs fails the test, so the list only shrinks.
KNOWN: set[tuple[str, str]] = set()


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def project_sources() -> dict[str, tuple[str, bool]]:
    """{dotted module name: (source, is a package)} of every module of the project's packages."""
    sources = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            sources[".".join(parts)] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def imports_of(module: str, source: str, *, is_package: bool = False,
               known: set[str] = frozenset()) -> set[str]:
    """Every module ``source`` imports, anywhere in it, as absolute dotted names. ``from a import
    b`` counts as ``a.b`` when that is one of the ``known`` modules, else as ``a``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            origin = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                candidate = f"{origin}.{alias.name}" if origin else alias.name
                found.add(candidate if candidate in known else origin)
        elif isinstance(node, ast.Call) and _called(node) in {"import_module", "__import__"}:
            # importlib.import_module("ratings.services") is an import too.
            names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant)]
            found.update(name for name in names if isinstance(name, str))
    return found


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def violations(sources: dict[str, tuple[str, bool]], rules: list[Rule] = RULES) -> set[tuple[str, str]]:
    """(module, imported module) for every import that breaks a rule."""
    known = set(sources)
    broken = set()
    for module, (source, is_package) in sources.items():
        applying = [r for r in rules if _matches(module, r.layer) and not _matches(module, r.exempt)]
        if not applying:
            continue
        for imported in imports_of(module, source, is_package=is_package, known=known):
            for rule in applying:
                if _matches(imported, rule.forbidden) and not _matches(imported, rule.allowed):
                    broken.add((module, imported))
    return broken


def test_dependencies_point_one_way():
    broken = violations(project_sources())
    assert broken - KNOWN == set()
    assert KNOWN - broken == set(), "a tolerated import is gone: remove it from KNOWN"


def test_every_layer_has_modules():
    modules = project_sources()
    for rule in RULES:
        assert any(_matches(m, rule.layer) and not _matches(m, rule.exempt) for m in modules), rule.why


# --- the checker itself, on sources written here --------------------------------------------------

FAKE = {"ratings.services.pools", "ratings.views", "ratings.views.lists", "ratings.rules.performance"}


def check(module: str, source: str, *, is_package: bool = False) -> set[tuple[str, str]]:
    sources = {name: ("", False) for name in FAKE}
    sources[module] = (source, is_package)
    return violations(sources)


@pytest.mark.parametrize(("module", "source", "imported"), [
    ("ratings.rules.period", "import django.db\n", "django.db"),
    ("ratings.rules.period", "from django.utils.translation import gettext\n", "django.utils.translation"),
    ("ratings.rules.period", "from ratings.models import RatingPool\n", "ratings.models"),
    ("ratings.rules.period", "from clubrating.tournaments.models import Game\n",
     "clubrating.tournaments.models"),
    ("clubrating.tournaments.services", "from ratings.services import pool_get\n", "ratings.services"),
    ("clubrating.tournaments.services", "def f():\n    import ratings.services.pools\n",
     "ratings.services.pools"),
    ("clubrating.tournaments.admin", "class A:\n    def m(self):\n        from ratings import services\n",
     "ratings"),
    ("clubrating.clubs.models", "from ratings.services import pools\n", "ratings.services.pools"),
    ("clubrating.tournaments.results", "import importlib\nimportlib.import_module('ratings.services')\n",
     "ratings.services"),
    ("clubrating.tournaments.management.commands.standings", "from ratings.models import RatingRecord\n",
     "ratings.models"),
    ("ratings.services.results", "from ratings.views.lists import published_rows\n", "ratings.views.lists"),
    ("ratings.services.results", "from ratings import views\n", "ratings.views"),
    ("ratings.services.results", "from ..views import lists\n", "ratings.views.lists"),
    ("ratings.selectors", "from clubrating.tournaments.views.public import games_queryset\n",
     "clubrating.tournaments.views.public"),
    ("clubrating.interchange.formats.pgn", "from django.utils.translation import gettext\n",
     "django.utils.translation"),
    ("clubrating.interchange.formats.pgn", "def f():\n    import django\n", "django"),
    ("clubrating.interchange.formats.trf.reader", "from clubrating.clubs.matching import split_name\n",
     "clubrating.clubs.matching"),
    ("clubrating.interchange.formats.pgn", "from ..errors import ImportRefused\n",
     "clubrating.interchange.errors"),
    ("clubrating.interchange.formats.pgn", "from ratings.rules.performance import dp\n",
     "ratings.rules.performance"),
])
def test_an_offending_import_is_caught(module, source, imported):
    assert check(module, source) == {(module, imported)}


@pytest.mark.parametrize(("module", "source"), [
    ("ratings.rules.period", "from ratings.rules.rounding import round_half_away\nimport math\n"),
    ("ratings.rules", "from .performance import dp\n"),
    ("clubrating.tournaments.tiebreaks", "from ratings.rules.performance import dp\n"),
    ("clubrating.tournaments.views.results", "from ratings.services import game_record_result\n"),
    ("clubrating.clubs.views", "from ratings.selectors import member_rating_blocks\n"),
    ("ratings.views.pools", "from ratings.views.officer import dry_run\n"),
    ("ratings.urls", "from ratings.views import lists\n"),
    ("ratings.services.results", "from clubrating.tournaments.models import Game\n"),
    ("clubrating.interchange.formats.pgn", "import chess.pgn\nfrom .limits import FieldError\n"),
    ("clubrating.interchange.formats.trf.reader", "from ..names import split_name\n"),
    ("clubrating.clubs.matching", "from clubrating.interchange.formats.names import split_name\n"),
])
def test_an_allowed_import_passes(module, source):
    assert check(module, source, is_package=module == "ratings.rules") == set()
