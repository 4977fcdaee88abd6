#!/usr/bin/env python3
"""Klats under random bots: our engines (rulesets/klats.rules through cardrules.interpreter.selfplay,
on the generated engine and on the closure engine) against the hand-written reference engine in
../shared/bench/klats_reference.py.

    python bench/klats_speed.py [--games N] [--players P] [--seed S] [--chunks K] [--full] [--workers N]
                                [--reference PATH]

prints the matches per second of the three and the ratios, measured in K alternating chunks in
this one run. With --full it also plays 2000 matches (--full-games) for each of 2..6
players on both engines and prints, per figure, both means, their difference and its combined
standard error (a difference of 4 SE or more is flagged). The reference runs as a subprocess and
is never imported.
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.load import load
from cardrules.interpreter.selfplay import run

REPO = Path(__file__).resolve().parent.parent
KLATS = REPO / "rulesets" / "klats.rules"
REFERENCE = REPO.parent / "shared" / "bench" / "klats_reference.py"
FIGURES = (("rounds", "rounds"), ("moves", "placements"), ("winning_total", "winning_total"))


def reference(path: Path, players: int, games: int, seed: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(path), "--players", str(players), "--games", str(games),
                             "--seed", str(seed)], stdout=subprocess.PIPE, text=True)


def result(proc: subprocess.Popen) -> dict:
    out, _ = proc.communicate()
    if proc.returncode:
        sys.exit(f"the reference engine failed (exit {proc.returncode})")
    return json.loads(out)


def speed(model, path: Path, players: int, games: int, seed: int, chunks: int) -> None:
    """Our two engines and the reference, in `chunks` alternating chunks of the matches, so that
    all three see the same machine load."""
    compiled = compile_ruleset(model, players, None)
    size = max(1, games // chunks)
    wall = {"fast": 0.0, "closures": 0.0, "reference": 0.0}
    for k in range(chunks):
        wall["fast"] += run(compiled, size, seed + k, engine="fast").wall_seconds
        wall["closures"] += run(compiled, size, seed + k, engine="reference").wall_seconds
        wall["reference"] += result(reference(path, players, size, seed + k))["wall_seconds"]
    played = size * chunks
    rate = {name: played / seconds for name, seconds in wall.items()}
    print(f"Klats, {players} players, {played} matches of random bots in {chunks} alternating chunks, seed {seed}")
    print(f"  ours, generated engine  {rate['fast']:9.1f} matches/s  ({wall['fast']:.2f} s)")
    print(f"  ours, closure engine    {rate['closures']:9.1f} matches/s  ({wall['closures']:.2f} s)")
    print(f"  reference               {rate['reference']:9.1f} matches/s  ({wall['reference']:.2f} s)")
    print(f"  generated/reference  {rate['fast'] / rate['reference']:.3f}   "
          f"closures/reference  {rate['closures'] / rate['reference']:.3f}   "
          f"generated/closures  {rate['fast'] / rate['closures']:.2f}")


def full(model, path: Path, games: int, seed: int, workers: int = 1) -> bool:
    """Both engines for 2..6 players; True when every figure agrees within 4 SE."""
    running = {p: reference(path, p, games, seed) for p in range(2, 7)}  # they run while ours does
    print(f"\nKlats, {games} matches per player count, seed {seed}: ours vs reference")
    print(f"{'P':>2} {'figure':<14} {'ours':>9} {'reference':>9} {'diff':>8} {'SE':>6} {'diff/SE':>8}")
    agree = True
    for p in range(2, 7):
        ours = run(compile_ruleset(model, p, None), games, seed, workers=workers)
        ref = result(running[p])
        for name, ref_name in FIGURES:
            mean, sd = getattr(ours, f"mean_{name}"), getattr(ours, f"sd_{name}")
            ref_mean, ref_sd = ref[f"mean_{ref_name}"], ref[f"sd_{ref_name}"]
            se = math.sqrt(sd ** 2 / games + ref_sd ** 2 / games)
            z = (mean - ref_mean) / se
            agree &= abs(z) < 4
            print(f"{p:>2} {name:<14} {mean:9.3f} {ref_mean:9.3f} {mean - ref_mean:+8.3f} {se:6.3f} {z:+8.2f}"
                  + ("  <-- beyond 4 SE" if abs(z) >= 4 else ""))
    return agree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="matches for the speed run")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--chunks", type=int, default=10, help="alternating chunks the speed run is cut into")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="also compare the statistics for 2..6 players")
    ap.add_argument("--full-games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=1,
                    help="processes for ours in --full (the same figures whatever the number; the speed run uses one)")
    ap.add_argument("--reference", type=Path, default=REFERENCE)
    a = ap.parse_args()
    if not a.reference.is_file():
        sys.exit(f"no reference engine at {a.reference}; give its path with --reference")
    model = load(str(KLATS)).model
    speed(model, a.reference, a.players, a.games, a.seed, a.chunks)
    if a.full and not full(model, a.reference, a.full_games, a.seed, a.workers):
        sys.exit(1)


if __name__ == "__main__":
    main()
