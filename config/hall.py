"""`make hall`: the championship on one laptop, as in production, for the hall's network.

    python -m config.hall          (PORT=8000, HALL_WORKERS, HALL_HOST, HALL_WIFI, BACKUP_*)

Migrates, collects the static files, prints the addresses a tablet and a phone can open
with their QR codes, and replaces itself with gunicorn (several sync workers) on
0.0.0.0:$PORT: DEBUG off, WhiteNoise for the static files, plain http (no TLS proxy in a
sports hall), the secret key created once in var/secret_key, SQLite in WAL mode (or
PostgreSQL when DATABASE_URL is set), a backup every BACKUP_MINUTES (default 5).

ALLOWED_HOSTS is the laptop's own names and addresses, not "*": a web page elsewhere that
makes its name point at the laptop (DNS rebinding) cannot talk to the app, and no address
the app prints or encodes in a QR code can come from a forged Host header. Another name
(a DNS name on the hall's router) can be added with ALLOWED_HOSTS.
"""

import fcntl
import hashlib
import ipaddress
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# gunicorn's access log without the query string or the referring page: `?q=` of the desk's
# search holds a child's name (docs/contracts.md: logs never record a staff page's query string).
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(L)s'
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "lo")


def _ip_addr() -> list[tuple[str, str]]:
    """(interface, IPv4 address) from `ip` (Linux) or `ifconfig` (macOS, BSD)."""
    found: list[tuple[str, str]] = []
    if shutil.which("ip"):
        out = subprocess.run(
            ["ip", "-o", "-4", "addr", "show", "up"], capture_output=True, text=True, check=False
        ).stdout
        for line in out.splitlines():
            match = re.match(r"\d+:\s+(\S+)\s+inet\s+([\d.]+)/", line)
            if match:
                found.append((match[1], match[2]))
    elif shutil.which("ifconfig"):
        interface = ""
        out = subprocess.run(["ifconfig"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line and not line[0].isspace():
                interface = line.split(":", 1)[0]
            match = re.search(r"\binet (?:addr:)?([\d.]+)", line)
            if match:
                found.append((interface, match[1]))
    return found


def addresses() -> list[str]:
    """The laptop's IPv4 addresses on the hall's network, the likeliest first: private
    addresses on real interfaces before virtual ones; no loopback or link-local."""
    pairs = _ip_addr()
    if not pairs:
        try:
            pairs = [("", a) for a in socket.gethostbyname_ex(socket.gethostname())[2]]
        except OSError:
            pairs = []
    ranked = []
    for interface, address in pairs:
        ip = ipaddress.ip_address(address)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        virtual = interface.startswith(VIRTUAL)
        ranked.append((virtual, not ip.is_private, address))
    return list(dict.fromkeys(a for *_rank, a in sorted(ranked, key=lambda r: r[:2])))


def allowed_hosts(addrs: list[str], hostname: str, extra: str = "") -> list[str]:
    names = ["localhost", "127.0.0.1", "[::1]", *addrs]
    if hostname and hostname != "localhost":
        short = hostname.split(".")[0]
        names += [hostname, short, f"{short}.local"]
    names += [h.strip() for h in extra.split(",") if h.strip()]
    return list(dict.fromkeys(names))


def var_dir(environ) -> Path:
    """The hall's own files (the secret key, the access log; the database by default)."""
    return Path(environ.get("VAR_DIR") or BASE_DIR / "var")


def secret_key(path: Path) -> str:
    """Created once (only the owner may read it), then read at every start."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def hall_environment(environ: dict) -> dict:
    """The environment gunicorn and its workers run with."""
    port = environ.get("PORT") or "8000"
    addrs = addresses()
    host = environ.get("HALL_HOST") or (addrs[0] if addrs else "127.0.0.1")
    env = dict(environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECURE_PROXY="0",  # plain http on the hall's Wi-Fi; no HTTPS redirect, no secure cookies
        SECRET_KEY=environ.get("SECRET_KEY") or secret_key(var_dir(environ) / "secret_key"),
        ALLOWED_HOSTS=",".join(
            allowed_hosts(addrs + [host], socket.gethostname(), environ.get("ALLOWED_HOSTS", ""))
        ),
        PUBLIC_URL=environ.get("PUBLIC_URL") or f"http://{host}:{port}",
        BACKUP_MINUTES=environ.get("BACKUP_MINUTES") or "5",
        PORT=port,
    )
    return env


def _current(now) -> str | None:
    """The slug whose addresses the hall prints: the nearest competition not final, or its
    championship's when that holds several competitions (its programme, its judges' tablet,
    its control room); None when there is none yet."""
    from competition.models import Competition

    open_ones = list(Competition.objects.filter(finalised_at=None).select_related("championship"))
    nearest = min(open_ones, key=lambda c: abs(c.starts_at - now), default=None)
    if nearest is None:
        return None
    if nearest.championship.slug != nearest.slug:  # not its own: a championship of several
        return nearest.championship.slug
    return nearest.slug


def _banner(env: dict) -> None:
    import segno
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import timezone, translation
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    from competition.services import password_generate, staff_upsert
    from puzzle_rules.formatting import plural_count

    translation.activate(settings.LANGUAGE_CODE)
    base = env["PUBLIC_URL"]
    slug = _current(timezone.now())
    judges = f"{base}/judge/{slug}/" if slug else f"{base}/accounts/login/"
    spectators = f"{base}/{slug}/" if slug else f"{base}/"
    print()
    port = {"port": env["PORT"]}
    print(_("The hall: the app runs on this laptop (DEBUG off, port %(port)s).") % port)
    print(_("Tablets and phones on the hall's Wi-Fi open:"))
    for host in env["ALLOWED_HOSTS"].split(","):
        if host not in ("localhost", "127.0.0.1", "[::1]") and "." in host.strip("[]"):
            print(f"    http://{host}:{env['PORT']}/")
    if env.get("HALL_WIFI"):
        print(_("Wi-Fi: %(wifi)s") % {"wifi": env["HALL_WIFI"]})
    for title, url in ((_("Judges (log in)"), judges), (_("Spectators"), spectators)):
        print()
        print(f"{title}: {url}  ({_('scan to open')})")
        segno.make(url, error="m").terminal(compact=True, border=2)
    print()
    if slug:
        print(_("Control room on this laptop: %(url)s") % {"url": f"{base}/control/{slug}/"})
    user_model = get_user_model()
    if not user_model.objects.filter(is_superuser=True).exists() and not (
        user_model.objects.filter(groups__name="admin").exists()
    ):
        password = password_generate()
        staff_upsert(username="admin", role="admin", password=password)
        print(
            _("First start: log in as %(user)s with the password %(password)s (shown once).")
            % {"user": "admin", "password": password}
        )
    folder = settings.BACKUP_DIR
    print(
        ngettext(
            "Backups every minute while a competition is on: %(folder)s",
            "Backups every %(minutes)s minutes while a competition is on: %(folder)s",
            plural_count(env["BACKUP_MINUTES"]),
        )
        % {"minutes": env["BACKUP_MINUTES"], "folder": folder}
    )
    print(_("Stop with Ctrl-C."))
    print(flush=True)


def refusals() -> list[str]:
    """Why the hall must not serve this database: logins whose password the README prints
    (the demo's, after `make run` on the same checkout) and the demo competition."""
    from competition.models import Championship, Competition
    from competition.passwords import known_password_logins
    from judging.management.commands.demo import DEMO_SLUG, DEMO_SLUGS

    found = []
    logins = known_password_logins()
    if logins:
        found.append(
            "These logins have a password the README prints (the demo's): "
            + ", ".join(logins)
            + ". Set new ones, e.g. `.venv/bin/python -m config.hall manage create_staff "
            + f"{logins[0]} --role admin --random-password` (each login with its role), "
            + "or remove the demo: `.venv/bin/python -m config.hall manage demo --remove`."
        )
    demo = Competition.objects.filter(slug__in=DEMO_SLUGS).values_list("slug", flat=True)
    if demo or Championship.objects.filter(slug=DEMO_SLUG).exists():
        shown = ", ".join(f"/{slug}/" for slug in [DEMO_SLUG, *demo])
        found.append(
            f"The demo championship ({shown}, make run) would be on the home page: "
            "remove it with `.venv/bin/python -m config.hall manage demo --remove`."
        )
    return found


def _refuse(found: list[str]) -> None:
    print("make hall does not start:", file=sys.stderr)
    for reason in found:
        print(f"  - {reason}", file=sys.stderr)
    print(
        "  (Or give the hall a database of its own: DATABASE_URL=sqlite:////path/hall.sqlite3 "
        "make hall.)",
        file=sys.stderr,
    )
    sys.exit(2)


def _static_fingerprint() -> str:
    """Every static source file's name, size and time: equal means nothing to collect."""
    from django.contrib.staticfiles.finders import get_finders

    rows = []
    for finder in get_finders():
        for path, storage in finder.list([]):
            info = os.stat(storage.path(path))
            rows.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()


def _collect_static(call_command) -> None:
    """collectstatic (hashed names, compressed), skipped when no source file changed: a
    restart in the hall takes seconds, not half a minute."""
    from django.conf import settings

    stamp = Path(settings.STATIC_ROOT) / ".collected"
    fingerprint = _static_fingerprint()
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists() and stamp.exists() and stamp.read_text() == fingerprint:
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(fingerprint)


def start_pusher(env: dict, log_path: Path):
    """With MIRROR_URL and MIRROR_TOKEN: `manage.py mirror_push` beside gunicorn,
    its log in var/hall-mirror.log; it ends when the hall (this pid, then gunicorn's
    master) is gone. None without a mirror."""
    if not (env.get("MIRROR_URL") and env.get("MIRROR_TOKEN")):
        return None
    from competition.private import private_open

    with private_open(log_path) as log:
        return subprocess.Popen(
            [
                sys.executable,
                str(BASE_DIR / "manage.py"),
                "mirror_push",
                "--parent",
                str(os.getpid()),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=log,
        )


def main(argv: list[str]) -> None:
    os.umask(0o077)  # every file the hall writes is its owner's alone, gunicorn's log too
    env = hall_environment(dict(os.environ))
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))
    if argv[:1] == ["manage"]:  # `make backup`, `make restore FILE=…`: with the hall's settings
        from django.core.management import execute_from_command_line

        execute_from_command_line(["manage.py", *argv[1:]])
        return
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    from competition.private import private_dir, private_open, tighten

    call_command("migrate", interactive=False, verbosity=0)
    found = refusals()
    if found:
        _refuse(found)
    var = private_dir(var_dir(env))
    for folder in (var, Path(settings.BACKUP_DIR)):
        tighten(folder)  # files an older version (or umask 022) left readable
    access_log = var / "hall-access.log"
    private_open(access_log).close()
    (BASE_DIR / "var").mkdir(exist_ok=True, mode=0o700)
    lock = BASE_DIR / "var" / ".collectstatic.lock"
    with open(lock, "a") as handle:  # two starts at once do not write the same files
        fcntl.flock(handle, fcntl.LOCK_EX)
        _collect_static(call_command)
    _banner(env)
    connections.close_all()
    if start_pusher(env, var / "hall-mirror.log"):
        from django.utils.translation import gettext

        words = {"url": env["MIRROR_URL"], "log": var / "hall-mirror.log"}
        print(gettext("The public mirror: pushing to %(url)s (log: %(log)s)") % words, flush=True)
    workers = env.get("HALL_WORKERS") or str(max(3, min(9, 2 * (os.cpu_count() or 1) + 1)))
    args = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "--workers",
        workers,
        "--bind",
        f"0.0.0.0:{env['PORT']}",
        "--timeout",
        "60",
        "--graceful-timeout",
        "10",
        "--access-logfile",
        str(access_log),
        "--access-logformat",
        ACCESS_LOG_FORMAT,
    ]
    sys.stdout.flush()
    os.chdir(BASE_DIR)
    os.execve(sys.executable, args, env)


if __name__ == "__main__":
    main(sys.argv[1:])
