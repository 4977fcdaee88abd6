#!/usr/bin/env python3
"""`cardrules check FILE` from a cold process: this checkout against today's cardrules, interleaved.

    python bench/cold_start.py [--runs N] [--commit REV] [FILE ...]

runs `cardrules check FILE` (default: rulesets/klats.rules and rulesets/arne_total.rules) N times
(default 15) with today's cardrules (commit 2047748, installed as bench/engine_speed.py installs
it, on that commit's version of the file) and N times with this checkout's, alternating, and prints
the wall time of each (median and fastest) and the CPU time it used (user and system), with
new/old of the medians. Each run is a whole process: interpreter start, imports, parse, check and
the summary. The targets are 0.3 s wall for Klats and 0.5 s for ARNE Total on an idle machine; on
a shared one the CPU time is the better guide (waiting for a core does not count in it), and the
load average is printed.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine_speed import REPO, TODAY, install_today

FILES = ("rulesets/klats.rules", "rulesets/arne_total.rules")


# Both sides run from bytecode, as an installed package does: pip compiled today's at install;
# the checkout's is written by the first run (a PYTHONDONTWRITEBYTECODE in the environment would
# make this checkout recompile every module in every run, and the figures unfair to it).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str]) -> tuple[float, float]:
    """The wall time of the command, and the CPU time (user and system) it used."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=REPO, env=ENV)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", default=FILES)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--commit", default=TODAY)
    a = ap.parse_args()
    old_python, old_source = install_today(a.commit)
    commands = {"old": [str(old_python.parent / "cardrules"), "check"],
                "new": [str(Path(sys.executable).parent / "cardrules"), "check"]}
    roots = {"old": old_source, "new": REPO}  # each checks its own version of the file: the language grows
    for name, command in commands.items():  # the first run of each fills its caches (the parser's, Python's bytecode)
        timed([*command, str(roots[name] / FILES[0])])
    print(f"cardrules check, {a.runs} cold processes each, alternating; old = {a.commit}; "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'file':<28} {'':>4} {'old median':>10} {'old min':>8} {'new median':>10} {'new min':>8} {'new/old':>8}")
    for file in a.files:
        times = {"old": [], "new": []}
        for k in range(a.runs):
            for name in (("old", "new") if k % 2 == 0 else ("new", "old")):
                times[name].append(timed([*commands[name], str(roots[name] / file)]))
        for what, i in (("wall", 0), ("cpu", 1)):
            old, new = ([t[i] for t in times[n]] for n in ("old", "new"))
            print(
                f"{file if i == 0 else '':<28} {what:>4} {statistics.median(old):10.3f} {min(old):8.3f} "
                f"{statistics.median(new):10.3f} {min(new):8.3f} "
                f"{statistics.median(new) / statistics.median(old):8.3f}",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
