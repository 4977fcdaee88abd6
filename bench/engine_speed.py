#!/usr/bin/env python3
"""This checkout's engine against today's engine (and Klats against the hand-written reference),
measured in one run, interleaved, so that all of them see the same machine load.

    python bench/engine_speed.py [--games N] [--chunk C] [--seed S] [--only NAME ...]
                                 [--commit REV] [--reference PATH]

"Today's engine" is the engine of commit 2047748, the last before issue 14's first change: the
script installs that commit, as it was packaged, into a virtual environment of its own (once, in
the user's cache folder: ~/.cache/cardrules/bench/engine-REV; delete it to reinstall), and runs
each engine in its own subprocess (bench/engine_runner.py). Both play the same matches: the
parent draws each match's seeds (as `cardrules selfplay --seed S` does) and hands them to both,
in alternating chunks of C matches (the order of the engines turns with each chunk), and each
engine times only its matches (after one untimed match at load, where each does what it does once
per ruleset: see engine_runner.py). For Klats the reference engine (../shared/bench/klats_reference.py,
never imported) plays a chunk of its own between them, with its own seeds.

For each target (Klats 2, 3 and 5 players, ARNE 92 with 3, ARNE Total @en with 4) it prints the
matches per second of each engine, new/old, new/reference, and whether both engines played the
very same matches (rounds, plays and totals of each; "no" when the engines or the ruleset files
differ in what they play, which a faster engine must not). The load average is printed before
and after: on a shared machine the absolute figures move, the ratios much less.
"""
from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "engine_runner.py"
REFERENCE = REPO.parent / "shared" / "bench" / "klats_reference.py"
TODAY = "2047748"  # the commit before issue 14's first change


@dataclass(frozen=True)
class Target:
    name: str
    ruleset: str  # a path inside the repository
    edition: str | None
    players: int
    reference: bool = False  # the hand-written Klats engine plays it too


TARGETS = (
    Target("klats2", "rulesets/klats.rules", None, 2, True),
    Target("klats3", "rulesets/klats.rules", None, 3, True),
    Target("klats5", "rulesets/klats.rules", None, 5, True),
    Target("arne92_3", "rulesets/arne_92.rules", None, 3),
    Target("arne_total_en4", "rulesets/arne_total.rules", "en", 4),
)


class Engine:
    """One engine in its own process, fed requests one at a time."""

    def __init__(self, python: Path, target: Target, root: Path):
        self.proc = subprocess.Popen([str(python), str(RUNNER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, cwd=root)
        self.ask({"load": str(root / target.ruleset), "edition": target.edition, "players": target.players})
        self.seconds, self.played, self.figures = 0.0, 0, []

    def ask(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"an engine stopped (exit {self.proc.wait()}); its error is above")
        return json.loads(line)

    def play(self, seeds: list[tuple[int, int]]) -> None:
        answer = self.ask({"play": seeds})
        self.seconds += answer["seconds"]
        self.played += len(seeds)
        self.figures += answer["matches"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


class Reference:
    """The hand-written Klats engine: a subprocess per chunk, timed by itself."""

    def __init__(self, path: Path, players: int, seed: int):
        self.path, self.players, self.seed = path, players, seed
        self.seconds, self.played, self.chunks = 0.0, 0, 0

    def play(self, seeds: list) -> None:
        self.chunks += 1
        done = subprocess.run([sys.executable, str(self.path), "--players", str(self.players), "--games",
                               str(len(seeds)), "--seed", str(self.seed * 1000 + self.chunks)],
                              capture_output=True, text=True, check=True)
        self.seconds += json.loads(done.stdout)["wall_seconds"]
        self.played += len(seeds)

    def close(self) -> None:
        pass


def install_today(commit: str) -> tuple[Path, Path]:
    """The Python of a virtual environment holding `commit`'s cardrules, and that commit's source
    tree (for its rulesets); installed on first use."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardrules" / "bench"
    rev = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=7", commit], capture_output=True,
                         text=True, check=True).stdout.strip()
    folder = home / f"engine-{rev}"
    python, source, done = folder / "venv" / "bin" / "python", folder / "src", folder / "installed"
    if done.is_file():
        return python, source
    print(f"installing today's engine ({rev}) into {folder} ...", file=sys.stderr, flush=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev], capture_output=True,
                             check=True).stdout
    source.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(source, filter="data")
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(source)], check=True)
    done.write_text(rev + "\n", encoding="utf-8")
    return python, source


def measure(target: Target, old: tuple[Path, Path], games: int, chunk: int, seed: int,
            reference: Path | None) -> dict:
    """Both engines (and the reference) on one target, chunk by chunk in turn."""
    engines = {"old": Engine(old[0], target, old[1]), "new": Engine(Path(sys.executable), target, REPO)}
    if target.reference and reference is not None:
        engines["ref"] = Reference(reference, target.players, seed)
    draw = random.Random(seed)
    pairs = ((draw.getrandbits(64), draw.getrandbits(64)) for _ in range(games))
    order = list(engines.values())
    for k in itertools.count():
        seeds = list(itertools.islice(pairs, chunk))
        if not seeds:
            break
        for engine in order[k % len(order):] + order[:k % len(order)]:  # each engine goes first in turn
            engine.play(seeds)
    for engine in engines.values():
        engine.close()
    speed = {name: e.played / e.seconds for name, e in engines.items()}
    same = engines["old"].figures == engines["new"].figures
    rules_same = (old[1] / target.ruleset).read_bytes() == (REPO / target.ruleset).read_bytes()
    return {"target": target.name, "games": games, **{f"{k}_per_second": v for k, v in speed.items()},
            "new_over_old": speed["new"] / speed["old"],
            **({"new_over_reference": speed["new"] / speed["ref"]} if "ref" in speed else {}),
            "same_matches": same, "same_ruleset_file": rules_same}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="matches per engine and target")
    ap.add_argument("--chunk", type=int, default=25, help="matches an engine plays before the next one's turn")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="+", choices=[t.name for t in TARGETS], help="these targets only")
    ap.add_argument("--commit", default=TODAY, help="today's engine (default: %(default)s)")
    ap.add_argument("--reference", type=Path, default=REFERENCE)
    ap.add_argument("--json", action="store_true", help="one JSON object per target, nothing else")
    a = ap.parse_args()
    if a.games < 1 or a.chunk < 1:
        ap.error("--games and --chunk must be at least 1")
    reference = a.reference if a.reference.is_file() else None
    if reference is None and not a.json:
        print(f"no reference engine at {a.reference}: Klats is measured against today's engine only")
    old = install_today(a.commit)
    chosen = [t for t in TARGETS if not a.only or t.name in a.only]
    if not a.json:
        print(f"{a.games} matches per engine and target, chunks of {a.chunk}, seed {a.seed}; old = {a.commit}, "
              f"new = {REPO}; load average {os.getloadavg()[0]:.2f} at the start")
        print(f"{'target':<16} {'old/s':>8} {'new/s':>8} {'new/old':>8} {'ref/s':>8} {'new/ref':>8}  same matches")
    start = time.perf_counter()
    for target in chosen:
        r = measure(target, old, a.games, a.chunk, a.seed, reference)
        if a.json:
            print(json.dumps(r))
            continue
        ref = (f"{r['ref_per_second']:8.1f} {r['new_over_reference']:8.3f}" if "ref_per_second" in r
               else f"{'-':>8} {'-':>8}")
        same = "yes" if r["same_matches"] else "no" + ("" if r["same_ruleset_file"] else " (the ruleset file changed)")
        print(f"{target.name:<16} {r['old_per_second']:8.1f} {r['new_per_second']:8.1f} {r['new_over_old']:8.3f} "
              f"{ref}  {same}", flush=True)
    if not a.json:
        print(f"{time.perf_counter() - start:.0f} s; load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
