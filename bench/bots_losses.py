"""Where a bot's lost matches turned: for each match it lost, the plays that cut its margin most.

    python bench/bots_losses.py arne_total@en --bot ismcts --rival random --games 60

Two players, the bot at seat i % 2 in match i. After every action the bot's margin (its standing
less the rival's, by the ruleset's own scoring: `outcome.margin`) is compared with the one
before; a lost match lists its largest drops with who made them, the play's name and the round's
play count. The last line counts the plays behind each lost match's two largest drops. Names come
from the ruleset: nothing here knows a game.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter

from cardrules.interpreter.bots import Table, make_bot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.load import load, split_selection
from cardrules.interpreter.outcome import margin
from cardrules.interpreter.seats import parse_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", help="a ruleset with its selection, as bots_strength takes it: arne_total@en")
    parser.add_argument("--bot", default="ismcts", help="the seat string of the bot watched (default ismcts)")
    parser.add_argument("--rival", default="random", help="the rival's seat string (default random)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    selection = split_selection(args.ruleset)
    compiled = compile_ruleset(load(selection.path, selection.edition, selection.variants).model, 2)
    causes: Counter[tuple[str, str]] = Counter()
    lost = 0
    for index in range(args.games):
        seeds = random.Random(f"{args.seed}:losses:{index}")
        game = new_game(compiled, seeds.getrandbits(64))
        me = index % 2
        kinds = [args.bot, args.rival] if me == 0 else [args.rival, args.bot]
        table = Table(game, [make_bot(parse_seat(k), random.Random(seeds.getrandbits(64))) for k in kinds])
        drops, before = [], 0.0
        while not game.over:
            mover = game.to_move
            action = table.choose()
            name = "pass" if action[0] is None else action[0].name
            table.play(action)
            now = margin(game, me)
            if now < before:
                drops.append((now - before, "bot" if mover == me else "rival", name, game.state.round_plays))
            before = now
        if me in game.winners():
            continue
        lost += 1
        drops.sort()
        totals = game.state.totals
        print(f"match {index}: lost {totals[me]} to {totals[1 - me]}; largest drops (drop, who, play, round play): "
              f"{drops[:4]}", flush=True)
        causes.update((who, name) for _, who, name, _ in drops[:2])
    print(f"lost {lost} of {args.games}; the plays behind the two largest drops of each: "
          + ", ".join(f"{who} {name} {n}" for (who, name), n in causes.most_common()))


if __name__ == "__main__":
    main()
