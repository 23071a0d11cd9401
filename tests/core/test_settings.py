"""Settings come from the environment; production-like values pass Django's deploy checks."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args, **env):
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CLUBRATING_"))}
    environ["CLUBRATING_ENV_FILE"] = "/nonexistent/.env"  # a developer's .env must not leak in
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


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
    code = "from django.conf import settings; print(settings.DEBUG, settings.DATABASES['default']['ENGINE'])"
    result = _manage("shell", "-v", "0", "-c", code, **PRODUCTION)
    assert result.stdout.split() == ["False", "django.db.backends.sqlite3"]
    result = _manage("shell", "-v", "0", "-c", code, DJANGO_DEBUG="1")
    assert result.stdout.split()[0] == "True"


def test_env_file_is_read_but_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDJANGO_DEBUG=1\nDJANGO_ALLOWED_HOSTS='a.example.at,b.example.at'\n")
    code = "from django.conf import settings; print(settings.DEBUG, ','.join(settings.ALLOWED_HOSTS))"
    result = _manage("shell", "-v", "0", "-c", code, CLUBRATING_ENV_FILE=str(env_file))
    assert result.stdout.split() == ["True", "a.example.at,b.example.at"]
    result = _manage(
        "shell", "-v", "0", "-c", code, CLUBRATING_ENV_FILE=str(env_file), DJANGO_ALLOWED_HOSTS="c.example.at"
    )
    assert result.stdout.split() == ["True", "c.example.at"]


def test_database_url_selects_postgresql():
    code = (
        "from django.conf import settings; d = settings.DATABASES['default']; print(d['ENGINE'], d['PORT'])"
    )
    result = _manage(
        "shell", "-v", "0", "-c", code, DJANGO_DEBUG="1", DATABASE_URL="postgres://u:p@127.0.0.1:5433/club"
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "5433"]


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


def test_mail_goes_to_the_console_unless_an_smtp_server_is_set():
    code = (
        "from django.conf import settings as s; print(s.EMAIL_BACKEND.rsplit('.', 2)[1], s.EMAIL_HOST or '-',"
        " s.EMAIL_PORT, s.EMAIL_HOST_USER or '-', s.EMAIL_HOST_PASSWORD or '-', s.EMAIL_USE_TLS,"
        " s.DEFAULT_FROM_EMAIL.split()[-1])"
    )
    result = _manage("shell", "-v", "0", "-c", code, DJANGO_DEBUG="1")
    assert result.stdout.split() == ["console", "-", "587", "-", "-", "True", "<noreply@localhost>"]
    result = _manage(
        "shell", "-v", "0", "-c", code, DJANGO_DEBUG="1", DJANGO_EMAIL_HOST="mail.example.at",
        DJANGO_EMAIL_PORT="465", DJANGO_EMAIL_USER="club", DJANGO_EMAIL_PASSWORD="geheim",
        DJANGO_EMAIL_USE_TLS="0", DJANGO_DEFAULT_FROM_EMAIL="SK Donaustadt <club@example.at>",
    )
    assert result.stdout.split() == ["smtp", "mail.example.at", "465", "club", "geheim", "False",
                                     "<club@example.at>"]


def test_login_lockout_settings_from_the_environment():
    code = (
        "from django.conf import settings as s; print(s.AXES_ENABLED, s.AXES_FAILURE_LIMIT,"
        " s.AXES_COOLOFF_TIME.total_seconds(), s.CLIENT_IP_HEADER or '-')"
    )
    result = _manage("shell", "-v", "0", "-c", code, **PRODUCTION)
    assert result.stdout.split() == ["True", "5", "900.0", "-"]
    result = _manage("shell", "-v", "0", "-c", code, DJANGO_AXES_FAILURE_LIMIT="10",
                     DJANGO_AXES_COOLOFF_MINUTES="60", DJANGO_CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR",
                     **PRODUCTION)
    assert result.stdout.split() == ["True", "10", "3600.0", "HTTP_X_FORWARDED_FOR"]
