#!/usr/bin/env python3
"""What measuring a match costs `compare`: the same matches played plain (self-play) and
measured (the lead read after every turn, cards counted), in one process, as a ratio.

    python bench/compare_overhead.py [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import time

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.load import load
from cardrules.interpreter.measure import measure
from cardrules.interpreter.selfplay import matches

TABLES = (("klats", None, 3), ("arne_total", "en", 4), ("arne_92", None, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'ruleset':<16} {'players':>7} {'plain s':>8} {'measured s':>10} {'ratio':>6}")
    for name, edition, players in TABLES:
        compiled = compile_ruleset(load(name, edition).model, players)
        start = time.perf_counter()
        for _ in matches(compiled, args.games, args.seed):
            pass
        plain = time.perf_counter() - start
        start = time.perf_counter()
        measure(compiled, args.games, args.seed, ("random",) * players)
        measured = time.perf_counter() - start
        label = name + (f"@{edition}" if edition else "")
        print(f"{label:<16} {players:>7} {plain:>8.2f} {measured:>10.2f} {measured / plain:>6.2f}")


if __name__ == "__main__":
    main()
