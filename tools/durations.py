"""Write tests/durations.json from a JUnit file: the tests that took 2 s or more.

    .venv/bin/pytest --junitxml=var/junit.xml && .venv/bin/python tools/durations.py var/junit.xml
(`make durations` does both.) tests/slow_first.py starts these tests first.
"""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

MIN_SECONDS = 2.0
OUT = Path(__file__).resolve().parent.parent / "tests" / "durations.json"


def nodeid(case: ET.Element) -> str:
    # JUnit names a test by its dotted class path; pytest by file path and "::".
    module, _, cls = case.get("classname", "").partition(".Test")
    path = module.replace(".", "/") + ".py"
    parts = [path] + ([f"Test{cls}"] if cls else []) + [case.get("name", "")]
    return "::".join(parts)


def collected() -> set[str]:
    """The tests pytest collects now (a JUnit file also names subtests, which are not)."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line for line in out.splitlines() if "::" in line}


def main(junit: str) -> None:
    durations = {}
    tests = collected()
    for case in ET.parse(junit).getroot().iter("testcase"):
        seconds = float(case.get("time", 0))
        name = nodeid(case)
        if seconds >= MIN_SECONDS and name in tests:
            durations[name] = max(durations.get(name, 0.0), round(seconds, 1))
    ordered = dict(sorted(durations.items(), key=lambda kv: -kv[1]))
    OUT.write_text(json.dumps(ordered, indent=1) + "\n")
    print(f"{len(ordered)} tests of {MIN_SECONDS} s or more in {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "var/junit.xml")
