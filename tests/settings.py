"""The settings the tests run with (pyproject.toml points pytest here): the site's own, in test mode,
with what only tests may change."""

import os

# Settings read this at import time: test mode (no real secret, tasks run at once, a cache in
# memory, an SQLite test database per process; see clubrating/settings.py).
os.environ.setdefault("CLUBRATING_TESTING", "1")

from clubrating.settings import *  # noqa: E402,F403

# Every user the tests create or log in hashes a password; the production hasher (PBKDF2 with a
# million iterations) would spend most of the suite's time on it. What the tests check about
# passwords (right or wrong, login through the form) does not depend on the hasher.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
