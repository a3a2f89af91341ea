"""The test server keeps the traceback of every 500 it answers, for the report of a failing
test (``conftest.ServerErrors``): a failure seen once under load explains itself."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from fantasy_scorer.web.app import create_app

from .conftest import SERVER_ERRORS, LiveServer


class Planted(Exception):
    """A bug planted in the app for this test."""


def test_the_live_server_keeps_the_traceback_of_a_500() -> None:
    app = create_app()

    @app.get("/planted")
    def planted() -> None:
        raise Planted("a bug planted for the test")

    before = len(SERVER_ERRORS.lines)
    with LiveServer(app) as live, pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(live.url + "/planted")
    assert answer.value.code == 500
    kept = "\n".join(SERVER_ERRORS.lines[before:])
    assert "unexpected error on /planted" in kept
    assert "Planted: a bug planted for the test" in kept  # the traceback's last line
