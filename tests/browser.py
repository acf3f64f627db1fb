"""Headless Chromium for the page tests and for ``make docs``' screenshot of the page.

Uses Debian's Chromium through Playwright for Python, never a browser build of Playwright's
own (no ``playwright install``). The tests drive ``chromium-headless-shell`` when it is
installed: the same Blink and V8 as ``chromium`` without the browser around them, a sixth less
CPU for the page tests (specs/html.md). The screenshot and the bench use ``chromium``, the
browser a person opens. ``python tests/browser.py PAGE.html SHOT.png`` takes the README's
screenshot.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["ARGS", "chromium_path", "launch", "screenshot", "skip_reason"]

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def chromium_path(lean: bool = False) -> str | None:
    """The Debian Chromium binary, or None when it is not installed; ``lean``: the headless
    shell first, when it is installed."""
    names = ("chromium-headless-shell",) if lean else ()
    for name in (*names, "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def skip_reason() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: Playwright for Python is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "browser tests skipped: no Chromium found (apt-get install chromium; .ci/run does)"
    return None


@contextmanager
def launch(lean: bool = False) -> Iterator[Any]:
    """One headless Chromium for a whole test session (``lean``: the headless shell when it is
    installed) or for one screenshot or bench run (the browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(lean), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshot(page: Path, shot: Path, width: int = 1200, height: int = 960) -> None:
    """A PNG of the page as a person first sees it, after a few ticks of the chase, its
    figures in."""
    with launch() as browser:
        tab = browser.new_page(viewport={"width": width, "height": height})
        tab.goto(page.resolve().as_uri())
        tab.evaluate("mazekit.app.ready()")  # the worker's figures in, not "computing…"
        tab.evaluate("mazekit.app.step(40)")
        tab.screenshot(path=str(shot))


def main(argv: list[str]) -> int:
    """``make docs``' last step: the screenshot, or why it cannot be taken (exit 1). Without
    this check Playwright would answer a missing Chromium with "run playwright install", a
    browser download this project never makes."""
    why = skip_reason()
    if why is not None:
        print(
            f"{sys.argv[0]}: no screenshot of {argv[0]}: {why.split(': ', 1)[1]}", file=sys.stderr
        )
        return 1
    screenshot(Path(argv[0]), Path(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
