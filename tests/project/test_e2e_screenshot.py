"""The browser tests' screenshots ask Chromium again when its compositor has no frame to give
("Unable to capture screenshot", CI on a busy machine failed a whole walk on it), and only
then: any other error still fails the test (tests/e2e/measure.py `screenshot`)."""

import pytest
from playwright.sync_api import Error

from tests.e2e.measure import screenshot


class Page:
    def __init__(self, errors):
        self.errors = list(errors)
        self.calls = []

    def screenshot(self, **options):
        self.calls.append(options)
        if self.errors:
            raise Error(self.errors.pop(0))


NO_FRAME = "Page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot"


def test_no_frame_is_asked_again_and_the_picture_taken(tmp_path):
    page = Page([NO_FRAME, NO_FRAME])
    screenshot(page, tmp_path / "a.png", full_page=True)
    assert page.calls == [{"path": str(tmp_path / "a.png"), "full_page": True}] * 3


def test_a_third_refusal_or_another_error_fails(tmp_path):
    with pytest.raises(Error, match="Unable to capture"):
        screenshot(Page([NO_FRAME] * 3), tmp_path / "a.png")
    page = Page(["Target page, context or browser has been closed"])
    with pytest.raises(Error, match="has been closed"):
        screenshot(page, tmp_path / "a.png")
    assert len(page.calls) == 1
