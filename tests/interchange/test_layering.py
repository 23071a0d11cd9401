"""The exchange app's layers point one way: the file formats are pure Python, and the services
use the club apps only. Importing a tournament into a rating pool is composed by the views and
commands, which may use the ratings app."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INTERCHANGE = ROOT / "clubrating" / "interchange"
FORMATS = INTERCHANGE / "formats"
PROJECT_PACKAGES = ("clubrating", "ratings")


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module)
    return names


def _top(name: str) -> str:
    return name.split(".")[0]


FORMAT_MODULES = sorted(FORMATS.rglob("*.py"))
SERVICE_MODULES = sorted(
    p for p in INTERCHANGE.rglob("*.py")
    if p.name != "views.py" and "management" not in p.relative_to(INTERCHANGE).parts
)


def test_the_rules_find_the_modules():
    assert {p.name for p in FORMAT_MODULES} >= {
        "csvtext.py", "detect.py", "text.py", "reader.py", "writer.py", "national.py", "games.py"}
    assert {p.name for p in SERVICE_MODULES} >= {"trf_import.py", "pgn_import.py", "members_import.py"}


@pytest.mark.parametrize("path", FORMAT_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_formats_import_no_django_and_no_project_app(path):
    inside = {n for n in _imports(path) if n.startswith("clubrating.interchange.formats")}
    outside = {n for n in _imports(path) - inside if _top(n) in ("django", *PROJECT_PACKAGES)}
    assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


@pytest.mark.parametrize("path", SERVICE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_interchange_services_do_not_import_ratings(path):
    ratings = {n for n in _imports(path) if _top(n) == "ratings"}
    assert not ratings, f"{path.relative_to(ROOT)} imports {sorted(ratings)}"


def test_the_check_sees_relative_and_absolute_imports():
    reader = FORMATS / "trf" / "reader.py"
    assert "clubrating.interchange.formats.text" in _imports(reader)
    views = _imports(INTERCHANGE / "views.py")
    assert "ratings.services" in views and "clubrating.interchange.trf_import" in views
