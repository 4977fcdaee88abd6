#!/usr/bin/env python3
"""What the checks for matches that cannot end (interpreter/progress.py) cost a match that ends.

    python bench/progress_overhead.py [--games N] [--players P] [--rounds R]

plays N matches (default 300) of random bots of each shipped ruleset, R times interleaved
(default 4; the machine may be shared), once as `bots.play_out` does (the round bound after
every action, the engine's hooks after a round and after a cycle of passes) and once with the
loop of before and the engine's hooks replaced by no-ops; prints the best time of each and
their ratio.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from cardrules.interpreter import engine
from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.load import load

REPO = Path(__file__).resolve().parent.parent


def unchecked_play_out(game, bots) -> None:
    while not game.state.over:
        game.play(bots[game.state.active].choose(game))


def timed(play, compiled, games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        game = engine.Game(compiled, seed)
        play(game, [RandomBot(random.Random(seed))] * compiled.players)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    hooks = engine.stalled_match, engine.idle_state
    for path in sorted((REPO / "rulesets").glob("*.rules")):
        compiled = compile_ruleset(load(str(path)).model, args.players)
        checked, unchecked = [], []
        for _ in range(args.rounds):
            engine.stalled_match, engine.idle_state = hooks
            checked.append(timed(play_out, compiled, args.games))
            engine.stalled_match = engine.idle_state = lambda game: None
            unchecked.append(timed(unchecked_play_out, compiled, args.games))
        engine.stalled_match, engine.idle_state = hooks
        best, base = min(checked), min(unchecked)
        print(f"{path.stem:12} {args.players}p, {args.games} matches: checked {best:.3f} s, unchecked {base:.3f} s, "
              f"ratio {best / base:.3f}")


if __name__ == "__main__":
    main()
