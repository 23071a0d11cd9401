"""ClubRating settings. Everything deployment-specific comes from the environment (see .env.example)."""

import hashlib
import os
import re
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _load_dotenv(path: Path) -> None:
    """Reads KEY=VALUE lines from .env; the real environment always wins."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            os.environ.setdefault(key.strip(), value.strip().strip("'\""))


_load_dotenv(Path(os.environ.get("CLUBRATING_ENV_FILE", BASE_DIR / ".env")))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
# Set by the test runner (conftest.py) and scripts/test.sh: plain HTTP, no secret needed.
TESTING = env_bool("CLUBRATING_TESTING", False) or "pytest" in sys.modules

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or TESTING:
        # Only ever used for local development and tests, never when DEBUG is off.
        SECRET_KEY = "insecure-dev-key-do-not-use-in-production-0123456789abcdef"
    else:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off (see .env.example)."
        )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "bootstrap",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "ninja",
    "clubrating.accounts",
    "clubrating.core",
    "clubrating.site",
    "clubrating.clubs",
    "clubrating.tournaments",
    "clubrating.leagues",
    "clubrating.interchange",
    "clubrating.jobs",
    "clubrating.national_list",
    "clubrating.federation",
    "ratings",
    "clubrating.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "clubrating.site.middleware.HomeClubMiddleware",  # the own club read once per request
    "clubrating.site.middleware.LocaleMiddleware",  # German unless the visitor switches: no Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last: turns a login refused by the lockout into the lockout page (status 429).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubrating.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubrating.site.context_processors.club",
            ],
        },
    },
]

WSGI_APPLICATION = "clubrating.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections (health-checked before reuse): opening one costs more than a
        # page's queries. The tests open and close their own.
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0" if TESTING else "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # No JIT compilation: the pages' queries run in milliseconds, but an aggregate over joins is
    # estimated expensive enough that PostgreSQL spends hundreds of milliseconds compiling it
    # (the start page's recent tournaments: 0.1 ms of work, 670 ms of JIT at 20,000 members).
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"
    # Statements run through the server-binding cursors of clubrating/core/db.py are prepared
    # once a connection has run them this often (a result save's small reads and writes; Django's
    # own cursors are never prepared). Empty: never (a connection pooler without support for
    # prepared statements).
    _prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "1").strip()
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = int(_prepare) if _prepare else None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers continue while one official writes; IMMEDIATE takes the write lock at
    # the start of a transaction so two concurrent saves queue (busy timeout) instead of
    # failing with "database is locked" when a read lock is upgraded.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
        ),
    }
    # An in-memory test database ignores the busy timeout; concurrency tests need a real file.
    # One file per test process, so two test runs on one machine never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"clubrating-test-{os.getpid()}.sqlite3")
    }

# The lockout backend comes first: it refuses a locked-out username or address before the
# password is even checked (it needs the request, so every login passes one).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

if TESTING:
    # Tests create and log in many users; the deliberately slow production hash would dominate.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "de-at"
LANGUAGES = [("de-at", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["clubrating.formats"]
TIME_ZONE = "Europe/Vienna"
USE_I18N = True
USE_TZ = True


USE_THOUSAND_SEPARATOR = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Serve static files straight from the apps in development and tests (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login lockout (django-axes) on the site login and the admin login alike: after
# AXES_FAILURE_LIMIT wrong passwords for one username (from any address) further attempts for it
# are refused for AXES_COOLOFF_TIME; each attempt during the lockout starts the cool-off again. A
# successful login clears the counters; so do a completed password reset, `manage.py axes_reset`
# and the admin site (Axes → Access attempts).
AXES_ENABLED = env_bool("DJANGO_AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("DJANGO_AXES_COOLOFF_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "clubrating.accounts.views.lockout"
# The visitor's address is REMOTE_ADDR unless the site names a trusted reverse proxy: the header
# (Django's META name, e.g. HTTP_X_FORWARDED_FOR) in which that proxy passes the visitor's address.
# Without one such a header is the visitor's own claim and is ignored.
CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "")
# Failures are counted per address (for any username) only where the site names a trusted proxy:
# otherwise many players share one address (a tournament hall's Wi-Fi, a club's router) and one
# player's typos would lock out all of them.
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"] if CLIENT_IP_HEADER else ["username"]
if not CLIENT_IP_HEADER:
    SILENCED_SYSTEM_CHECKS = ["axes.W006"]  # "no ip_address in AXES_LOCKOUT_PARAMETERS": on purpose
AXES_CLIENT_IP_CALLABLE = "clubrating.accounts.client_ip.client_ip"

# Password reset mails: printed on the console unless an SMTP server is configured.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "ClubRating <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A reset link is valid for one day (Django's default is three).
PASSWORD_RESET_TIMEOUT = 24 * 60 * 60

# Content-Security-Policy: only the application's own scripts, styles and images. No inline
# script or style attribute runs; the one inline style block (the running header of the print
# pages, which carries the club's name and the list's title) is allowed by a per-response nonce,
# which is only sent when a page uses it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# Production hardening: on unless DEBUG; each can be relaxed from the environment
# (e.g. behind a proxy that terminates TLS).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not (DEBUG or TESTING))
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not (DEBUG or TESTING))
CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not (DEBUG or TESTING))
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# The sites that may show the embeddable lists and standings (/embed/…) in an <iframe>: origins
# such as "https://www.sk-musterdorf.at", separated by spaces or commas. Only the embed pages
# relax the site-wide frame-ancestors 'none' (and X-Frame-Options), and only for these sites.
EMBED_ALLOWED_SITES = [
    site for site in re.split(r"[\s,]+", os.environ.get("CLUBRATING_EMBED_SITES", "")) if site]

# The public read API (/api/v1/): requests per client address (``client_ip``, the same address
# the login lockout counts), as "count/period" with period s, min, hour or day ("120/min").
API_RATE_LIMIT = os.environ.get("CLUBRATING_API_RATE_LIMIT", "120/min")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

# Uploaded files (TRF, PGN and CSV imports): the import forms refuse files over
# IMPORT_MAX_BYTES with a message; Django keeps uploads up to FILE_UPLOAD_MAX_MEMORY_SIZE in
# memory and streams larger ones to a temporary file, and refuses form data other than files
# over DATA_UPLOAD_MAX_MEMORY_SIZE.
IMPORT_MAX_BYTES = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Groups that carry the roles of officials and rating officers (docs/using.md).
OFFICIALS_GROUP = "officials"
RATING_OFFICERS_GROUP = "rating officers"
# Club administrators give the roles (the Rollen page) and set the club up; the three groups
# exist from `migrate` on (clubrating/accounts/migrations/0001_roles.py).
CLUB_ADMINS_GROUP = "club administrators"

# Background jobs: Django's task framework (the django-tasks backport of Django 6's django.tasks)
# with its database queue; `manage.py jobs_worker` runs them. The tests run each job at once
# (immediate backend) unless CLUBRATING_TASK_BACKEND=database.
_TASK_BACKEND = os.environ.get("CLUBRATING_TASK_BACKEND", "immediate" if TESTING else "database")
TASKS = {
    "default": {
        "BACKEND": {
            "immediate": "django_tasks.backends.immediate.ImmediateBackend",
            "database": "django_tasks_db.DatabaseBackend",
        }[_TASK_BACKEND],
    }
}
# Above these sizes the pages hand the work to a background job (smaller work stays synchronous).
BACKGROUND_POOL_MEMBERS = int(os.environ.get("CLUBRATING_BACKGROUND_POOL_MEMBERS", "2000"))
BACKGROUND_IMPORT_ROWS = int(os.environ.get("CLUBRATING_BACKGROUND_IMPORT_ROWS", "1000"))
# PGN and TRF files above this size (a PGN file of 1 MB takes some 6 s) are imported in the background.
BACKGROUND_IMPORT_BYTES = int(os.environ.get("CLUBRATING_BACKGROUND_IMPORT_BYTES", str(512 * 1024)))
BACKGROUND_PDF_ROWS = int(os.environ.get("CLUBRATING_BACKGROUND_PDF_ROWS", "500"))
# FIDE's monthly rating list (clubrating/federation): the federations whose players the lookup
# keeps searchable and its size limit (an upload waits in the database between preview and import).
FIDE_FEDERATIONS = env_list("CLUBRATING_FIDE_FEDERATIONS", "AUT")
FIDE_LIST_MAX_BYTES = 600 * 1024 * 1024
# Members whose login has not been used for this many years are erased by
# `manage.py erase_inactive_accounts` (DSGVO Art. 5 storage limitation); 0 = never.
ACCOUNT_RETENTION_YEARS = int(os.environ.get("CLUBRATING_ACCOUNT_RETENTION_YEARS", "0"))
# A running job's worker writes a sign of life this often; a running job silent for
# JOB_STALE_SECONDS (its worker was killed or its machine stopped) is shown as failed and may be
# started again. Generous: on SQLite the sign of life waits while the work holds the write lock.
JOB_HEARTBEAT_SECONDS = int(os.environ.get("CLUBRATING_JOB_HEARTBEAT_SECONDS", "15"))
JOB_STALE_SECONDS = int(os.environ.get("CLUBRATING_JOB_STALE_SECONDS", "300"))

# Cache: the cached live list, home page and the pools' cache versions (ratings/services/cache.py).
# Every process that serves pages or runs jobs must see the same cache, or a result saved in one
# gunicorn worker would leave the others showing the old live list. Both shared backends need
# nothing installed: "file" (the default; one machine: every process of the site shares the
# folder CLUBRATING_CACHE_DIR) and "database" (several machines: a table in the site's database,
# created by `manage.py createcachetable`). "memory" is per process: tests and single-process use.
_CACHE = os.environ.get("CLUBRATING_CACHE", "memory" if TESTING else "file")
if _CACHE not in ("memory", "file", "database"):
    raise ImproperlyConfigured(
        f"CLUBRATING_CACHE={_CACHE!r}: expected one of memory, file, database."
    )
_CACHE_DIR = os.environ.get("CLUBRATING_CACHE_DIR") or str(
    # one folder per installation (the same in every process: not Python's salted hash())
    Path(tempfile.gettempdir()) / f"clubrating-cache-{hashlib.sha256(bytes(BASE_DIR)).hexdigest()[:12]}"
)
CACHES = {
    "default": {
        "memory": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "file": {
            "BACKEND": "clubrating.core.cache.FastFileCache",
            "LOCATION": _CACHE_DIR,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        },
        "database": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "clubrating_cache",
            "OPTIONS": {"MAX_ENTRIES": 20000},
        },
    }[_CACHE],
}
