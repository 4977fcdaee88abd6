"""What telling each move costs a match: random matches played bare, and played with a snapshot
before every move and the narration after it, in alternating chunks in one process; prints the
ratio of the two times (the REPL, `replay -v` and a served table narrate every move).

    python bench/narration_cost.py                      # klats, 3 players, 200 matches
    python bench/narration_cost.py arne_92 --players 3 --games 100
"""
from __future__ import annotations

import argparse
import random
import time

from cardrules.interpreter.bots import RandomBot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.load import load
from cardrules.interpreter.narration import narrate, round_words, snapshot


def play(compiled, seed: int, words: dict | None) -> int:
    """One random match; narrated for seat 0 when `words` is given. Returns the moves made."""
    game, rng, moves = new_game(compiled, seed), random.Random(seed), 0
    while not game.over:
        action = RandomBot(rng).choose(game)
        if words is None:
            game.play(action)
        else:
            before, mover, move = snapshot(game), game.to_move, game.move_of(action)
            game.play(action)
            narrate(before, game, 0, move, mover, words)
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="klats")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--chunks", type=int, default=4)
    a = parser.parse_args()
    compiled = compile_ruleset(load(a.ruleset).model, a.players)
    words = round_words(compiled.model)
    times, moves = {"bare": 0.0, "narrated": 0.0}, 0
    per_chunk = max(1, a.games // a.chunks)
    for chunk in range(a.chunks):
        seeds = range(chunk * per_chunk, (chunk + 1) * per_chunk)
        for name, w in (("bare", None), ("narrated", words)):
            start = time.perf_counter()
            count = sum(play(compiled, seed, w) for seed in seeds)
            times[name] += time.perf_counter() - start
        moves += count
    print(f"{a.ruleset}, {a.players} players, {per_chunk * a.chunks} matches, {moves} moves")
    for name, t in times.items():
        print(f"  {name:9} {t:7.2f} s  {t / moves * 1e6:8.1f} µs a move")
    print(f"  narrated / bare: {times['narrated'] / times['bare']:.2f}")


if __name__ == "__main__":
    main()
