"""A bounded load test on loopback (issue 15 §4): ten clients post hard ``/api/best`` pools
for a few seconds while the page is loaded again and again. The page's load times go to the
benchmark output (``artifacts/web-load.txt`` and the test's output), never into an
assertion: what is checked is that every answer had its shape, the page always answered 200,
and a busy solver said so in one line (503) instead of queueing for minutes."""

from __future__ import annotations

import sys
from pathlib import Path

from .conftest import ARTIFACTS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import web_load  # noqa: E402


def test_the_page_loads_while_clients_post_hard_pools(capsys) -> None:
    figures = web_load.run(duration=8, clients=10, abuse=False)
    assert figures.page_loaded and all(s == 200 for s in figures.page_statuses)
    assert figures.best
    for status, _, data in figures.best:
        assert status in (200, 503), (status, data)
        if status == 503:
            assert set(data) == {"detail"} and "\n" not in data["detail"]
        else:
            assert data["discards"] and isinstance(data["complete"], bool)
    text = web_load.report(figures, 10)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "web-load.txt").write_text(text + "\n", encoding="utf-8")
    with capsys.disabled():
        print("\n" + text)
