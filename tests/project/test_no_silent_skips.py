"""CI cannot pass without running the browser and Node tests.

With CI=true a test marked `e2e` or `node` that would skip fails instead
(tests/ci_no_skips.py); `.ci/tools` (run by `.ci/run`) installs Debian's chromium and nodejs
when missing and stops CI with a clear message when it cannot; the browser fixture finds
Chromium on the PATH.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SKIPPING = """
import pytest

@pytest.mark.node
@pytest.mark.skipif(True, reason="Node.js is not installed")
def test_node():
    pass

@pytest.mark.e2e
def test_browser():
    pytest.skip("chromium is not on the PATH")

@pytest.mark.skipif(True, reason="needs PostgreSQL")
def test_postgres_only():
    pass

@pytest.mark.node
@pytest.mark.xfail(reason="known", run=False)
def test_expected_to_fail():
    pass
"""


def run_pytest(tmp_path, ci: str | None) -> subprocess.CompletedProcess:
    (tmp_path / "test_skipping.py").write_text(SKIPPING)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only this hook, and a fast start
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.ci_no_skips", "-p", "no:cacheprovider"]
        + ["-rA", "-q", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_in_ci_a_browser_or_node_test_that_would_skip_fails(tmp_path):
    result = run_pytest(tmp_path, "true")
    out = result.stdout
    assert result.returncode == 1, out
    assert "CI=true: this node test may not skip (Node.js is not installed)" in out
    assert "CI=true: this e2e test may not skip (chromium is not on the PATH)" in out
    assert "SKIPPED [1] test_skipping.py" in out and "needs PostgreSQL" in out  # not marked
    assert "XFAIL" in out and "test_expected_to_fail" in out
    # A skip in setup (a skip mark) shows as an error, one in the test's body as a failure.
    assert "ERROR test_skipping.py::test_node" in out
    assert "FAILED test_skipping.py::test_browser" in out


@pytest.mark.parametrize("ci", [None, "false"])
def test_outside_ci_they_skip(tmp_path, ci):
    result = run_pytest(tmp_path, ci)
    assert result.returncode == 0, result.stdout
    assert "3 skipped" in result.stdout


def _stub(directory: Path, name: str, script: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)


def run_tools(bin_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["/bin/bash", str(ROOT / ".ci" / "tools")],
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_ci_stops_when_chromium_and_node_cannot_be_installed(tmp_path):
    _stub(tmp_path, "apt-get", "exit 100")
    result = run_tools(tmp_path)
    assert result.returncode == 1
    assert "apt-get could not install chromium nodejs" in result.stderr
    assert "no chromium (the browser tests) on the PATH" in result.stderr
    assert "no node (the outbox's unit tests) on the PATH" in result.stderr


def test_ci_installs_what_is_missing_and_goes_on(tmp_path):
    log = tmp_path / "apt.log"
    # An apt-get that "installs" by putting the tools on the PATH, and logs its calls.
    body = (
        f'echo "$*" >> {log}\n'
        'case "$*" in *install*)\n'
        f'  for t in chromium node; do echo "#!/bin/sh" > {tmp_path}/$t; done\n'
        f"  /bin/chmod +x {tmp_path}/chromium {tmp_path}/node;;\n"
        "esac"
    )
    _stub(tmp_path, "apt-get", body)
    result = run_tools(tmp_path)
    assert result.returncode == 0, result.stderr
    assert log.read_text().splitlines()[-1] == "install -y -qq chromium nodejs"


def test_ci_installs_nothing_when_both_are_there(tmp_path):
    for tool in ("chromium", "node"):
        _stub(tmp_path, tool, "exit 0")
    _stub(tmp_path, "apt-get", "exit 100")
    result = run_tools(tmp_path)
    assert result.returncode == 0 and result.stdout == ""


def test_the_browser_fixture_finds_chromium_on_the_path(tmp_path):
    _stub(tmp_path, "chromium", "exit 0")
    found = subprocess.run(
        [sys.executable, "-c", "import tests.e2e.conftest as c; print(c.CHROMIUM)"],
        cwd=ROOT,
        env={"PATH": str(tmp_path), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert found.stdout.strip() == str(tmp_path / "chromium")
