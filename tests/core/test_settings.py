"""Settings come from the environment; production-like values pass Django's deploy checks."""

import os
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]


def _environ(env: dict) -> dict:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CLUBRATING_"))}
    environ["CLUBRATING_ENV_FILE"] = "/nonexistent/.env"  # a developer's .env must not leak in
    return {**environ, **env}


def _manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_environ(env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _settings(**env) -> SimpleNamespace:
    """The settings module as ``manage.py`` started with ``env`` (see _manage) reads it.

    The module is run afresh in this process with that environment, and with pytest hidden from
    it (it switches to test settings when pytest is loaded): a Python process per case cost seconds
    each. ``os.environ`` and ``sys.modules`` are restored afterwards."""
    with mock.patch.dict(os.environ, _environ(env), clear=True), mock.patch.dict(sys.modules):
        del sys.modules["pytest"]
        return SimpleNamespace(**runpy.run_path(str(ROOT / "clubrating" / "settings.py")))


PRODUCTION = {
    "DJANGO_SECRET_KEY": "x" * 20 + "production-like-secret-key-with-enough-entropy-" + "y" * 20,
    "DJANGO_ALLOWED_HOSTS": "schach.example.at",
    "DATABASE_URL": "sqlite:////tmp/clubrating-deploy-check.sqlite3",
}


def test_check_deploy_reports_nothing_with_production_values():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_secret_key_required_outside_debug():
    env = dict(PRODUCTION)
    del env["DJANGO_SECRET_KEY"]
    result = _manage("check", **env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_debug_is_off_unless_asked_for():
    production = _settings(**PRODUCTION)
    engine = production.DATABASES["default"]["ENGINE"]
    assert (production.DEBUG, engine) == (False, "django.db.backends.sqlite3")
    assert _settings(DJANGO_DEBUG="1").DEBUG is True


def test_env_file_is_read_but_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDJANGO_DEBUG=1\nDJANGO_ALLOWED_HOSTS='a.example.at,b.example.at'\n")
    from_file = _settings(CLUBRATING_ENV_FILE=str(env_file))
    assert (from_file.DEBUG, from_file.ALLOWED_HOSTS) == (True, ["a.example.at", "b.example.at"])
    overridden = _settings(CLUBRATING_ENV_FILE=str(env_file), DJANGO_ALLOWED_HOSTS="c.example.at")
    assert (overridden.DEBUG, overridden.ALLOWED_HOSTS) == (True, ["c.example.at"])


def test_database_url_selects_postgresql():
    database = _settings(DJANGO_DEBUG="1", DATABASE_URL="postgres://u:p@127.0.0.1:5433/club").DATABASES["default"]
    assert (database["ENGINE"], database["PORT"]) == ("django.db.backends.postgresql", 5433)


def test_sqlite_runs_in_wal_mode_with_immediate_transactions(tmp_path):
    code = (
        "from django.db import connection; c = connection.cursor(); c.execute('PRAGMA journal_mode');"
        "print(c.fetchone()[0], connection.settings_dict['OPTIONS']['transaction_mode'])"
    )
    result = _manage(
        "shell",
        "-v",
        "0",
        "-c",
        code,
        DJANGO_DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'wal-check.sqlite3'}",
    )
    assert result.stdout.split() == ["wal", "IMMEDIATE"]


def _mail(settings) -> tuple:
    return (settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_HOST_USER,
            settings.EMAIL_HOST_PASSWORD, settings.EMAIL_USE_TLS, settings.DEFAULT_FROM_EMAIL)


def test_mail_goes_to_the_console_unless_an_smtp_server_is_set():
    assert _mail(_settings(DJANGO_DEBUG="1")) == (
        "django.core.mail.backends.console.EmailBackend", "", 587, "", "", True,
        "ClubRating <noreply@localhost>")
    smtp = _settings(
        DJANGO_DEBUG="1", DJANGO_EMAIL_HOST="mail.example.at", DJANGO_EMAIL_PORT="465",
        DJANGO_EMAIL_USER="club", DJANGO_EMAIL_PASSWORD="geheim", DJANGO_EMAIL_USE_TLS="0",
        DJANGO_DEFAULT_FROM_EMAIL="SK Donaustadt <club@example.at>",
    )
    assert _mail(smtp) == ("django.core.mail.backends.smtp.EmailBackend", "mail.example.at", 465, "club",
                           "geheim", False, "SK Donaustadt <club@example.at>")


def _lockout(settings) -> tuple:
    return (settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds(),
            settings.CLIENT_IP_HEADER, settings.AXES_LOCKOUT_PARAMETERS)


def test_login_lockout_settings_from_the_environment():
    # Without a trusted proxy: per username only (a hall's shared address is not locked).
    assert _lockout(_settings(**PRODUCTION)) == (True, 5, 900.0, "", ["username"])
    behind_a_proxy = _settings(DJANGO_AXES_FAILURE_LIMIT="10", DJANGO_AXES_COOLOFF_MINUTES="60",
                               DJANGO_CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR", **PRODUCTION)
    assert _lockout(behind_a_proxy) == (True, 10, 3600.0, "HTTP_X_FORWARDED_FOR", ["username", "ip_address"])


def test_env_example_trusts_no_forwarded_header():
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    assert "DJANGO_CLIENT_IP_HEADER=" in lines
    example = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert _lockout(_settings(**example))[3:] == ("", ["username"])
