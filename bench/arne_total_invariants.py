#!/usr/bin/env python3
"""ARNE Total's invariants in every edition, variant and player count.

    python bench/arne_total_invariants.py [--games N] [--seed S] [--selection @ru+minimum ...]
                                          [--players P ...] [--no-baseline] [--workers N] [--ray ADDRESS]

plays N matches (default 1,000) of random bots for each legal selection of
rulesets/arne_total.rules (or those given with --selection) at each player count it allows
(or those given with --players), checking the engine's invariants after every action, and
prints bench/invariants.py's table; exit 1 when any check failed.
"""
from __future__ import annotations

import argparse
import sys

from invariants import REPO, Target, add_workers, bench_all, counts, targets

RULES = REPO / "rulesets" / "arne_total.rules"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="matches per selection and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--selection", action="append", metavar="@EDITION+VARIANT...",
                        help="a selection to play, e.g. @ru+minimum (repeatable; default: every legal one)")
    parser.add_argument("--players", type=int, nargs="+",
                        help="player counts (default: every one each selection allows); counts a selection "
                             "does not allow are skipped")
    parser.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the same matches unchecked")
    add_workers(parser)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if any(not s.startswith("@") for s in args.selection or ()):
        parser.error("a --selection starts with @, e.g. @ru+minimum")
    found = ([t for s in args.selection for t in targets(f"{RULES}{s}")] if args.selection
             else targets(str(RULES), all_selections=True))
    chosen = [Target(t.label.removeprefix(RULES.name), t.model, counts(t.counts, args.players)) for t in found]
    return 1 if bench_all(chosen, args.games, args.seed, args.baseline, args.workers, args.ray) else 0


if __name__ == "__main__":
    sys.exit(main())
