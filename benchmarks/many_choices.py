"""The slow legal hand of issue 41 (point 9): many open choices and Necromancer's extra card.

``Book of Changes, Mirage, Shapeshifter, Doppelgänger, Island, Angel, Necromancer, Great
Flood`` (Cursed Hoards, 4 players, a 10-card discard area): ``fs.score`` hands it to the
compiled enumeration (``solve.api.COMPILED_FROM``); with ``--python`` the Python enumeration
scores it instead. Prints the total and the seconds of each call, wall and CPU (the first one
loads the compiled code; the CPU time says more on a loaded machine).
Run: ``python benchmarks/many_choices.py [--python]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fantasy_scorer as fs  # noqa: E402
from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.solve import api  # noqa: E402

HAND = ["Book of Changes", "Mirage", "Shapeshifter", "Doppelgänger", "Island", "Angel",
        "Necromancer", "Great Flood"]
AREA = ["King", "Queen", "Knights", "Unicorn", "Rangers", "Dragon", "Basilisk", "Warhorse",
        "Light Cavalry", "Princess"]


def main() -> None:
    if "--python" in sys.argv:
        api.COMPILED_FROM = sys.maxsize
    cat = base_catalog("cursed-hoards")
    hand = fs.hand(HAND, catalog=cat, discard=AREA, players=4)
    print(f"combinations (estimate): {api.combinations_estimate(hand, hand.discard):,}")
    for call in (1, 2):
        t0, c0 = time.perf_counter(), time.process_time()
        total = fs.score(hand).total
        print(f"call {call}: total {total} in {time.perf_counter() - t0:.1f} s "
              f"({time.process_time() - c0:.2f} s of CPU)")


if __name__ == "__main__":
    main()
