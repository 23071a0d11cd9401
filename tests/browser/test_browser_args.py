"""The browser the tests launch: Chromium reads only the last --disable-features of its command line,
so the one the tests add (tests/browser/conftest.py) must name everything Playwright's own turns off."""

import os
from pathlib import Path

import pytest

from tests.browser.conftest import DISABLED_FEATURES, HEADLESS_SHELL

pytestmark = pytest.mark.browser


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
        if parent == pid:
            found.append(int(stat.parent.name))
    return found


def _browser_command_line() -> list[str]:
    """The command line of the headless shell this process launched (through Playwright's driver)."""
    todo, seen = [os.getpid()], []
    while todo:
        for child in _children(todo.pop()):
            todo.append(child)
            try:
                args = (Path("/proc") / str(child) / "cmdline").read_bytes().decode().split("\0")
            except OSError:
                continue
            if args[0] == HEADLESS_SHELL and not any(arg.startswith("--type=") for arg in args):
                seen.append(args)
    assert len(seen) == 1, f"browser processes of this test process: {len(seen)}"
    return seen[0]


def test_the_last_disable_features_keeps_playwrights_and_adds_the_tests(browser):
    lists = [arg.split("=", 1)[1].split(",") for arg in _browser_command_line()
             if arg.startswith("--disable-features=")]
    assert len(lists) == 2  # Playwright's, then the tests'
    playwrights, last = lists
    assert "PaintHolding" in playwrights
    assert set(playwrights) - set(last) == set()
    assert last == list(DISABLED_FEATURES)
    assert "RenderDocument" in last
