#!/usr/bin/env python3
"""`cardrules selfplay --workers N` against `--workers 1`: the speed-up of many cores, and the same
statistics whatever the number of workers.

    python bench/workers_speed.py [--workers N] [--games G] [--rounds R] [--seed S] [--only NAME ...]

For each target (Klats with 3 players, ARNE Total @en with 4) it runs the command R times with
one worker and R times with N (default: every core), alternating, each pair with the same seed
(S, S+1, ...), and adds up the wall time the command reports for its matches (the pool's start
and the workers' compiling included, the process's own start not). It prints matches per second
both ways, their ratio, the CPU seconds all the processes of each side used (whole commands,
start included: "cpu N" near "cpu 1" means the workers add little work of their own), and
whether every pair gave the same figures; exit 1 when one did not. On a 2-core machine the
target is a ratio of 1.8 or more; other work on the machine lowers it (the workers then get no
more of the cores than one process would), so the load average is printed before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

TARGETS = {"klats3": ("klats", "3"), "arne_total_en4": ("arne_total@en", "4")}
TIMING = {"wall_seconds", "games_per_second"}


def selfplay(ruleset: str, players: str, games: int, seed: int, workers: int) -> tuple[dict, float]:
    """The figures of one run, and the CPU time (user and system) its processes used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "cardrules.cli.main", "selfplay", ruleset, "-p", players, "-g",
                           str(games), "-s", str(seed), "-w", str(workers), "--json"],
                          capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return json.loads(done.stdout), after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--games", type=int, default=600, help="matches per run")
    ap.add_argument("--rounds", type=int, default=3, help="runs each way, alternating")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="+", choices=list(TARGETS))
    a = ap.parse_args()
    print(f"selfplay --workers {a.workers} against --workers 1: {a.rounds} x {a.games} matches each way; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'target':<16} {'1 worker/s':>10} {f'{a.workers} workers/s':>12} {'ratio':>6} {'cpu 1':>7} "
          f"{f'cpu {a.workers}':>7}  same figures")
    all_same = True
    for name, (ruleset, players) in TARGETS.items():
        if a.only and name not in a.only:
            continue
        seconds, cpu = {1: 0.0, a.workers: 0.0}, {1: 0.0, a.workers: 0.0}
        same = True
        for k in range(a.rounds):
            first, second = (1, a.workers) if k % 2 == 0 else (a.workers, 1)  # each goes first in turn
            runs = {}
            for w in (first, second):
                runs[w], used = selfplay(ruleset, players, a.games, a.seed + k, w)
                seconds[w] += runs[w]["wall_seconds"]
                cpu[w] += used
            same &= ({k: v for k, v in runs[1].items() if k not in TIMING}
                     == {k: v for k, v in runs[a.workers].items() if k not in TIMING})
        one, many = (a.rounds * a.games / seconds[w] for w in (1, a.workers))
        print(f"{name:<16} {one:10.1f} {many:12.1f} {many / one:6.2f} {cpu[1]:7.2f} {cpu[a.workers]:7.2f}  "
              f"{'yes' if same else 'NO'}", flush=True)
        all_same &= same
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
