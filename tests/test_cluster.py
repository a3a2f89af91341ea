"""The Dask layer (issue 37): a local cluster of 2 workers, started here on loopback, gives
the census and the simulation of one process; the options without the extra say what to
install."""

from __future__ import annotations

import json
import logging
import warnings

import pytest
from click.testing import CliRunner

import fantasy_scorer as fs
from fantasy_scorer import cluster
from fantasy_scorer.cli import census as cli_census
from fantasy_scorer.cli.main import main
from fantasy_scorer.cli.workers import simulate_on
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.game.simulate import simulate
from fantasy_scorer.realms.solve import census as cs

#: 16 cards, the choosing ones among them.
POOL16 = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
          "Mirage", "Book of Changes", "Doppelgänger", "Shapeshifter", "Phoenix", "Island",
          "Knights", "Queen", "King", "Rainstorm"]


@pytest.fixture(scope="module")
def scheduler():
    """A local cluster of 2 worker processes on loopback, for this module's tests."""
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():  # a port taken by another cluster only moves its page
        warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
        local = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                         host="127.0.0.1", dashboard_address=None,
                                         silence_logs=logging.ERROR)
    with local:
        assert local.scheduler_address.startswith("tcp://127.0.0.1:")
        yield local.scheduler_address


def job16() -> cs.Job:
    cat = base_catalog()
    cards = [fs.hand([n], catalog=cat).cards[0] for n in POOL16]
    return cs.make_job(cs.Game(), cards, cs.Game(None, "deluxe"))


def test_a_census_on_two_workers_equals_the_one_in_process(scheduler: str, tmp_path) -> None:
    job = job16()
    here = cli_census.count(job, workers=1, chunk=1000)
    there = cli_census.count(job, str(tmp_path / "c.json"), scheduler=scheduler, chunk=1000)
    assert there == here
    assert sum(here.values()) == 11440  # C(16, 7)
    assert max(here) == 260  # the package docstring's hand is among them


def test_a_simulation_on_two_workers_equals_the_one_in_process(scheduler: str) -> None:
    lineup = ["greedy", "greedy", "random", "greedy"]
    here = simulate(base_catalog(), 4, lineup, 40, "7").to_json()
    there = simulate_on(cs.Game(), 4, lineup, 40, "7", None, None, scheduler=scheduler,
                        size=6).to_json()
    assert here.pop("seconds") >= 0 and there.pop("seconds") >= 0
    assert there == here
    assert there["games"] == 40


def test_parts_in_process_merge_in_the_order_of_the_games() -> None:
    lineup = ["greedy", "random"]
    here = simulate(base_catalog(), 2, lineup, 9, "s").to_json()
    parts = simulate_on(cs.Game(), 2, lineup, 9, "s", None, None, workers=1, size=4).to_json()
    here.pop("seconds"), parts.pop("seconds")
    assert parts == here


def test_the_census_command_starts_its_own_local_cluster(tmp_path) -> None:
    pytest.importorskip("distributed")
    f = tmp_path / "pool.txt"
    f.write_text("\n".join(POOL16[:10]) + "\n")
    r = CliRunner().invoke(main, ["census", "--pool", str(f), "--workers", "2", "--json"])
    assert r.exit_code == 0, r.output
    alone = CliRunner().invoke(main, ["census", "--pool", str(f), "--workers", "1", "--json"])
    assert json.loads(r.output)["histogram"] == json.loads(alone.output)["histogram"]


def test_without_the_extra_one_worker_runs_in_process(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    assert cluster.plan(1, None) == 1
    assert cluster.plan(None, None) == 1
    assert list(cluster.run(pow, [(2, 3), (3, 2)], workers=1)) == [(0, 8), (1, 9)]
    with pytest.raises(fs.ScorerError, match=r'pip install "fantasy-scorer\[cluster\]"'):
        cluster.plan(2, None)
    with pytest.raises(fs.ScorerError, match="cluster"):
        cluster.plan(None, "tcp://127.0.0.1:8786")


def test_the_command_line_says_which_extra_to_install(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    for args in (["census", "--workers", "2"], ["simulate", "--games", "3", "--workers", "2"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2
        assert r.output.count("\n") == 1 and "fantasy-scorer[cluster]" in r.output


def test_bad_worker_options_are_one_line_errors() -> None:
    with pytest.raises(fs.ScorerError, match="at least 1"):
        cluster.plan(0, None)
    with pytest.raises(fs.ScorerError, match="tcp://HOST:PORT"):
        cluster.plan(None, "localhost:8786")
    with pytest.raises(fs.ScorerError, match="exclude each other"):
        cluster.plan(2, "tcp://127.0.0.1:8786")
