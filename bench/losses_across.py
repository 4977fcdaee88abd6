"""Whether a cell's lost matches are the deals' or the play's: several runs of bots_strength on
the same deals, and for each deal how many of them lost it.

    python bench/losses_across.py bench/results/session26_outcomes/default_s41.jsonl \
        bench/results/session26_outcomes/halving_s41.jsonl bench/results/session28_outcomes/rival_s41.jsonl

A deal that every run loses is lost whatever the bot does there; where the runs lose different
deals, a loss is the luck of the match as it went (a random rival's choices differ once the moves
do). For each cell found in two runs or more: the deals lost by every run and by any, beside what
runs that each lost at its own rate, independently of the deal, would give. Runs whose moves
seldom differ (a switch that changes a rare decision) share most of their matches move for move,
and so their losses: the reading is for runs whose moves differ throughout.
"""
from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from paired import read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="bots_strength --outcomes files of the same seed")
    args = parser.parse_args()
    cells: defaultdict[tuple, list[tuple[dict[tuple, float], set[tuple]]]] = defaultdict(list)
    for path in args.runs:  # (ruleset, cell, seed) -> each run that played it, with its matches of it
        run = read(path)
        matches: defaultdict[tuple, set[tuple]] = defaultdict(set)
        for k in run:
            matches[k[:3]].add(k)
        for key, keys in matches.items():
            cells[key].append((run, keys))
    print("| cell | seed | runs | deals | lost by every run | by any | if independent: every, any "
          "| deals by runs that lost them |")
    print("|---|---|---|---|---|---|---|---|")
    for (ruleset, cell, seed), played in sorted(cells.items()):
        deals = sorted(set.intersection(*(keys for _, keys in played)))
        if len(played) < 2 or not deals:
            continue
        having = [run for run, _ in played]
        lost = [sum(run[k] < 0.5 for run in having) for k in deals]
        rates = [sum(run[k] < 0.5 for k in deals) / len(deals) for run in having]
        every = any_ = 1.0
        for rate in rates:
            every, any_ = every * rate, any_ * (1 - rate)
        counts = Counter(lost)
        spread = ", ".join(f"{n}: {counts[n]}" for n in sorted(counts))
        print(f"| {ruleset} {cell} | {seed} | {len(having)} | {len(deals)} | {counts[len(having)]} | "
              f"{len(deals) - counts[0]} | {every * len(deals):.1f}, {(1 - any_) * len(deals):.0f} | {spread} |")


if __name__ == "__main__":
    main()
