"""Runs of bots_strength on different deals, pooled: where a cell stands over many seeds.

    python bench/bots_strength.py --seed 241 ... --outcomes s241.jsonl
    python bench/pooled.py s241.jsonl s251.jsonl bench/results/session42_outcomes/random_s*.jsonl

One run of 200 matches moves a cell near its bar by several points either way; only thousands of
matches say where it stands. For each cell (ruleset and pairing) found in the files: each seed's
win rate, then all its matches pooled with a 95% Wilson interval. Give only runs of one bot: the
files do not say which switches or oracles a run had (`bench/ismcts_switches.py` records the
seat string alone), so which runs are the default's is for the caller to know (docs/bots-research.md
names them). A match found twice (the same ruleset, cell, seed and index) is an error, not counted
twice.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from bots_strength import wilson
from paired import read


def pool(paths: list[str]) -> dict[tuple[str, str], dict[int, list[float]]]:
    """(ruleset, cell) -> seed -> the first bot's share of each match's win."""
    cells: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    where: dict[tuple, str] = {}
    for path in paths:
        for key, win in read(path).items():
            if key in where:
                sys.exit(f"{path}: {key[0]} {key[1]}, seed {key[2]}, match {key[3]} is in {where[key]} too: "
                         "give each run once")
            where[key] = path
            cells[key[0], key[1]][key[2]].append(win)
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="bots_strength --outcomes files, runs of one bot")
    args = parser.parse_args()
    cells = pool(args.files)
    print("| cell | seeds | each seed | matches | pooled (95% CI) |")
    print("|---|---|---|---|---|")
    for (ruleset, cell), seeds in sorted(cells.items()):
        wins = [w for ws in seeds.values() for w in ws]
        lo, hi = wilson(sum(wins), len(wins))
        each = ", ".join(f"{seed}: {sum(ws) / len(ws):.1%}" for seed, ws in sorted(seeds.items()))
        print(f"| {ruleset} {cell} | {len(seeds)} | {each} | {len(wins):,} | "
              f"{sum(wins) / len(wins):.1%} ({lo:.1%}-{hi:.1%}) |")


if __name__ == "__main__":
    main()
