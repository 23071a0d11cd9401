"""The documentation keeps up with the code: every environment variable the settings read is in
``.env.example`` and in the operators' guide, the README links the three guides, and no comment
or docstring points to a tracker entry instead of saying why."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# os.environ.get("X"), os.environ["X"], os.getenv("X") and the settings' env_bool("X", …) helpers.
READ = re.compile(r"""(?:environ\.get|environ\[|getenv|env_\w+)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")


def settings_variables() -> set[str]:
    return set(READ.findall((ROOT / "clubrating" / "settings.py").read_text()))


def test_the_settings_read_variables():
    names = settings_variables()
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "CLUBRATING_TASK_BACKEND", "DJANGO_AXES_ENABLED"} <= names
    assert len(names) >= 37


def test_every_variable_is_in_env_example_and_the_docs():
    example = (ROOT / ".env.example").read_text()
    operating = (ROOT / "docs" / "operating.md").read_text()
    assert sorted(name for name in settings_variables() if name not in example) == []
    assert sorted(name for name in settings_variables() if name not in operating) == []
    assert "db_worker" not in example  # the worker is manage.py jobs_worker


def test_readme_links_the_guides():
    readme = (ROOT / "README.md").read_text()
    for guide in ("docs/using.md", "docs/operating.md", "docs/development.md", "docs/rules.md"):
        assert f"]({guide})" in readme
        assert (ROOT / guide).is_file()
    assert "scripts/serve.sh" in readme and "scripts/test.sh" in readme
    assert "## Libraries, and why" in readme


# The word for a tracker entry with its number, a bare "(#nn)" or "see #nn": numbers that mean
# something only in a tracker.
TRACKER = re.compile(r"\bissues?\s*#?\d+|\(#\d+\)|\bsee #\d+", re.IGNORECASE)


def test_no_comment_speaks_of_issues():
    found = []
    for folder in ("clubrating", "ratings", "tests", "scripts", "benchmarks", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".html", ".js", ".css", ".sh"} or "locale" in path.parts:
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
                if TRACKER.search(line) and "TRACKER" not in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []
