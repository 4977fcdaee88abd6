"""Where a bot's lost matches turned: for each match it lost, the plays that cut its margin most.

    python bench/bots_losses.py arne_total@en --bot ismcts --rival random --games 60

Two players, the bot at seat i % 2 in match i. After every action the bot's margin (its standing
less the rival's, by the ruleset's own scoring: `outcome.margin`) is compared with the one
before; a lost match lists its largest drops with who made them, the play's name and the round's
play count, and whether the bot could still answer the largest: the best margin one ply ahead
(`outcome.margin_after`, as greedy judges) among its moves at each of its later decisions. That
one reads the real match, which no bot sees: it says whether any move could have put the bot
ahead again, not whether the bot should have found it. The last line counts the plays behind each
lost match's two largest drops, and the matches where no later move could answer. Names come from
the ruleset: nothing here knows a game.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter

from cardrules.interpreter.bots import Table, make_bot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.load import load, split_selection
from cardrules.interpreter.outcome import margin, margin_after
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
    lost = unanswered = 0
    for index in range(args.games):
        seeds = random.Random(f"{args.seed}:losses:{index}")
        game = new_game(compiled, seeds.getrandbits(64))
        me = index % 2
        kinds = [args.bot, args.rival] if me == 0 else [args.rival, args.bot]
        table = Table(game, [make_bot(parse_seat(k), random.Random(seeds.getrandbits(64))) for k in kinds])
        drops, before = [], 0.0
        answers: list[tuple[int, float]] = []  # (action count, the bot's best margin one ply ahead)
        step = 0
        while not game.over:
            mover = game.to_move
            if mover == me:
                answers.append((step, max(margin_after(game, a, me) for a in game.actions())))
            action = table.choose()
            name = "pass" if action[0] is None else action[0].name
            table.play(action)
            now = margin(game, me)
            if now < before:
                drops.append((now - before, "bot" if mover == me else "rival", name, game.state.round_plays, step))
            before, step = now, step + 1
        if me in game.winners():
            continue
        lost += 1
        drops.sort()
        totals = game.state.totals
        answer = max((best for at, best in answers if at > drops[0][4]), default=None) if drops else None
        unanswered += answer is None or answer <= 0
        print(f"match {index}: lost {totals[me]} to {totals[1 - me]}; largest drops (drop, who, play, round play): "
              f"{[drop[:4] for drop in drops[:4]]}; best margin one ply ahead after the largest: "
              f"{'no later move' if answer is None else f'{answer:g}'}", flush=True)
        causes.update((who, name) for _, who, name, _, _ in drops[:2])
    print(f"lost {lost} of {args.games}; the plays behind the two largest drops of each: "
          + ", ".join(f"{who} {name} {n}" for (who, name), n in causes.most_common())
          + f"; no later move of the bot's could have put it ahead again in {unanswered}")


if __name__ == "__main__":
    main()
