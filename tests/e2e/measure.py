"""Measuring a page that polls, pages and swaps: read once, in one step of the page.

A locator found now and measured later (`locator.bounding_box()`, then `page.mouse.click` at
that place) races the leaderboard's poll, the big screen's pager and every htmx swap: the
element can be replaced or hidden in between (`bounding_box()` answered None in CI). These
helpers read what they need inside one `evaluate` call, which no poll, timer or swap can
interrupt, and retry until the element is attached and shown; act with Playwright's own
`locator.click()`, which finds the element again when it was replaced.
tests/project/test_e2e_style.py keeps the racy calls out of the browser tests.
"""

import time

from playwright.sync_api import Error, expect

RECT = "r => ({x: r.x, y: r.y, width: r.width, height: r.height})"

_BOX = f"""el => {{
  if (!el.isConnected || !el.getClientRects().length) return null;
  return ({RECT})(el.getBoundingClientRect());
}}"""

_BOXES = f"""sel => [...document.querySelectorAll(sel)]
  .filter(el => el.getClientRects().length)
  .map(el => ({RECT})(el.getBoundingClientRect()))"""


def box(locator, timeout: float = 10) -> dict:
    """The element's box once it is attached and shown (None only after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        found = locator.evaluate(_BOX)
        if found or time.monotonic() > deadline:
            assert found, f"{locator} was never attached and shown"
            return found
        locator.page.wait_for_timeout(50)  # wait-ok: the next try, bounded by the deadline


def boxes(page, selector: str) -> list[dict]:
    """The boxes of all shown elements matching the CSS `selector`, in document order, read
    in one step of the page (none of them can be swapped or paged away between two)."""
    return page.evaluate(_BOXES, selector)


def press(locator) -> None:
    """Click a button inside the judge's cards, which htmx swaps every 5 s and after every
    answer. Playwright's click is a mouse down and up at a place, and a swap between the two
    loses the click (CI: the undo's sheet never opened). `dispatch_event` finds the element
    and clicks it in one step of the page, so no swap can fall inside it."""
    expect(locator).to_be_visible()
    locator.dispatch_event("click")


def screenshot(page, path, **options) -> None:
    """`page.screenshot` that asks again when Chromium's compositor has no frame to give
    ("Unable to capture screenshot": seen once in CI on a busy machine, the page already
    shown and waited for); any other error, or the third refusal, fails the test."""
    for attempt in range(3):
        try:
            page.screenshot(path=str(path), **options)
            return
        except Error as error:
            if "Unable to capture screenshot" not in str(error) or attempt == 2:
                raise
