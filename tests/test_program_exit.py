"""The ``fr-score`` program (``cli.main.run``) leaves promptly, and loses nothing by it:
what the command wrote is all there, and the exit code is the command's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def fr_score(*args: str) -> subprocess.CompletedProcess:
    code = "import sys; from fantasy_scorer.cli.main import run; sys.argv[0] = 'fr-score'; run()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def test_a_scored_hand_is_printed_whole_with_exit_code_0() -> None:
    done = fr_score(str(EXAMPLES / "hand-260.txt"))
    assert done.returncode == 0
    total = next(x for x in done.stdout.splitlines() if x.startswith("Total"))
    assert total.split()[-1] == "260"


def test_a_mistake_is_one_error_line_with_exit_code_2() -> None:
    done = fr_score("no-such-hand.txt")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["Error: no such file: no-such-hand.txt"]
    assert done.stdout == ""


def test_help_exits_0() -> None:
    done = fr_score("--help")
    assert done.returncode == 0 and "fr-score COMMAND --help" in done.stdout
