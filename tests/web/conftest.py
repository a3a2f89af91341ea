"""Fixtures of the web tests: the app in-process, a live server, and headless Chromium.

The live server is the one ``fr-score serve`` runs (uvicorn with the timed protocol of
``web/server.py``, searches in a worker process) in a background thread on a free loopback
port; the browser is Debian's Chromium driven by Playwright (no browser download:
``executable_path`` points at the system one, which ``.ci/system-deps`` installs). Nothing
ever leaves 127.0.0.1. Screenshots go to ``artifacts/`` (git-ignored).

A failing test's report ends with every error the server logged while it ran (the traceback
of a 500 among them, :class:`ServerErrors`): a failure seen once under load explains itself.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from fantasy_scorer.web import server
from fantasy_scorer.web.app import create_app
from fantasy_scorer.web.games import GameKey, GameSpec

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
VIEWPORTS = {"phone": PHONE, "laptop": LAPTOP}
CURSED_HOARDS = GameSpec((), GameKey("cursed-hoards"))


@pytest.fixture(scope="session")
def client() -> TestClient:
    """The app with no time limit on the advice: its answers never depend on the load."""
    return TestClient(create_app(advice_time_limit=None))


@pytest.fixture(scope="session")
def ch_client() -> TestClient:
    """A server started with ``--expansion cursed-hoards``."""
    return TestClient(create_app(CURSED_HOARDS, advice_time_limit=None))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerErrors(logging.Handler):
    """Every error the app logs (its handler of unexpected exceptions logs each 500 with its
    traceback, a solver's failure its worker's) and uvicorn's own, in the order they came:
    :func:`pytest_runtest_makereport` adds those of a failing test to its report."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def watch(self, name: str) -> None:
        """Keep the errors of logger ``name`` (again: uvicorn's configuration replaces the
        handlers of its own loggers each time a server is configured)."""
        logger = logging.getLogger(name)
        if self not in logger.handlers:
            logger.addHandler(self)


SERVER_ERRORS = ServerErrors()
SERVER_ERRORS.watch("fantasy_scorer.web")  # the in-process apps of TestClient too
_ERRORS_FROM = pytest.StashKey[int]()  # a test's first line of SERVER_ERRORS.lines


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[_ERRORS_FROM] = len(SERVER_ERRORS.lines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failing step's report ends with the server errors logged since its test began (in
    the failure's own text, which ``--show-capture`` does not hide)."""
    report = yield
    logged = SERVER_ERRORS.lines[item.stash.get(_ERRORS_FROM, 0):]
    if report.failed and logged:
        title, text = "server errors (logged during this test)", "\n".join(logged)
        if hasattr(report.longrepr, "addsection"):
            report.longrepr.addsection(title, text)
        else:
            report.sections.append((title, text))
    return report


class LiveServer:
    """uvicorn in a thread, configured as ``fr-score serve`` configures it; its errors are
    kept for the report of a failing test (:class:`ServerErrors`)."""

    def __init__(self, app, **options) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(server.config(app, "127.0.0.1", self.port, **options))
        SERVER_ERRORS.watch("uvicorn.error")  # (after the configuration: see watch)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 60  # a guard against a hang, not a speed test
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture(scope="session")
def live_url() -> Iterator[str]:
    """The app served as ``fr-score serve`` serves it (one advice worker) for the session."""
    with LiveServer(create_app(workers=1, advice_time_limit=None)) as live:
        yield live.url


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (.ci/system-deps installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, live_url: str, viewport: dict, **options):
    """A fresh page; any script error on it is collected in ``page.script_errors``."""
    context = browser.new_context(viewport=viewport, base_url=live_url, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)  # a guard against a hang, not a speed test
    page.script_errors = errors
    return context, page


@pytest.fixture(params=list(VIEWPORTS))
def screen(request, browser, live_url):
    """A fresh page at phone width (390×844) and at laptop width (1280×800); any script error
    on it fails the test."""
    context, page = open_page(browser, live_url, VIEWPORTS[request.param])
    page.screen = request.param
    yield page
    context.close()
    assert not page.script_errors, f"script errors on the page: {page.script_errors}"


@pytest.fixture
def phone(browser, live_url):
    context, page = open_page(browser, live_url, PHONE)
    page.screen = "phone"
    yield page
    context.close()
    assert not page.script_errors, f"script errors on the page: {page.script_errors}"


def shot(page, name: str, full: bool = False) -> None:
    """A screenshot ``artifacts/NAME-SCREEN.png`` (a test artifact, not a check)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{page.screen}.png"), full_page=full)
