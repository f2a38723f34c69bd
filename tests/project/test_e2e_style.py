"""The browser tests wait for states, never for moments.

CI went red on a busy machine when a test located a leaderboard row, then measured it while
the 1 s poll swapped the rows (`bounding_box()` answered None). The class of that defect is
"read the page, act on what was read later": so this test reads every browser test and
refuses the calls that do it. Instead: `expect(...)` (it retries until the state is there),
`locator.click()` (it finds the element again), and `tests/e2e/measure.py` (reads in one step
of the page). A fixed pause is allowed only as a negative check ("nothing else arrives"),
marked `# wait-ok:` with the reason on its line or the one before.
"""

import ast
import re
from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "e2e"

# Locate now, use later: the element can be replaced or paged away in between.
RACY = {
    "bounding_box",
    "element_handle",
    "element_handles",
    "query_selector",
    "query_selector_all",
    "wait_for_selector",
}
# A one-time read inside an assert does not wait for the state: use expect(...).
READS = {
    "inner_text",
    "inner_html",
    "text_content",
    "all_inner_texts",
    "all_text_contents",
    "get_attribute",
    "input_value",
    "is_visible",
    "is_hidden",
    "is_checked",
    "is_enabled",
    "is_disabled",
    "is_editable",
}


def _files():
    files = sorted(E2E.glob("test_*.py")) + [
        E2E / n for n in ("measure.py", "conftest.py", "building.py")
    ]
    assert len(files) > 10
    return files


def _calls(node):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            yield sub, sub.func.attr


def _bodies(tree):
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body


def _waits_for_an_answer(stmt) -> bool:
    """`with page.expect_response(...)`: the answer has come, its htmx swap may not have
    (CI: the desk chose a finish in the old field, then the swap replaced it)."""
    return isinstance(stmt, ast.With) and any(
        isinstance(item.context_expr, ast.Call)
        and getattr(item.context_expr.func, "attr", "") == "expect_response"
        for item in stmt.items
    )


def _is_expect(stmt) -> bool:
    return _waits_for_an_answer(stmt) or (
        isinstance(stmt, ast.Expr) and ast.unparse(stmt.value).startswith("expect(")
    )


def _strings(tree) -> dict[str, str]:
    """The module's names bound to a string literal (`TV_PAGE = '() => ...'`)."""
    return {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _an_expression(arg, strings: dict[str, str]) -> bool:
    """A polled predicate written as an expression, not a function: Playwright evals it again
    at every poll, from the page's own timer, where the CSP forbids eval (only the first,
    synchronous try is allowed). CI: `wait_for_function("window.scrollY >= 300")` failed
    whenever the page had not scrolled yet at the first try. A function is evaluated once."""
    if isinstance(arg, ast.JoinedStr):
        parts = [v.value for v in arg.values if isinstance(v, ast.Constant)]
        text = parts[0] if parts and isinstance(arg.values[0], ast.Constant) else ""
    elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        text = arg.value
    elif isinstance(arg, ast.Name) and arg.id in strings:
        text = strings[arg.id]
    else:
        return False  # read from a file or built: the file's own test says what it is
    text = text.lstrip()
    return not (text.startswith(("(", "function", "async")) or re.match(r"^\w+\s*=>", text))


def _problems(path: Path) -> list[str]:
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    strings = _strings(tree)
    found = []
    for call, name in _calls(tree):
        where = f"{path.name}:{call.lineno}"
        if name == "wait_for_function" and call.args and _an_expression(call.args[0], strings):
            found.append(f"{where}: wait_for_function of an expression; poll a function")
        if name in RACY:
            found.append(f"{where}: .{name}() locates now and is used later; see measure.py")
        if name == "click" and getattr(call.func.value, "attr", "") == "mouse":
            found.append(f"{where}: mouse.click at a measured place; use locator.click()")
        if name == "click" and "card(" in ast.unparse(call.func.value):
            found.append(f"{where}: .click() inside a card that swaps; use measure.press()")
        in_test = path.name.startswith("test_")
        if name == "sleep" and getattr(call.func.value, "id", "") == "time" and in_test:
            found.append(f"{where}: time.sleep in a browser test; wait for a state")
        if name == "wait_for_timeout":
            context = " ".join(lines[max(0, call.lineno - 2) : call.lineno])
            if "wait-ok:" not in context:
                found.append(f"{where}: a fixed pause without '# wait-ok: <why>'")
    for body in _bodies(tree):
        for stmt, following in zip(body, body[1:], strict=False):
            if _waits_for_an_answer(stmt) and not _is_expect(following):
                context = " ".join(lines[max(0, following.lineno - 2) : following.lineno])
                if "wait-ok:" not in context:
                    found.append(
                        f"{path.name}:{following.lineno}: acts after an answer came, before"
                        " its swap is done; expect() the state first"
                    )
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            for call, name in _calls(node):
                if name in READS:
                    found.append(f"{path.name}:{call.lineno}: assert on .{name}(); use expect()")
    return found


def test_no_browser_test_reads_the_page_and_acts_on_it_later():
    problems = [p for path in _files() for p in _problems(path)]
    assert problems == [], "\n".join(problems)


def test_the_check_finds_each_kind_of_race(tmp_path):
    racy = tmp_path / "test_racy.py"
    racy.write_text(
        "def test_x(page, row):\n"
        "    b = row.bounding_box()\n"
        "    page.mouse.click(b['x'], b['y'])\n"
        "    page.wait_for_timeout(500)\n"
        "    assert row.inner_text() == 'x'\n"
        "    page.wait_for_timeout(500)  # wait-ok: nothing else arrives\n"
        "    card(page, 2).locator('[data-action=undo]').click()\n"
        "    with page.expect_response(lambda r: True):\n"
        "        page.select_option('x')\n"
        "    page.locator('[name=about]').select_option('y')\n"
        "    with page.expect_response(lambda r: True):\n"
        "        page.select_option('x')\n"
        "    expect(page.locator('#about')).to_be_attached()\n"
        "    page.wait_for_function('window.scrollY >= 300')\n"
        "    page.wait_for_function(f'window.x > {n}')\n"
        "    page.wait_for_function('() => window.scrollY >= 300')\n"
        "    page.wait_for_function(f'() => window.x > {n}')\n"
        "    page.wait_for_function(PREDICATE)\n"
        "PREDICATE = 'document.title'\n"
    )
    kinds = [p.split(": ", 1)[1].split(" ")[0] for p in _problems(racy)]
    assert kinds == [
        ".bounding_box()",
        "mouse.click",
        "a",
        ".click()",
        "wait_for_function",
        "wait_for_function",
        "wait_for_function",
        "acts",
        "assert",
    ]
