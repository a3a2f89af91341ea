"""Fixtures of the web tests: the app in-process, a live server, and headless Chromium.

The live server is uvicorn in a background thread on a free loopback port; the browser is
Debian's Chromium driven by Playwright (no browser download: ``executable_path`` points at the
system one, which ``.ci/system-deps`` installs). Nothing ever leaves 127.0.0.1.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from fantasy_scorer.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def client() -> TestClient:
    return TestClient(create_app())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_url() -> Iterator[str]:
    """The app served by uvicorn on a free local port for the whole session."""
    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a guard against a hang, not a speed test
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (.ci/system-deps installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(browser, live_url):
    """A fresh phone-sized page; any script error on it fails the test."""
    context = browser.new_context(viewport=PHONE, base_url=live_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)  # a guard against a hang, not a speed test
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"
