#!/usr/bin/env python3
"""The generated engine against the closure engine, move by move, on every shipped ruleset and
every legal selection: random self-play in lockstep, and at each position the distinct legal
actions (in order), the seat to move, every seat's view, the totals and the round results must
be the same (`cardrules.interpreter.equivalence`); then whole matches played out by a random bot
on the reference and through the fast engine's generated match loop (`FastGame.play_random`, what
self-play runs) must end in the same state.

    python bench/engine_equivalence.py [--positions N] [--matches M] [--seed S] [--only TEXT] [RULESET ...]

N positions (default 10,000) and M matches (default 300) for each ruleset and selection, shared
among its player counts; `--only +teams` keeps the selections whose text holds `+teams`.
Prints one line per selection and exits 1 at the first difference, saying where.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.equivalence import Mismatch, compare, compare_playouts
from cardrules.interpreter.load import load_all

REPO = Path(__file__).resolve().parent.parent
SHIPPED = ("klats", "arne_92", "arne_total")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", default=SHIPPED)
    ap.add_argument("--positions", type=int, default=10_000, help="positions per ruleset and selection")
    ap.add_argument("--matches", type=int, default=300, help="whole matches per ruleset and selection, match loop "
                    "against the reference")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="only the selections whose text holds this, e.g. +teams")
    a = ap.parse_args()
    total = 0
    for name in a.rulesets:
        path = REPO / "rulesets" / f"{name}.rules"
        for selection, loaded in load_all(path.read_text(encoding="utf-8"), str(path)):
            if a.only not in selection:
                continue
            counts = loaded.model.counts
            start, positions, matches, played = time.perf_counter(), 0, 0, 0
            for i, players in enumerate(counts):
                share = a.positions // len(counts) + (i < a.positions % len(counts))
                whole = a.matches // len(counts) + (i < a.matches % len(counts))
                compiled = compile_ruleset(loaded.model, players)
                try:
                    done = compare(compiled, share, seed=a.seed + players)
                    compare_playouts(compiled, whole, seed=a.seed + players)
                except Mismatch as e:
                    sys.exit(f"{name}{selection}, {players} players: {e}")
                positions, matches, played = positions + done.positions, matches + done.matches, played + whole
            total += positions
            print(
                f"{name + selection:<36} players {','.join(map(str, counts)):<14} {positions:>7,} positions "
                f"{matches:>5,} matches, {played:,} played out  equal  ({time.perf_counter() - start:.1f} s)",
                flush=True,
            )
    print(f"all equal: {total:,} positions")


if __name__ == "__main__":
    main()
