"""The shared formatter (static/js/format.mjs) and the judge page's card overlay
(static/js/judge/board.mjs), unit-tested in Node as the ES modules the browser loads."""

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.node
@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("unit", ["format_unit.mjs", "board_unit.mjs"])
def test_js_unit_tests_pass(unit):
    result = subprocess.run(
        ["node", "--test", str(HERE / unit)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
