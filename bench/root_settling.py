#!/usr/bin/env python3
"""How settled the ismcts seat's choice is: in real matches, every search runs its whole budget
(no early stop) and the root's visits are read every `SETTLED_EVERY` iterations; then, for each
smaller budget and each stopping rule, how often the choice it would make differs from the whole
budget's, and what share of the whole budget's iterations it would spend.

    python bench/root_settling.py arne_total@en --rival random --budget 300 --matches 16 [--seed S]

A rule "f" stops once the most visited of the moves still open leads the next by more than f
times the iterations left: f=1 is the product's rule (`ismcts._settled`), which never changes a
choice; a smaller f stops sooner and may. Where many choices change between one budget and
twice it while the win rate barely moves (docs/bots-research.md), the moves the search hesitates
between are worth about the same to it. The ismcts seat plays the whole budget's choices on the
deals of `bots_strength.py --seed S --ismcts ismcts:BUDGET`'s cell "ismcts vs RIVAL", played by
its own match loop: the matches are that run's.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass

import bots_strength

from cardrules.interpreter import ismcts

RULES = (1.0, 0.75, 0.5, 0.33, 0.25)


@dataclass(frozen=True)
class Trace:
    """One decision: at each look, the open moves' (visits, lines won); and the move chosen."""

    looks: tuple[tuple[tuple[int, float], ...], ...]
    chosen: int


def traced_matches(spec: str, rival: str, budget: int, matches: int, seed: int) -> list[Trace]:
    """The decisions of `matches` matches of `ismcts:budget` against `rival`, seats alternated."""
    traces: list[Trace] = []
    looks: list[tuple[tuple[int, float], ...]] = []

    def settled(root: ismcts.Node, keys: list[ismcts.Key], left: int) -> bool:
        looks.append(tuple((root.children[k].visits, root.children[k].wins) if k in root.children else (0, 0.0)
                           for k in keys))
        return len(keys) < 2  # never stop early: the whole budget's trajectory

    search = ismcts.search

    def traced(sampler, seat, legal, rng, iterations=None, seconds=None, barred=()):
        looks.clear()
        edges = search(sampler, seat, legal, rng, iterations, seconds, barred)
        keys = [k for k in (ismcts.key(seat, a) for a in legal) if k not in barred]
        by_key = {ismcts.key(seat, e.action): e for e in edges}
        if len(keys) >= 2 and any(k in by_key for k in keys):
            last = tuple((by_key[k].visits, by_key[k].win_rate * by_key[k].visits) if k in by_key else (0, 0.0)
                         for k in keys)
            chosen = next(keys.index(ismcts.key(seat, e.action)) for e in edges if ismcts.key(seat, e.action) in keys)
            traces.append(Trace((*looks, last), chosen))
        return edges

    ismcts._settled, ismcts.search = settled, traced
    for i in range(matches):
        seats = (f"ismcts:{budget}", rival) if i % 2 == 0 else (rival, f"ismcts:{budget}")
        bots_strength._play(spec, seats, i % 2, seed, f"ismcts vs {rival}", i)
    return traces


def most_visited(look: tuple[tuple[int, float], ...]) -> int:
    """The move the search would choose at this look: the most visited, then the most won."""
    return max(range(len(look)), key=lambda i: (look[i][0], look[i][1] / look[i][0] if look[i][0] else 0.0))


def stopped(trace: Trace, budget: int, f: float) -> tuple[int, int]:
    """(iterations spent, move chosen) of a search of `budget` that stops by rule f."""
    every = ismcts.SETTLED_EVERY
    for j, look in enumerate(trace.looks[:-1]):
        done = j * every
        if done >= budget:
            return done, most_visited(look)
        visits = sorted((v for v, _ in look), reverse=True)
        if visits[0] - visits[1] > f * (budget - done):
            return done, most_visited(look)
    return len(trace.looks[:-1]) * every, trace.chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--rival", default="random")
    ap.add_argument("--budget", type=int, default=300, help="the whole budget (default 300)")
    ap.add_argument("--matches", type=int, default=16)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    traces = traced_matches(a.ruleset, a.rival, a.budget, a.matches, a.seed)
    print(f"{a.ruleset} against {a.rival}, ismcts:{a.budget}, {a.matches} matches, seed {a.seed}: "
          f"{len(traces)} decisions with two moves or more\n")
    print(f"| budget | rule f | iterations, share of {a.budget} | choices that differ from {a.budget}'s |")
    print("|---|---|---|---|")
    for budget in (a.budget // 2, a.budget):
        for f in RULES:
            runs = [stopped(t, budget, f) for t in traces]
            spent = sum(done for done, _ in runs) / (len(traces) * a.budget)
            differ = sum(move != t.chosen for (_, move), t in zip(runs, traces, strict=True)) / len(traces)
            print(f"| {budget} | {f:g} | {spent:.2f} | {differ:.1%} |")


if __name__ == "__main__":
    main()
