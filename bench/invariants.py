#!/usr/bin/env python3
"""The engine's invariants over many random matches, for each ruleset and player count.

    python bench/invariants.py [RULESET ...] [--games N] [--players P ...] [--seed S] [--no-baseline]

plays N matches (default 10,000) of random bots for each ruleset (default: every rulesets/*.rules
and docs/examples/*.rules) and each player count (default: the first three of the ruleset's
range), checking every invariant of cardrules.interpreter.invariants after every action, as
`cardrules selfplay --check-invariants` does. It prints the checked matches per second, the
same matches unchecked (the baseline, skipped when a check failed: a match that does not end
would not end unchecked either), the actions checked and the failures; exit 1 when any failed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import EngineError
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load
from cardrules.interpreter.selfplay import run

REPO = Path(__file__).resolve().parent.parent
DEFAULT_RULESETS = sorted(REPO.glob("rulesets/*.rules")) + sorted(REPO.glob("docs/examples/*.rules"))
DEFAULT_COUNTS = 3  # player counts per ruleset unless --players says
SHOWN = 5  # failures printed per ruleset and player count


def bench(name: str, model, players: int, games: int, seed: int, baseline: bool) -> int:
    """One ruleset at one player count: print its line (and failures); return the failures."""
    compiled = compile_ruleset(model, players)
    checker = Checker()
    progress = _progress(f"{name} {players}p", games)
    try:
        checked = run(compiled, games, seed, progress, invariants=checker)
    except EngineError as e:  # the deal of a match cannot even reach a first decision
        checker.failures.append(f"match {checker.matches + 1}: the match ends, after action 0: {e}")
        checked = None
    failures = checker.failures
    speed = "-" if checked is None else f"{checked.games_per_second:.1f}"
    plain = (run(compiled, games, seed).games_per_second if baseline and checked is not None and not failures
             else None)
    ratio = "" if plain is None else f"{plain:11.1f} {plain / checked.games_per_second:7.1f}x"
    print(f"{name:<22} {players:>2} {games:>7} {speed:>9} {ratio:<20} {checker.checked_actions:>11,} "
          f"{len(failures):>8}", flush=True)
    for failure in failures[:SHOWN]:
        print(f"    {failure}")
    if len(failures) > SHOWN:
        print(f"    ... and {len(failures) - SHOWN} more")
    return len(failures)


def _progress(label: str, games: int):
    """A progress line on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None
    step = max(1, games // 100)

    def show(done: int) -> None:
        if done % step == 0 or done == games:
            sys.stderr.write(f"\r{label}: {done}/{games}" + ("\r" + " " * 40 + "\r" if done == games else ""))
            sys.stderr.flush()

    return show


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", default=DEFAULT_RULESETS,
                        help="rulesets to check, by path or shipped name (default: rulesets/*.rules and "
                             "docs/examples/*.rules)")
    parser.add_argument("--games", type=int, default=10_000, help="matches per ruleset and player count")
    parser.add_argument("--players", type=int, nargs="+",
                        help=f"player counts (default: the first {DEFAULT_COUNTS} of each ruleset's range); "
                             "counts outside a ruleset's range are skipped")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the same matches unchecked")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(f"invariants after every action, {args.games} matches of random bots each, seed {args.seed}")
    print(f"{'ruleset':<22} {'P':>2} {'games':>7} {'checked/s':>9} {'unchecked/s':>11} {'slower':>7} "
          f"{'actions':>11} {'failures':>8}")
    failures = 0
    for path in args.rulesets:
        try:
            model = load(str(path)).model
        except RulesError as e:
            sys.exit(e.render())
        low, high = model.players
        counts = args.players or range(low, min(high, low + DEFAULT_COUNTS - 1) + 1)
        for players in counts:
            if low <= players <= high:
                failures += bench(Path(path).name, model, players, args.games, args.seed, args.baseline)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
