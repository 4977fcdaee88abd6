#!/usr/bin/env python3
"""How long one bot's decisions take at each table size: the processor time of every decision
with two or more legal moves, median, 95th percentile and longest, for one seat among random bots.

    python bench/decision_time.py go_fish --players 4 5 6 --matches 4
    python bench/decision_time.py rummy --players 4 --matches 1 --decisions 40 --bot ismcts:150

The issue allows a second a decision at the default budget, which grows with the seats
(`ismcts.default_iterations`): this finds the tables where a ruleset's decisions near it. The
bot sits at seat i % players in match i; match i's game and bots draw their seeds from the run
seed and i, so two builds of cardrules play the same matches where their moves are the same.
Processor time, as `bots_strength.py` counts it: on a shared machine, what one idle core needs.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from cardrules.interpreter.bots import Table, make_bot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.load import load, split_selection
from cardrules.interpreter.seats import parse_seat


def decision_times(spec: str, players: int, matches: int, bot: str, seed: int, most: int | None) -> list[float]:
    """The bot's decision times over `matches` matches (at most `most` decisions in all)."""
    s = split_selection(spec)
    compiled = compile_ruleset(load(s.path, s.edition, s.variants).model, players)
    times: list[float] = []
    for i in range(matches):
        seeds = random.Random(f"{seed}:{players}:{i}")
        game = new_game(compiled, seeds.getrandbits(64))
        kinds = ["random"] * players
        kinds[i % players] = bot
        table = Table(game, [make_bot(parse_seat(k), random.Random(seeds.getrandbits(64))) for k in kinds])
        while not game.over and (most is None or len(times) < most):
            timed = game.to_move == i % players and len(game.actions()) > 1
            start = time.process_time()
            action = table.choose()
            if timed:
                times.append(time.process_time() - start)
            table.play(action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", help="a ruleset by name, e.g. go_fish or arne_total@en")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--matches", type=int, default=4, help="matches at each table size (default 4)")
    parser.add_argument("--decisions", type=int, help="stop after this many of the bot's decisions at a table size")
    parser.add_argument("--bot", default="ismcts", help="the seat string timed (default: ismcts, its default budget)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    parse_seat(args.bot)
    print(f"| {args.ruleset}, '{args.bot}' among random bots | decisions | median s | p95 s | longest s |")
    print("|---|---|---|---|---|")
    for players in args.players:
        times = decision_times(args.ruleset, players, args.matches, args.bot, args.seed, args.decisions)
        if not times:
            print(f"| {players} seats | 0 | - | - | - |", flush=True)
            continue
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"| {players} seats | {len(times)} | {statistics.median(times):.3f} | {p95:.3f} | {times[-1]:.3f} |",
              flush=True)


if __name__ == "__main__":
    main()
