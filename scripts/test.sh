#!/usr/bin/env bash
# One command from a fresh clone to the whole test suite: installs what the tests need
# (virtual environment, test packages, Debian's Chromium for browser tests) and runs pytest.
# Uses SQLite unless DATABASE_URL points elsewhere. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --dev
export CLUBRATING_TESTING=1
exec .venv/bin/python -m pytest "$@"
