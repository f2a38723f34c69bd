"""The outbox logic (static/js/judge/outbox.mjs and its modules), unit-tested in Node with
injected storage/fetch."""

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.node
@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_outbox_unit_tests_pass():
    result = subprocess.run(
        ["node", "--test", str(HERE / "outbox_unit.cjs")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
