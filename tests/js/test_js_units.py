"""The pages' scripts (the shared formatter and clock, the tablet's modules, the public,
control room and desk pages', the forms' short name and error summary), unit-tested in Node
as the ES modules the browser loads."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from competition.fields import parse_hms

HERE = Path(__file__).resolve().parent

# Times a person may type, odd ones included; format_unit.mjs checks that the tablet's
# parseHms answers each exactly as the server's parse_hms does.
TIMES = [
    "1:23:45",
    "0:00:45",
    "23:45",
    "95",
    "0",
    "1:5",
    "61:00",
    "1:2:3",
    " 1:00:00 ",
    "\t0:10\n",
    "1:60",
    "60:60",
    "1:00:60",
    "1234567",
    "999:59:59",
    "1000:00:00",
    "1:23:45:00",
    "",
    "  ",
    ":10",
    "10:",
    "1::2",
    "-5",
    "+5",
    "1.5",
    "1,5",
    "0:5",
    "\u0661\u0662:00",
    "\uff11\uff12:00",
    "2:59:40",
    "0:59:59",
    "00:00:00",
    "1:00:00\u3000",
    "\u00a00:05",
    "\u001c0:05\u001f",
    "\ufeff0:05",
    "0:05\u200b",
    "1 :00",
    "abc",
    "1:2:3:",
    "0:05\n\n",
    "9:59",
    "09:59",
    "099:00:00",
]


UNITS = [
    "format_unit.mjs",
    "board_unit.mjs",
    "judge_words_unit.mjs",
    "clock_unit.mjs",
    "pages_unit.mjs",
    "forms_unit.mjs",
    "competitions_unit.mjs",
    "count_unit.mjs",
    "copy_unit.mjs",
]


@pytest.mark.node
@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("unit", UNITS)
def test_js_unit_tests_pass(unit):
    cases = [[text, parse_hms(text)] for text in TIMES]
    result = subprocess.run(
        ["node", "--test", str(HERE / unit)],
        env={**os.environ, "SERVER_PARSE_HMS": json.dumps(cases)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
