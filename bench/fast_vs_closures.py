#!/usr/bin/env python3
"""The generated engine against the closure engine of this checkout, in one process: random
self-play (cardrules.interpreter.selfplay) in alternating chunks, so both see the same load.

    python bench/fast_vs_closures.py [--games N] [--chunks K] [--seed S]

prints matches per second of both and the ratio generated/closures for Klats 3p, ARNE 92 3p and
ARNE Total @en at 2, 4 and 6 players. bench/engine_speed.py measures against the engine of the
commit before issue 14, installed on its own; this one needs no install.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.load import load
from cardrules.interpreter.selfplay import run

REPO = Path(__file__).resolve().parent.parent
CASES = (("klats", None, 3), ("arne_92", None, 3), ("arne_total", "en", 2), ("arne_total", "en", 4),
         ("arne_total", "en", 6))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="matches per engine and case")
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"{'case':<22} {'generated/s':>12} {'closures/s':>11} {'ratio':>6}")
    for name, edition, players in CASES:
        c = compile_ruleset(load(str(REPO / "rulesets" / f"{name}.rules"), edition).model, players)
        size = max(1, a.games // a.chunks)
        fast = slow = 0.0
        for k in range(a.chunks):
            fast += run(c, size, a.seed + k, engine="fast").wall_seconds
            slow += run(c, size, a.seed + k, engine="reference").wall_seconds
        played = size * a.chunks
        label = f"{name}{'@' + edition if edition else ''} {players}p"
        print(f"{label:<22} {played / fast:>12.1f} {played / slow:>11.1f} {slow / fast:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
