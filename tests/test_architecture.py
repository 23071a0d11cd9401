"""Dependencies point one way, and nothing imports itself in a circle.

From the bottom: the pure rating rules and the pure file formats (``clubrating.interchange.formats``)
know nothing of Django or the apps; the base ``clubrating.core`` (errors, formatting, exports, PDF,
import preview) knows no app; ``jobs`` builds on the base only; ``accounts`` (users, roles, who may
see what) and the club apps (clubs, tournaments) know nothing of the ratings except those pure
rules; the exchange imports into the club apps; the ratings app builds on them all but never on
pages; the site layer ``clubrating.site`` (home page, demo data) and the public API
``clubrating.api`` (JSON and embeds, composing the ratings and club apps) sit on top and nothing but
the root URL configuration uses them. Views (``views.py`` or a ``views`` package) and URL configurations
compose the layers and may use any of them below the site.

Every module's imports are read with ``ast``, including imports inside functions, so a
function-level import cannot hide a dependency. The rules are the table ``RULES``: one row per
layer, with the imports it must not use and the exceptions it may. Besides the rules, the import
graph has no cycle: neither between modules nor between packages (``package_of``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("clubrating", "ratings")
COMPOSING = ("*.views", "*.views.*", "*.urls")
# Pages, URL configurations and management commands compose the packages: a package's place in
# the order is given by its other modules (models, services, selectors, ...).
TOP = (*COMPOSING, "*.management.commands.*")
# Packages that are layers of their own inside an app: pure, usable by anyone.
PURE = ("ratings.rules", "clubrating.interchange.formats")


def tree(*names: str) -> tuple[str, ...]:
    """Patterns for the packages ``names`` and everything in them."""
    return tuple(pattern for name in names for pattern in (name, f"{name}.*"))


BASE = ("clubrating.core", "clubrating.formats")
ROOT_MODULES = ("clubrating", "clubrating.settings", "clubrating.urls", "clubrating.wsgi", "clubrating.asgi")
APPS = ("clubrating.accounts", "clubrating.clubs", "clubrating.tournaments", "clubrating.leagues",
        "clubrating.interchange", "clubrating.jobs", "clubrating.national_list", "clubrating.federation",
        "clubrating.site", "clubrating.api", "ratings")


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
        "the base (errors, formatting, exports, PDF, preview) knows no app, only the pure packages",
        layer=tree(*BASE),
        forbidden=tree(*APPS),
        allowed=tree(*PURE),
    ),
    Rule(
        "background jobs build on the base only: the apps hand them their work",
        layer=tree("clubrating.jobs"),
        forbidden=tree(*(app for app in APPS if app != "clubrating.jobs")),
        exempt=COMPOSING,
    ),
    Rule(
        "accounts (users, roles, who may see what) know the own club, not the tournaments or ratings",
        layer=tree("clubrating.accounts"),
        forbidden=tree("clubrating.tournaments", "clubrating.leagues", "clubrating.interchange",
                       "clubrating.jobs", "clubrating.federation", "ratings"),
        allowed=tree(*PURE),
        exempt=COMPOSING,
    ),
    Rule(
        "the site layer (home page, demo data) is on top: only the root URL configuration uses it",
        layer=tree("clubrating", "ratings"),
        forbidden=tree("clubrating.site"),
        exempt=(*tree("clubrating.site"), "clubrating.urls", "clubrating.settings"),
    ),
    Rule(
        "the public API (and the embeds) composes the ratings and club apps: only the root URLs use it",
        layer=tree("clubrating", "ratings"),
        forbidden=tree("clubrating.api"),
        exempt=(*tree("clubrating.api"), "clubrating.urls", "clubrating.settings"),
    ),
    Rule(
        "the team leagues build on the tournaments; clubs and tournaments know nothing of them",
        layer=tree("clubrating.clubs", "clubrating.tournaments"),
        forbidden=tree("clubrating.leagues"),
        exempt=COMPOSING,
    ),
    Rule(
        "the rating rules are pure: no Django, nothing of the project outside themselves",
        layer=("ratings.rules", "ratings.rules.*"),
        forbidden=("django", "django.*", "clubrating", "clubrating.*", "ratings", "ratings.*"),
        allowed=("ratings.rules", "ratings.rules.*"),
    ),
    Rule(
        "the club apps depend on neither the ratings nor the exchange, except on their pure packages",
        layer=tree("clubrating.clubs", "clubrating.tournaments", "clubrating.leagues"),
        forbidden=tree("ratings", "clubrating.interchange", "clubrating.jobs", "clubrating.federation"),
        allowed=tree(*PURE),
        exempt=COMPOSING,
    ),
    Rule(
        "FIDE's list (federation) builds on the club apps and the exchange; it never touches the "
        "ratings app, not even in its pages: national ratings are the rating officer's act",
        layer=tree("clubrating.federation"),
        forbidden=tree("ratings"),
        allowed=tree(*PURE),
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
        "the national rating list is a club app: it never uses the ratings app; its pages compose "
        "handing a list to a pool",
        layer=tree("clubrating.national_list"),
        forbidden=tree("ratings"),
        allowed=tree(*PURE),
        exempt=COMPOSING,
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

# Cycles that exist today (their modules or packages), each with the reason it is tolerated; an
# entry that no longer occurs fails the test, so the list only shrinks.
KNOWN_CYCLES: set[frozenset[str]] = set()


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


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """{module: the project's modules it imports}. An import of a name inside a module (``import
    a.b.C``) counts as an import of the module (``a.b``)."""
    known = set(sources)
    graph = {}
    for module, (source, is_package) in sources.items():
        graph[module] = set()
        for imported in imports_of(module, source, is_package=is_package, known=known):
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != module:
                graph[module].add(imported)
    return graph


def package_of(module: str) -> str:
    """The package a module belongs to: a pure package (``PURE``), else the app
    (``clubrating.<app>``, ``ratings``)."""
    for pure in PURE:
        if _matches(module, tree(pure)):
            return pure
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "clubrating" else parts[0]


def package_graph(graph: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """{package: the packages its modules import}, from every module but the composing ones."""
    packages: dict[str, set[str]] = {}
    for module, imported in graph.items():
        if _matches(module, TOP):
            continue
        own = package_of(module)
        packages.setdefault(own, set()).update(package_of(i) for i in imported if package_of(i) != own)
    return packages


def cycles(graph: Mapping[str, Iterable[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one node: every set of nodes that import
    each other in a circle (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.add(frozenset(component))
    return found


def test_dependencies_point_one_way():
    broken = violations(project_sources())
    assert broken - KNOWN == set()
    assert KNOWN - broken == set(), "a tolerated import is gone: remove it from KNOWN"


def test_no_import_cycles():
    graph = import_graph(project_sources())
    found = cycles(graph) | cycles(package_graph(graph))
    assert {tuple(sorted(c)) for c in found - KNOWN_CYCLES} == set()
    assert KNOWN_CYCLES - found == set(), "a tolerated cycle is gone: remove it from KNOWN_CYCLES"


def test_every_package_has_a_place():
    """A new package is placed in the order: it is the base, a pure package or one of ``APPS``."""
    placed = {*BASE, *PURE, *APPS, *ROOT_MODULES}
    assert {package_of(module) for module in project_sources()} - placed == set()


FAMILIES = {"oesb", "fide", "dsb", "egf"}


def name_prefix_tests(source: str) -> list[int]:
    """Lines that test a rule set by its name's prefix (``rules.startswith("oesb")``): what a rule
    set offers is a flag of ``ratings.rules.presets.Rules``, its family ``Rules.family``."""
    return [
        node.lineno for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and _called(node) == "startswith"
        and any(isinstance(arg, ast.Constant) and arg.value in FAMILIES for arg in node.args)
    ]


def test_no_rule_set_is_told_by_its_name():
    found = {module: lines for module, (source, _package) in project_sources().items()
             if (lines := name_prefix_tests(source))}
    assert found == {}


def test_a_name_prefix_test_is_found():
    assert name_prefix_tests('if pool.rules.startswith("egf"):\n    pass\nx = "a".startswith("b")\n') == [1]


# The ratings app asks which database runs in one module only; its services call named functions.
DATABASE_MODULE = "ratings.services.db"


def vendor_tests(source: str) -> list[int]:
    """Lines that ask which database runs (``connection.vendor``)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == "vendor"]


def test_the_database_is_asked_in_one_module():
    found = {module: lines for module, (source, _package) in project_sources().items()
             if _matches(module, tree("ratings")) and not _matches(module, ("*.migrations.*",))
             and module != DATABASE_MODULE and (lines := vendor_tests(source))}
    assert found == {}


def test_a_vendor_test_is_found():
    assert vendor_tests('if connection.vendor != "postgresql":\n    pass\n') == [1]


# Files small enough to read in one sitting (docs/development.md): no module of the apps beyond
# this many lines. Migrations are generated; the Dutch engine of 2026 is a modified copy of
# py4swiss's and keeps its layout.
MAX_LINES = 500
LONG_ALLOWED = ("*.migrations.*", *tree("clubrating.tournaments.pairing.dutch2026"))


def long_modules(sources: dict[str, tuple[str, bool]]) -> dict[str, int]:
    """{file: its number of lines} of every module beyond ``MAX_LINES``."""
    found = {}
    for module, (source, is_package) in sources.items():
        if _matches(module, LONG_ALLOWED):
            continue
        lines = len(source.splitlines())
        if lines > MAX_LINES:
            path = module.replace(".", "/") + ("/__init__.py" if is_package else ".py")
            found[path] = lines
    return found


def test_no_module_is_longer_than_one_sitting():
    assert long_modules(project_sources()) == {}, f"split along its sections (at most {MAX_LINES} lines)"


def test_a_long_module_is_found_by_its_file():
    sources = {
        "ratings.selectors": ("x = 1\n" * 501, True),
        "ratings.lists.faces": ("x = 1\n" * 500, False),
        "clubrating.tournaments.migrations.0001_initial": ("x = 1\n" * 900, False),
        "clubrating.tournaments.pairing.dutch2026.engine": ("x = 1\n" * 900, False),
        "clubrating.tournaments.services": ("x = 1\n" * 600, False),
    }
    assert long_modules(sources) == {"ratings/selectors/__init__.py": 501,
                                     "clubrating/tournaments/services.py": 600}


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


@pytest.mark.parametrize(("module", "source", "imported"), [
    ("clubrating.core.formatting", "from ratings.models import RatingPool\n", "ratings.models"),
    ("clubrating.core.pdf", "def f():\n    from clubrating.clubs.selectors import home_club\n",
     "clubrating.clubs.selectors"),
    ("clubrating.jobs.services", "from ratings.jobs import list_pdf\n", "ratings.jobs"),
    ("clubrating.tournaments.services", "from clubrating.interchange.trf_import import x\n",
     "clubrating.interchange.trf_import"),
    ("ratings.services.pools", "from clubrating.site.demo import demo_seed\n", "clubrating.site.demo"),
    ("clubrating.tournaments.views.public", "from clubrating.site.views import home\n",
     "clubrating.site.views"),
])
def test_an_import_against_a_new_layer_is_caught(module, source, imported):
    assert check(module, source) == {(module, imported)}


@pytest.mark.parametrize(("module", "source"), [
    ("clubrating.core.formatting", "from ratings.rules.rounding import round_half_away\n"),
    ("clubrating.site.views", "from ratings.selectors import live_list\n"),
    ("clubrating.urls", "from clubrating.site import views\n"),
    ("clubrating.jobs.views", "from clubrating.accounts.permissions import is_official\n"),
])
def test_an_import_along_the_layers_passes(module, source):
    assert check(module, source) == set()


def graph_of(modules: dict[str, str]) -> dict[str, set[str]]:
    return import_graph({name: (source, False) for name, source in modules.items()})


def test_a_module_cycle_is_reported():
    graph = graph_of({
        "ratings.services.results": "from ratings.services.redate import games_redate\n",
        "ratings.services.redate": "def f():\n    from ratings.services.results import x\n",
        "ratings.services.pools": "from ratings.services import results\n",
        "ratings.services": "",
    })
    assert cycles(graph) == {frozenset({"ratings.services.results", "ratings.services.redate"})}


def test_a_longer_module_cycle_is_reported_once():
    graph = graph_of({
        "clubrating.jobs.a": "from clubrating.jobs.b import x\n",
        "clubrating.jobs.b": "import clubrating.jobs.c\n",
        "clubrating.jobs.c": "from clubrating.jobs import a\n",
        "clubrating.jobs": "",
        "clubrating.jobs.d": "from clubrating.jobs.a import x\n",
    })
    assert cycles(graph) == {frozenset({"clubrating.jobs.a", "clubrating.jobs.b", "clubrating.jobs.c"})}


def test_a_package_cycle_is_reported():
    graph = graph_of({
        "clubrating.core.demo": "from ratings.services import pool_create\n",
        "ratings.services": "from clubrating.core.errors import Refused\n",
        "clubrating.core.errors": "",
    })
    assert cycles(graph) == set()
    assert cycles(package_graph(graph)) == {frozenset({"clubrating.core", "ratings"})}


def test_pages_and_pure_packages_do_not_make_a_package_cycle():
    graph = graph_of({
        "clubrating.clubs.views": "from ratings.selectors import member_ratings\n",
        "clubrating.clubs.models": "from clubrating.interchange.formats.names import split_name\n",
        "clubrating.interchange.formats.names": "",
        "clubrating.interchange.trf_import": "from clubrating.clubs.models import Member\n",
        "ratings.selectors": "from clubrating.clubs.models import Member\n",
        "ratings.management.commands.x": "from clubrating.interchange.trf_import import y\n",
        "clubrating.interchange.management.commands.y": "from ratings.selectors import z\n",
    })
    assert cycles(package_graph(graph)) == set()


def test_the_real_graph_has_the_known_edges():
    """The graph the cycle test reads is the real one: a known import shows in it."""
    graph = import_graph(project_sources())
    assert "clubrating.core.errors" in graph["clubrating.jobs.services"]
    assert "ratings.rules.rounding" in graph["ratings.rules.performance"]
