"""Test configuration: hypothesis without per-example deadlines.

Timing belongs in ``make bench``, not in unit tests; a deadline would only make
the suite flaky on a busy machine (cold caches make first examples slower).
"""

import shutil

import pytest
from hypothesis import settings

settings.register_profile("project", deadline=None, print_blob=True)
settings.load_profile("project")


def _stale_extensions() -> list[str]:
    """Compiled modules older than their sources (an edit since the last ``make compiled``)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    stale = []
    for so in sorted(root.glob("envs/**/*.so")):
        source = so.with_name(so.name.split(".")[0] + (".pyx" if so.name.startswith("_") else ".py"))
        for f in (source, source.with_suffix(".pxd")):  # a .pxd: C types for its .py
            if f.exists() and f.stat().st_mtime > so.stat().st_mtime:
                stale.append(str(f.relative_to(root)))
    return stale


def pytest_sessionstart(session) -> None:
    """The suite runs on the build the checkout holds: a stale one stops it (``make test`` rebuilds
    first; run ``make compiled`` after editing a hot module by hand, or set CNMAHJONG_PURE=1)."""
    import os

    import pytest

    if os.environ.get("CNMAHJONG_PURE") == "1":
        return
    stale = _stale_extensions()
    if stale:
        pytest.exit(f"compiled hot path older than its sources ({', '.join(stale)}): run `make compiled`", 2)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.fail("the browser tests need Debian's chromium and chromium-driver: `make test` installs them "
                    "(apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,1000"):
        options.add_argument(arg)
    b = webdriver.Chrome(service=Service(driver), options=options)
    yield b
    b.quit()
