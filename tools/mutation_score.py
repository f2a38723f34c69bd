"""Print the mutation score of the last `mutmut run` (make mutation) and check the survivors.

Every surviving mutant must be listed in MUTATION.md as equivalent, with its one-line reason
(a line starting "- `module.x_function__mutmut_N`"); a survivor that is not listed, or a listed
name that no longer survives, makes this exit 1.
Usage: python tools/mutation_score.py   (from the repository, after mutmut run)
"""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    stats = json.loads((ROOT / "mutants" / "mutmut-cicd-stats.json").read_text())
    results = subprocess.run(
        [sys.executable, "-m", "mutmut", "results"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    survivors = set(re.findall(r"^\s*(\S+): survived$", results, re.MULTILINE))
    listed = set(re.findall(r"^- `([^`]+)`", (ROOT / "MUTATION.md").read_text(), re.MULTILINE))
    tested = stats["total"] - stats["skipped"] - stats["no_tests"]
    detected = stats["killed"] + stats["timeout"]
    equivalent = len(survivors & listed)
    killable = tested - equivalent
    print(
        f"mutation score: {detected} of {tested} mutants killed ({100 * detected / tested:.1f} %); "
        f"{len(survivors)} survived, {equivalent} of them equivalent (MUTATION.md), so "
        f"{detected} of {killable} killable mutants killed ({100 * detected / killable:.1f} %); "
        f"{stats['timeout']} of the killed timed out; {stats['suspicious']} suspicious"
    )
    if stats["total"] - tested:
        print(f"not run: {stats['skipped']} skipped, {stats['no_tests']} without a test")
    unexplained, stale = sorted(survivors - listed), sorted(listed - survivors)
    for name in unexplained:
        print(f"survived, not explained in MUTATION.md: {name}  (mutmut show {name})")
    for name in stale:
        print(f"listed in MUTATION.md but not a survivor any more: {name}")
    return 1 if unexplained or stale or stats["no_tests"] else 0


if __name__ == "__main__":
    sys.exit(main())
