"""axe-core in the browser tests: every page of every audience is audited and a
serious or critical violation fails the test. The app's strict CSP forbids the inline
script Playwright injects, so the audit runs in a context made with `bypass_csp=True`."""

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SEVERE = ("serious", "critical")


def audit(page) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """() => axe.run(document, {runOnly: {type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})"""
    )
    lines = []
    for v in result["violations"]:
        if v["impact"] not in SEVERE:
            continue
        targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        lines.append(f"{page.url}: {v['id']} ({v['impact']}): {v['help']} [{targets}]")
    return lines
