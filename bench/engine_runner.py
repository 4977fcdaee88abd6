#!/usr/bin/env python3
"""One engine's side of bench/engine_speed.py: run by the Python of the cardrules to measure (today's
engine in its own virtual environment, or this checkout), it reads requests as JSON lines on stdin
and answers each with one JSON line on stdout.

    {"load": PATH, "edition": NAME|null, "players": N}  -> {"ready": true}
    {"play": [[GAME_SEED, BOT_SEED], ...]}              -> {"seconds": S, "matches": [[ROUNDS, PLAYS, TOTALS], ...]}

A match is played as the installed cardrules plays self-play matches: `selfplay.play_match` when it
has one (the per-match function of the worker layer, where a faster engine plugs in), else a Game
and `bots.play_out`, as today's engine's self-play loop does. Only the matches are timed: on
"load" each engine compiles the ruleset and plays one untimed match (seeds 0, 0), so that what an
engine does once per ruleset (the closure engine compiles its closures, the generated one writes
and runs its module on its first match) is not counted against the matches, for either engine.
"""

from __future__ import annotations

import json
import random
import sys
import time

from cardrules.interpreter import selfplay
from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load


def main() -> None:
    compiled = None
    for line in sys.stdin:
        request = json.loads(line)
        if "load" in request:
            compiled = compile_ruleset(load(request["load"], request["edition"]).model, request["players"])
            play(compiled, [[0, 0]])  # once per ruleset, untimed: see above
            answer = {"ready": True}
        else:
            answer = play(compiled, request["play"])
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def play(compiled, seeds: list[list[int]]) -> dict:
    figures = []
    start = time.perf_counter()
    if hasattr(selfplay, "play_match"):
        for index, (game_seed, bot_seed) in enumerate(seeds):
            match = selfplay.play_match(compiled, index, game_seed, bot_seed)
            figures.append((match.rounds, match.plays, match.totals))
    else:
        for game_seed, bot_seed in seeds:
            game = Game(compiled, game_seed)
            play_out(game, [RandomBot(random.Random(bot_seed))] * compiled.players)
            figures.append((len(game.state.results), game.state.plays, tuple(game.state.totals)))
    return {"seconds": time.perf_counter() - start, "matches": figures}


if __name__ == "__main__":
    main()
