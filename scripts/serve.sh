#!/usr/bin/env bash
# One command from a fresh clone to a running demo club on http://127.0.0.1:8000/ (SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export DJANGO_DEBUG=${DJANGO_DEBUG:-1}
.venv/bin/python manage.py migrate --no-input
# The cache shared by the server and the worker (settings: CLUBRATING_CACHE); creates the table
# of the database cache, does nothing for the file cache.
.venv/bin/python manage.py createcachetable
.venv/bin/python manage.py seed_demo
echo "ClubRating runs on http://127.0.0.1:${PORT:-8000}/  (demo logins: admin/admin, official/official, ratingofficer/ratingofficer, member/member)"
# One background worker (recalculations, closing large pools, long imports and PDFs) beside the
# server, stopped with it.
.venv/bin/python manage.py jobs_worker --interval 1 &
worker=$!
trap 'kill "$worker" 2>/dev/null; wait "$worker" 2>/dev/null' EXIT
.venv/bin/python manage.py runserver "127.0.0.1:${PORT:-8000}"
