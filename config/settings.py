"""Settings, read from the environment with safe development defaults (docs/contracts.md "Running").

DEBUG is off unless set (`make run` and the tests set DEBUG=1; pyproject's pytest `env`).
Off, the app refuses to start without SECRET_KEY and ALLOWED_HOSTS. Otherwise a fresh clone
needs no variable: SQLite under var/, a local-memory cache.
"""

import mimetypes
import os
import tempfile
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (DEBUG=1 for development)."
        )
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "config.apps.AdminConfig",  # django.contrib.admin with the read-only site (config/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",  # API tokens stored hashed (django-rest-knox)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, no CDN
    "django_htmx",
    "axes",
    "competition",
    "judging",
    "scoring",
    "championships",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.mirror.MirrorMiddleware",  # a mirror serves the public pages only
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "competition.roles.roles_context",
                "config.mirror.context",
            ],
        },
    },
]

# Every file the app writes is its owner's alone (docs/contracts.md "Personal data and the hall's
# files"): the database and its -wal/-shm, backups, logs, the secret key, whatever the
# umask the process was started with (competition/private.py).
os.umask(0o077)

# Databases: DATABASE_URL, else SQLite in var/. Persistent connections: measured 3.3x the
# throughput of Django's default on a one-query view.
# VAR_DIR: where the app's own files live (default var/; `make hall` keeps its secret key
# and access log there too).
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True, mode=0o700)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (judges) at once: wait for the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: shared Redis when CACHE_URL or REDIS_URL is set, else process-local memory.
# Correctness never depends on it: keys carry the standings version from the database.
# A dead or slow Redis costs one short timeout, then the process's own memory answers for
# a few seconds (config/cache.py) and the error is logged.
CACHE_SOCKET_TIMEOUT = float(os.environ.get("CACHE_SOCKET_TIMEOUT", "0.25"))


def cache_config(url: str, prefix: str = "puslespil") -> dict:
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {
            "default": {
                "BACKEND": "config.cache.FallbackRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": prefix,
                "OPTIONS": {
                    "socket_connect_timeout": CACHE_SOCKET_TIMEOUT,
                    "socket_timeout": CACHE_SOCKET_TIMEOUT,
                },
            }
        }
    if url.startswith("dummy://"):
        return {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "puslespil",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }


CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or ""
CACHES = cache_config(CACHE_URL, os.environ.get("CACHE_PREFIX", "puslespil"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "competition.passwords.KnownPasswordValidator"},  # the demo's, in the README
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "public:home"
LOGOUT_REDIRECT_URL = "public:home"

# Login throttling against password guessing (django-axes): 5 failures per user and client
# address (config/proxy.py: the real client behind the TLS proxy) lock for 15 minutes. The
# head judge unlocks in the control room or with `manage.py axes_reset_username NAME`.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.proxy.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_ENABLED = env_bool("AXES_ENABLED", True)

LANGUAGE_CODE = "da"
LANGUAGES = [("da", _("Danish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Copenhagen"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The pages' ES modules (static/js/**/*.mjs): a browser runs a module only when it comes as
# JavaScript, and the system's mime.types (which Python reads) may not know .mjs.
mimetypes.add_type("text/javascript", ".mjs")
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "config.storage.StaticStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_AUTOREFRESH = env_bool("WHITENOISE_AUTOREFRESH", DEBUG)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "competition.auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON with the limits of docs/contracts.md "The HTTP API" (64 KB -> 413; too deep -> 400).
    "DEFAULT_PARSER_CLASSES": [
        "competition.inputs.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "competition.errors.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# API tokens (`Authorization: Token KEY`): django-rest-knox keeps only a SHA-512 hash of
# each key, so a stolen database or backup holds no working token. No expiry: a program
# keeps its token until the head judge revokes it (the control room's judges page).
REST_KNOX = {"TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token"}
SPECTACULAR_SETTINGS = {
    "TITLE": "Puslespil API",
    "DESCRIPTION": "The jigsaw-puzzle championship: competitions, teams, judging, standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # `<id:...>` (competition.inputs.IdConverter): a positive id that fits a bigint.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 1, "maximum": 9_223_372_036_854_775_807}
    },
}

# Behind a TLS-terminating proxy set SECURE_PROXY=1 (production default): secure cookies,
# HSTS, SSL redirect. Health checks come over plain HTTP from the balancer.
SECURE = env_bool("SECURE_PROXY", not DEBUG)
# How many proxies append to X-Forwarded-For in front of the app (config/proxy.py); none
# when the app is not behind the TLS proxy, so the header is then not believed.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "1")) if SECURE else 0
if SECURE:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts, styles and everything else only from our own
# files; no inline script, event-handler attribute or inline style anywhere (tests/project/
# test_csp.py). Images may be data: URIs (the API docs' icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14  # a judge stays logged in through the day

# A finish faster than this many pieces per minute per puzzler asks the judge to confirm.
PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER = float(
    os.environ.get("PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER", "15")
)

# A championship's big screen (`/<championship>/screen/`) shows each running competition (each
# page of its board) this many seconds before the next (scoring/views_stage.py).
STAGE_ROTATE_SECONDS = float(os.environ.get("STAGE_ROTATE_SECONDS", "15"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- The hall: one laptop runs the day (`make hall`, config/hall.py) -----------
# `make hall` sets DEBUG=0, SECURE_PROXY=0, SECRET_KEY (kept in var/secret_key),
# ALLOWED_HOSTS (the laptop's own addresses) and PUBLIC_URL before gunicorn starts.
# PUBLIC_URL: the address phones and tablets open (QR codes, the big screen's footer);
# empty = the address the request came to.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
HALL_WIFI = os.environ.get("HALL_WIFI", "")  # the Wi-Fi's name, for the judges' join sheet
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL: readers never wait for the writer, and a write waits (timeout above) instead of
    # failing with "database is locked". synchronous stays FULL: an answered tap survives a
    # power cut.
    # secure_delete: a deleted or overwritten row (a member erased, a name corrected) is
    # zeroed in the file, not left in a free page.
    DATABASES["default"]["OPTIONS"].setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA secure_delete=ON;"
    )
    # The tests run on the hall's kind of database, a file in WAL mode with the busy timeout
    # above, never Django's default in-memory one: there the browser tests' live server shares
    # one connection with the test, and a write while it serves a page fails at once ("database
    # table is locked": a shared-cache lock that no timeout retries). One file per process
    # (pytest-xdist adds the worker's suffix), in the temporary folder; Django deletes it after.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path(tempfile.gettempdir()) / f"puslespil-test-{os.getpid()}.sqlite3")
    )
# Snapshots while a competition is on (judging/backups/): every BACKUP_MINUTES (0 = off;
# `make hall` uses 5), after each clock stop and finalise; the newest BACKUP_KEEP periodic
# ones are kept.
BACKUP_MINUTES = float(os.environ.get("BACKUP_MINUTES", "0") or 0)
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "48"))
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or VAR_DIR / "backups")
BACKUP_CHECK_SECONDS = float(os.environ.get("BACKUP_CHECK_SECONDS", "30"))
try:  # the app's version, which each tablet reports with its heartbeat
    from importlib.metadata import version as _package_version

    APP_VERSION = _package_version("puslespil")
except Exception:  # not installed as a package (a bare checkout)
    APP_VERSION = "0"

# --- The public mirror (docs/contracts.md "The public mirror") -------------------------
# The hall: MIRROR_URL (the mirror's address, e.g. https://dm.example.dk) and MIRROR_TOKEN
# make `manage.py mirror_push` (started by `make hall`) push each competition's public
# snapshot there. A mirror: MIRROR_TOKEN set and MIRROR_URL unset; it serves the public
# pages and API from the snapshots and takes no other write (config/mirror.py).
MIRROR_URL = os.environ.get("MIRROR_URL", "").rstrip("/")
MIRROR_TOKEN = os.environ.get("MIRROR_TOKEN", "")
MIRROR_TIMEOUT = float(os.environ.get("MIRROR_TIMEOUT", "3"))  # seconds per push
MIRROR_KEEPALIVE = float(os.environ.get("MIRROR_KEEPALIVE", "10"))  # re-push unchanged
MIRROR_MAX_BACKOFF = float(os.environ.get("MIRROR_MAX_BACKOFF", "30"))
