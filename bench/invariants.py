#!/usr/bin/env python3
"""The engine's invariants over many random matches, for each ruleset and player count.

    python bench/invariants.py [RULESET ...] [--games N] [--players P ...] [--seed S] [--no-baseline]
                               [--all-selections] [--workers N] [--ray ADDRESS]

plays N matches (default 10,000) of random bots for each ruleset (default: every rulesets/*.rules
and docs/examples/*.rules) and each player count (default: the first three it allows), checking
every invariant of cardrules.interpreter.invariants after every action, as
`cardrules selfplay --check-invariants` does. A ruleset is a path or a shipped name, with a
selection of its editions and variants if it has them (`arne_total@ru+minimum`; without one, its
first edition); --all-selections takes every legal selection of each instead. It prints the
matches, the failures, the actions checked, the checked matches per second and the same matches
unchecked (the baseline, skipped when a check failed: a match that does not end would not end
unchecked either) with how many times slower checking is; exit 1 when any check failed. The matches
are played by --workers processes (default: one per core) or on a Ray cluster (--ray ADDRESS), with
the same results whatever plays them.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cardrules.interpreter import model as m
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import EngineError
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load, load_all, read, split_selection
from cardrules.interpreter.options import SelectionError
from cardrules.interpreter.selfplay import run

REPO = Path(__file__).resolve().parent.parent
DEFAULT_RULESETS = sorted(REPO.glob("rulesets/*.rules")) + sorted(REPO.glob("docs/examples/*.rules"))
DEFAULT_COUNTS = 3  # player counts per ruleset unless --players says
SHOWN = 5  # failures printed per ruleset and player count


@dataclass(frozen=True)
class Target:
    """One checked model to play, under the label its lines show, at these player counts."""

    label: str
    model: m.Ruleset
    counts: tuple[int, ...]


def targets(spec: str, all_selections: bool = False) -> list[Target]:
    """The models one ruleset argument names (`FILE`, `FILE@EDITION+VARIANT...`, or with
    `all_selections` every legal selection of FILE), each at every count it allows; a ruleset
    that does not load ends the run with its located errors (exit 1), an undeclared edition or
    variant with its hint (exit 2)."""
    parts = split_selection(str(spec))
    if parts.house is not None:
        print(f"error: {spec}: house rules are not played here\n  hint: cardrules selfplay FILE --house "
              f"{parts.house} --check-invariants plays them", file=sys.stderr)
        sys.exit(2)
    name = Path(parts.path).name
    try:
        if not all_selections:
            model = load(parts.path, parts.edition, parts.variants).model
            return [Target(name + model.selection, model, model.counts)]
        text, file = read(parts.path)
        out = []
        for selection, loaded in load_all(text, file):
            if isinstance(loaded, RulesError):
                raise loaded
            out.append(Target(name + selection, loaded.model, loaded.model.counts))
        return out
    except RulesError as e:
        sys.exit(e.render())
    except SelectionError as e:
        print(f"error: {e.message}" + (f"\n  hint: {e.hint}" if e.hint else ""), file=sys.stderr)
        sys.exit(2)


def bench_all(chosen: list[Target], games: int, seed: int, baseline: bool, workers: int = 1,
              ray: str | None = None) -> int:
    """Print the table for every target and player count, then the total; return the failures."""
    width = max([len("selection"), *(len(t.label) for t in chosen)])
    print(f"invariants after every action, {games} matches of random bots each, seed {seed}")
    print(f"{'selection':<{width}} {'P':>2} {'games':>7} {'failures':>8} {'actions':>11} {'checked/s':>9} "
          f"{'unchecked/s':>11} {'slower':>7}", flush=True)
    start = time.perf_counter()
    failures = sum(bench(t.label, t.model, players, games, seed, baseline, width, workers, ray)
                   for t in chosen for players in t.counts)
    print(f"{failures} failures, {time.perf_counter() - start:.1f} s")
    return failures


def bench(name: str, model, players: int, games: int, seed: int, baseline: bool, width: int = 22, workers: int = 1,
          ray: str | None = None) -> int:
    """One model at one player count: print its line (and failures); return the failures."""
    compiled = compile_ruleset(model, players)
    checker = Checker()
    progress = _progress(f"{name} {players}p", games)
    try:
        checked = run(compiled, games, seed, progress, invariants=checker, workers=workers, ray=ray)
    except EngineError as e:  # the deal of a match cannot even reach a first decision
        checker.failures.append(f"match {checker.matches + 1}: the match ends, after action 0: {e}")
        checked = None
    failures = checker.failures
    speed = "-" if checked is None else f"{checked.games_per_second:.1f}"
    plain = (run(compiled, games, seed, workers=workers, ray=ray).games_per_second
             if baseline and checked is not None and not failures else None)
    ratio = "" if plain is None else f"{plain:11.1f} {plain / checked.games_per_second:6.1f}x"
    print(f"{name:<{width}} {players:>2} {games:>7} {len(failures):>8} {checker.checked_actions:>11,} "
          f"{speed:>9} {ratio}".rstrip(), flush=True)
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
                        help="rulesets to check, by path or shipped name, each with a selection if it has "
                             "editions or variants (FILE@EDITION+VARIANT...); default: rulesets/*.rules and "
                             "docs/examples/*.rules")
    parser.add_argument("--all-selections", action="store_true",
                        help="every legal edition and variant selection of each ruleset")
    parser.add_argument("--games", type=int, default=10_000, help="matches per selection and player count")
    parser.add_argument("--players", type=int, nargs="+",
                        help=f"player counts (default: the first {DEFAULT_COUNTS} each selection allows); "
                             "counts a selection does not allow are skipped")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the same matches unchecked")
    add_workers(parser)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    chosen = [Target(t.label, t.model, counts(t.counts, args.players, DEFAULT_COUNTS))
              for spec in args.rulesets for t in targets(spec, args.all_selections)]
    return 1 if bench_all(chosen, args.games, args.seed, args.baseline, args.workers, args.ray) else 0


def add_workers(parser: argparse.ArgumentParser) -> None:
    """--workers and --ray, as `cardrules selfplay` has them."""
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes that play the matches (default: one per core); the results are the same")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play on the Ray cluster at ADDRESS (auto: this machine's cluster; local: start one here)")


def counts(allowed: tuple[int, ...], wanted: list[int] | None, first: int | None = None) -> tuple[int, ...]:
    """The player counts to play: those wanted that are allowed, else the first `first` allowed (all
    when None)."""
    if wanted:
        return tuple(p for p in wanted if p in allowed)
    return allowed[:first]


if __name__ == "__main__":
    sys.exit(main())
