"""DEBUG is off unless set (docs/contracts.md "Running"): a server started without any variable is
a production server, so it refuses to start without its secret key."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"


def settings_in_a_fresh_process(**extra) -> subprocess.CompletedProcess:
    unset = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_PROXY"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(extra, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_without_debug_set_the_app_is_production_and_needs_its_secret_key():
    result = settings_in_a_fresh_process()
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_with_a_secret_key_and_hosts_debug_stays_off():
    result = settings_in_a_fresh_process(SECRET_KEY="k" * 60, ALLOWED_HOSTS="example.dk")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_debug_on_only_when_asked():
    result = settings_in_a_fresh_process(DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
