#!/usr/bin/env python3
"""What a copy of a match costs, for search (ISMCTS copies the match at every iteration):
`FastGame.clone()` against the reference's `State.copy()`, at positions taken from random
self-play of each shipped ruleset.

    python bench/copy_cost.py [--copies N] [--seed S]

prints microseconds per copy for each ruleset, both measured in this one run.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.fast import FastGame
from cardrules.interpreter.load import load

REPO = Path(__file__).resolve().parent.parent
CASES = (("klats", None, 3), ("arne_92", None, 3), ("arne_total", "en", 4), ("arne_total", "ru", 6))


def positions(compiled, count: int, seed: int) -> list[FastGame]:
    """Games at `count` positions a random number of actions into random matches."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        game = FastGame(compiled, rng.getrandbits(32))
        stop = rng.randrange(1, 60)
        for _ in range(stop):
            if game.over:
                break
            game.play(rng.choice(game.actions()))
        if not game.over:
            out.append(game)
    return out


def per_copy(copy, games: list, copies: int) -> float:
    start = time.perf_counter()
    for k in range(copies):
        copy(games[k % len(games)])
    return (time.perf_counter() - start) / copies * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"{'ruleset':<18} {'players':>7} {'clone() us':>11} {'State.copy() us':>16}")
    for name, edition, players in CASES:
        c = compile_ruleset(load(str(REPO / "rulesets" / f"{name}.rules"), edition).model, players)
        games = positions(c, 50, a.seed)
        clone = per_copy(FastGame.clone, games, a.copies)
        state = per_copy(lambda g: g.state.copy(), games, a.copies)
        print(f"{name + ('@' + edition if edition else ''):<18} {players:>7} {clone:>11.2f} {state:>16.2f}")


if __name__ == "__main__":
    main()
