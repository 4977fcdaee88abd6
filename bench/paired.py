"""Two runs of bots_strength on the same deals, compared match by match.

    python bench/bots_strength.py --seed 41 ... --outcomes a.jsonl      # one setting
    python bench/ismcts_switches.py NAME=VALUE -- --seed 41 ... --outcomes b.jsonl
    python bench/paired.py a.jsonl b.jsonl

The same run seed deals the same cards to the same seats in match i of a cell, so a match that
either bot would win (or lose) on its deal counts for nothing between them: what differs is the
matches one won and the other did not. For each cell found in both files, and for all of them
pooled: both runs' win rates, how many matches each won that the other lost, and the difference
with a 95% interval from the paired differences (normal, which holds with the hundreds of matches
a cell has). Unpaired, two runs of 200 matches differ by up to about 6 points by chance alone;
paired, as much less as the deals decide the matches.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from bots_strength import Z


def read(path: str) -> dict[tuple, float]:
    """(ruleset, cell, seed, match) -> the first bot's share of the win."""
    rows: dict[tuple, float] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                try:
                    row = json.loads(line)
                    rows[row["ruleset"], row["cell"], row["seed"], row["match"]] = float(row["win"])
                except (ValueError, KeyError, TypeError):
                    sys.exit(f"{path}:{number}: not a line of bots_strength --outcomes; give the file it wrote")
    except OSError as e:
        sys.exit(f"{path}: cannot read it ({e.strerror})")
    return rows


def compare(label: str, pairs: list[tuple[float, float]]) -> str:
    n = len(pairs)
    diffs = [b - a for a, b in pairs]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z * spread / math.sqrt(n)
    only_a = sum(1 for a, b in pairs if a > b)
    only_b = sum(1 for a, b in pairs if b > a)
    rate_a = sum(a for a, _ in pairs) / n
    rate_b = sum(b for _, b in pairs) / n
    return (f"| {label} | {n} | {rate_a:.1%} | {rate_b:.1%} | {only_a} | {only_b} | "
            f"{mean:+.1%} ({mean - half:+.1%} to {mean + half:+.1%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="the first run's --outcomes file")
    parser.add_argument("b", help="the second run's --outcomes file")
    args = parser.parse_args()
    a, b = read(args.a), read(args.b)
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("the two files share no match (the same ruleset, cell, seed and match index): "
                 "run both with the same --seed and cells")
    print(f"paired: {args.a} (a) against {args.b} (b), {len(common)} matches in both\n")
    print("| cell | matches | a | b | won by a alone | won by b alone | b - a (95% CI) |")
    print("|---|---|---|---|---|---|---|")
    cells = sorted({(r, c) for r, c, _, _ in common})
    for ruleset, cell in cells:
        pairs = [(a[k], b[k]) for k in common if k[:2] == (ruleset, cell)]
        print(compare(f"{ruleset} {cell}", pairs))
    if len(cells) > 1:
        print(compare("all", [(a[k], b[k]) for k in common]))


if __name__ == "__main__":
    main()
