#!/usr/bin/env python3
"""What a one-ply look costs (`outcome.margin_after`, which greedy and every move of an ISMCTS
line make for each candidate move): the present trial (`FastGame.trial`: kept round scores, the
match's own random source) against the way before session 16 (a full `clone()`, its own copy of
the random source, every seat's round score worked out afresh), at positions taken from random
self-play of each ruleset, in one run, the two ways alternating.

    python bench/trial_cost.py [--looks N] [--seed S]

prints microseconds per look each way and their ratio (before / now: above 1 is faster now), and
exits 1 if the two ways ever give a different margin.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import EngineError
from cardrules.interpreter.fast import FastGame
from cardrules.interpreter.load import load
from cardrules.interpreter.notation import MoveError
from cardrules.interpreter.outcome import margin, margin_after

REPO = Path(__file__).resolve().parent.parent
CASES = (("klats", None, 2), ("klats", None, 4), ("arne_92", None, 2), ("arne_total", "en", 2),
         ("arne_total", "en", 4), ("arne_total", "ru", 2))


def positions(compiled, count: int, seed: int) -> list[tuple[FastGame, int, list]]:
    """(game, seat to move, up to 8 of its moves) at `count` positions a random number of
    actions into random matches, where the seat has a choice."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        game = FastGame(compiled, rng.getrandbits(32))
        for _ in range(rng.randrange(1, 80)):
            if game.over:
                break
            game.play(rng.choice(game.actions()))
        if not game.over and len(game.actions()) > 1:
            actions = game.actions()
            out.append((game, game.to_move, rng.sample(actions, min(8, len(actions)))))
    return out


def margin_before(game: FastGame, action, seat: int) -> float:
    """`margin_after` as it was: a full copy, every seat's score worked out afresh."""
    copy = game.clone()
    try:
        copy.play(action)
    except (EngineError, MoveError):
        return float("-inf")
    copy._scores = [None] * copy.n  # noqa: SLF001  # what the copy keeps is what is measured: drop it
    return margin(copy, seat)


def timed(look, cases: list) -> tuple[float, list[float]]:
    """Seconds for one pass of `look` over every case's moves, and the margins. Each position
    starts with no score kept, as a line's position does after the move played into it (which
    is less than it keeps there: the seats that move did not touch stay kept)."""
    found: list[float] = []
    start = time.perf_counter()
    for game, seat, actions in cases:
        game._scores = [None] * game.n  # noqa: SLF001
        for action in actions:
            found.append(look(game, action, seat))
    return time.perf_counter() - start, found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--looks", type=int, default=20_000, help="looks each way per ruleset (about)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"{'ruleset':<16} {'players':>7} {'before us':>10} {'now us':>8} {'before/now':>11}")
    differ = False
    for name, edition, players in CASES:
        c = compile_ruleset(load(str(REPO / "rulesets" / f"{name}.rules"), edition).model, players)
        cases = positions(c, 100, a.seed)
        per_pass = sum(len(actions) for *_, actions in cases)
        spent = {"before": 0.0, "now": 0.0}
        looks = 0
        while looks < a.looks:  # alternating passes: both ways see the same machine
            for way, look in (("before", margin_before), ("now", margin_after)):
                seconds, found = timed(look, cases)
                spent[way] += seconds
                if way == "before":
                    expected = found
                elif found != expected:
                    differ = True
            looks += per_pass
        before, now = spent["before"] / looks * 1e6, spent["now"] / looks * 1e6
        label = name + ("@" + edition if edition else "")
        print(f"{label:<16} {players:>7} {before:>10.2f} {now:>8.2f} {before / now:>11.2f}")
    if differ:
        print("the two ways gave different margins", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
