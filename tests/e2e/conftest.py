"""Browser tests: pytest-playwright against pytest-django's live_server, headless Chromium.

Log in by a force-login session cookie (django-axes makes the login form slow to script);
every test saves screenshots of its steps under tests/e2e/screenshots/ (git-ignored).
"""

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.measure import screenshot

# Playwright's sync API runs an event loop in this thread; Django's ORM calls from the test
# body are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# A state may take long to come on a busy machine (three taps sent one by one took 6 s
# beside a second suite and two busy loops); waiting longer for a state never makes a test
# flaky, only a failing one slower. Playwright's default is 5 s.
expect.set_options(timeout=20_000)

# Debian's Chromium wherever the PATH has it (/usr/bin/chromium on Debian); never a download.
CHROMIUM = shutil.which("chromium")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def pytest_collection_modifyitems(config, items):
    """Every test here is a browser test (`e2e`: with CI=true it may not skip); without
    Chromium each one skips, with the reason."""
    skip = pytest.mark.skip(reason="chromium is not on the PATH (apt-get install chromium)")
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.e2e)
            if CHROMIUM is None:
                item.add_marker(skip)


_serving = {"requests": 0}
_serving_lock = threading.Lock()


def _counting(app):
    """The live server's WSGI app, counting the requests it is inside."""

    def counted(environ, start_response):
        with _serving_lock:
            _serving["requests"] += 1
        try:
            return app(environ, start_response)
        finally:
            with _serving_lock:
                _serving["requests"] -= 1

    counted.counting = True
    return counted


@pytest.fixture(autouse=True)
def _server_idle_before_the_database_is_emptied(request):
    """The page closes before the database is emptied for the next test, but what it sent as
    it closed (a heartbeat beacon on pagehide, a last poll) may still be served, and a request
    that writes after the flush leaves rows for the next test. So: after the page has closed,
    wait until the live server is inside no request, then let the flush run. (The test
    database is a file in WAL mode, config/settings.py: the flush and such a request each
    have their own connection and wait for each other instead of failing.)"""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up before: emptied after this
    if "browser" in request.fixturenames:
        left = request.getfixturevalue("browser").contexts
        assert not left, f"{len(left)} browser context(s) of an earlier test still open"
    httpd = request.getfixturevalue("live_server").thread.httpd
    if not getattr(httpd.get_app(), "counting", False):
        httpd.set_app(_counting(httpd.get_app()))
    yield
    # Every page the test opened is closed here, also those of a context the test made
    # itself and did not close (an assert failed first, or it never did): a page left open
    # polls on into the next tests. CI: a big screen's poll, served after its test had
    # ended, failed on the database and logged a traceback, whose formatting (ast) in the
    # server's thread met a code-walking test's ast.parse in the main thread (CPython
    # 3.11's AST state is shared between threads: "recursion depth mismatch").
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
    time.sleep(0.05)  # a beacon sent as the page closed reaches the server
    deadline = time.monotonic() + 10
    while _serving["requests"] and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # Service workers are blocked: context.set_offline does not reach their traffic.
    return {
        **browser_context_args,
        "viewport": {"width": 768, "height": 1024},
        "locale": "da-DK",
        "service_workers": "block",
    }


@pytest.fixture
def login(live_server):
    """login(context, user): a Django session for `user` as the context's cookie."""

    def add(context, user):
        from django.test import Client

        client = Client()
        client.force_login(user)
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )

    return add


@pytest.fixture
def shot(request):
    """shot(page, "step"): tests/e2e/screenshots/<test>-<nn>-<step>.png"""
    SCREENSHOTS.mkdir(exist_ok=True)
    name = re.sub(r"[^\w-]+", "_", request.node.name)
    counter = {"n": 0}

    def take(page, step: str) -> Path:
        counter["n"] += 1
        path = SCREENSHOTS / f"{name}-{counter['n']:02d}-{step}.png"
        screenshot(page, path)
        return path

    return take


@pytest.fixture(autouse=True)
def _role_groups(transactional_db):
    """A transactional test flushes the tables afterwards, the migration's groups too."""
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


@pytest.fixture
def running(transactional_db, competition, teams):
    """The clock started 90 minutes ago: a 500-piece puzzle now is a plausible pace."""
    from datetime import timedelta

    from django.utils import timezone

    competition.started_at = timezone.now() - timedelta(minutes=90)
    competition.save()
    return competition


@pytest.fixture
def new_context(browser, browser_context_args):
    """new_context(viewport=...): a separate browser (cookies, storage) closed afterwards."""
    made = []

    def make(**overrides):
        made.append(browser.new_context(**{**browser_context_args, **overrides}))
        return made[-1]

    yield make
    for context in made:
        context.close()
