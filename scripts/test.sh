#!/usr/bin/env bash
# One command from a fresh clone to the whole test suite: installs what the tests need
# (virtual environment, test packages, Debian's Chromium for browser tests) and runs pytest.
# Uses SQLite unless DATABASE_URL points elsewhere. Extra arguments go to pytest.
# The suite runs in parallel (pytest-xdist): one worker per CPU core, each with its own test
# database; idle workers take over tests queued on busy ones. `scripts/test.sh -n 0` runs it
# in one process (e.g. for --pdb).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --dev
export CLUBRATING_TESTING=1
# Bytecode is written as the test processes import modules, even where the environment turns it off
# (PYTHONDONTWRITEBYTECODE): each module is compiled once, and the processes the tests start read
# it. Without it every process compiles Django and the other packages it imports again (about 4 s
# each); compiling every installed package ahead (uv --compile-bytecode) took longer than compiling
# what the tests import.
unset PYTHONDONTWRITEBYTECODE
# The project's own modules compiled once, on both cores, before the workers start, so that the two
# workers do not both compile them.
.venv/bin/python -m compileall -q -j 0 clubrating ratings tests conftest.py manage.py >/dev/null
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
