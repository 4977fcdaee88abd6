#!/usr/bin/env python3
"""Where knowing the draws to come changes the ismcts seat's choice: in real matches of the
honest seat, each of its decisions is searched twice more, once by the same honest search with
another random source (how often a choice changes by the search's own noise) and once by a
search that knows the real match, its hands and the draw pile's order (`bots_ceiling.py
--order`'s worlds: not a bot, it cheats). The matches go on with the honest seat's choice.

    python bench/ceiling_choices.py arne_total@en --rival random --matches 40 [--seed S] [--hands]

With `--hands` the seeing search knows the hands but not the draw pile's order (`bots_ceiling.py`
without `--order`).

Session 17 found that seat 4 to 5 points stronger against random in ARNE Total where seeing the
rivals' hands alone is worth nothing. This counts, by the draw pile's size and by whether a
response window is open, how often the seeing search chooses another play than the honest one,
beyond how often two honest searches differ, and which plays it chooses instead: where in a round
the draws to come decide. The honest seat plays the deals of `bots_strength.py --seed S`'s cell
"ismcts vs RIVAL", by its own match loop.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

import bots_ceiling
import bots_strength

from cardrules.interpreter import ismcts
from cardrules.interpreter.bots import make_bot


@dataclass(frozen=True)
class Choice:
    """One decision: the turn's draw piles' size, whether a window is open, and the play (by name, or
    `pass`) that the honest search, a second honest search and the seeing search chose."""

    pile: int
    window: bool
    honest: str
    again: str
    seeing: str


def _name(action: object) -> str:
    play = action[0]  # type: ignore[index]  # an engine action: (play, face, seat, pile)
    return "pass" if play is None else play.name


def traced_choices(spec: str, rival: str, matches: int, seed: int, order: bool) -> list[Choice]:
    choices: list[Choice] = []
    search = ismcts.search
    draw_piles = _draw_piles(bots_strength.compiled(spec, 2))  # the ruleset the matches play, compiled once
    bots_ceiling.ORDER = order  # whether the seeing search's worlds keep the draw pile's order

    def traced(sampler, seat, legal, rng, iterations=None, seconds=None, barred=()):
        edges = search(sampler, seat, legal, rng, iterations, seconds, barred)
        if len(legal) > 1 and edges:  # every search here is the honest seat's: the rival is no ismcts
            game = bots_ceiling._match[-1]
            n = len(choices)  # their own sources, so that the honest seat's matches go on as without them
            again = search(sampler, seat, legal, random.Random(f"again:{n}"), iterations, seconds, barred)
            seeing = search(bots_ceiling.OpenSampler(game), seat, legal, random.Random(f"seeing:{n}"),
                            iterations, seconds, barred)
            draw = sum(len(game.state.zones[z]) for z in draw_piles)
            choices.append(Choice(draw, game.state.window is not None, _name(edges[0].action),
                                  _name(again[0].action), _name(seeing[0].action)))
        return edges

    ismcts.search = traced
    bots_strength.make_bot = make_bot  # the honest seat (bots_ceiling makes every ismcts seat see); its
    # match-keeping `new_game` stays, for the seeing search reads the match under way
    for i in range(matches):
        seats = ("ismcts", rival) if i % 2 == 0 else (rival, "ismcts")
        bots_strength._play(spec, seats, i % 2, seed, f"ismcts vs {rival}", i)
    return choices


def _draw_piles(c: object) -> set[int]:
    """The zones the turn's draw steps take from: how far a round has gone."""
    return {step.source for step in c.turn if step.kind == "draw"}  # type: ignore[attr-defined]


def _phase(bin_: int) -> str:
    """A decision's place in its round: the draw piles empty (-1: the last drawer's turn, then the
    final round), or their size by eights."""
    return "pile empty" if bin_ < 0 else f"pile {max(bin_ * 8, 1)}-{bin_ * 8 + 7}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--rival", default="random", choices=("random", "greedy"))
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--hands", action="store_true", help="the seeing search knows the hands, not the draws to come")
    a = ap.parse_args()
    choices = traced_choices(a.ruleset, a.rival, a.matches, a.seed, not a.hands)
    print(f"{a.ruleset} against {a.rival}, {a.matches} matches, seed {a.seed}: {len(choices)} decisions "
          "with two plays or more; a play named as `pass` or by the ruleset's play; the seeing search knows "
          + ("the hands" if a.hands else "the hands and the draws to come") + "\n")
    print("| decisions | n | two honest searches differ | the seeing search differs | beyond the noise |")
    print("|---|---|---|---|---|")
    groups: dict[tuple[bool, int], list[Choice]] = {}
    for c in choices:
        groups.setdefault((c.window, c.pile // 8 if c.pile else -1), []).append(c)
    rows = [("all", choices)] + [(("window, " if window else "turn, ") + _phase(bin_), groups[window, bin_])
                                 for window, bin_ in sorted(groups, key=lambda k: (k[0], -k[1]))]
    for label, group in rows:
        noise = sum(c.again != c.honest for c in group) / len(group)
        seeing = sum(c.seeing != c.honest for c in group) / len(group)
        print(f"| {label} | {len(group)} | {noise:.1%} | {seeing:.1%} | {seeing - noise:+.1%} |")
    print("\nWhere the seeing search chose otherwise: (honest's play -> seeing's play), and the same"
          " count for two honest searches")
    seeing_pairs = Counter((c.honest, c.seeing) for c in choices if c.seeing != c.honest)
    noise_pairs = Counter((c.honest, c.again) for c in choices if c.again != c.honest)
    print("| honest -> other | seeing | honest again |")
    print("|---|---|---|")
    for pair, n in seeing_pairs.most_common(15):
        print(f"| {pair[0]} -> {pair[1]} | {n} | {noise_pairs[pair]} |")


if __name__ == "__main__":
    main()
