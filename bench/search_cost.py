#!/usr/bin/env python3
"""What the bots' search costs here against another build of cardrules, and whether the two
play the same moves: the same matches (fixed seeds) played by each build in turn, in one run.

    python bench/search_cost.py --against /path/to/other/venv/bin/python [--matches 2] [--rounds 3]
    python bench/search_cost.py --against PYTHON --rulesets rummy --matches 1 --rounds 2

The other build is any Python with another cardrules installed (a worktree of an earlier commit,
`pip install --no-deps` into a copy of the venv). Each build plays every cell's matches in a
process of its own, the builds alternating round by round, so both see the same machine. It
prints per cell the processor seconds of each build (summed over the rounds), their ratio (other
/ here: above 1 is faster here) and whether every move of every match was the same: a change
meant to save time without changing a choice shows "same" in every cell. Exits 1 if a cell's
moves differ and --same was given.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import time

# (ruleset, seats in the first match; each next match turns them one seat round)
CELLS = [
    ("arne_total@en", ("ismcts", "greedy")),
    ("arne_total@en+minimum", ("ismcts", "greedy")),
    ("arne_total@ru", ("ismcts", "random")),
    ("arne_92", ("ismcts", "greedy")),
    ("klats", ("ismcts", "greedy")),
    ("arne_total@en", ("ismcts", "random", "random", "random")),
]
# the rest of the catalogue, played only when --rulesets names them
MORE_CELLS = [
    ("rummy", ("ismcts", "random")),
    ("rummy", ("ismcts", "random", "random", "random")),  # the dearest decisions of the catalogue
    ("colour_rush", ("ismcts", "greedy")),
    ("go_fish", ("ismcts", "greedy")),
    ("go_fish", ("ismcts", "random", "random", "random", "random", "random")),  # its dearest decisions
    ("whist", ("ismcts", "random", "random", "random")),
    ("hearts", ("ismcts", "random", "random", "random")),
]


def play_cell(cell: int, matches: int) -> dict:
    """The cell's matches on the cardrules this Python imports: a hash of every move and the
    final totals, and the processor seconds the matches took (loading and compiling aside)."""
    from cardrules.interpreter.bots import Table, make_bot
    from cardrules.interpreter.compile import compile_ruleset
    from cardrules.interpreter.engine import new_game
    from cardrules.interpreter.load import load, split_selection
    from cardrules.interpreter.seats import parse_seat

    spec, seats = (CELLS + MORE_CELLS)[cell]
    s = split_selection(spec)  # a ruleset by name: each build reads its own
    compiled = compile_ruleset(load(s.path, s.edition, s.variants).model, len(seats))
    digest = hashlib.sha256()
    cpu = time.process_time()
    for i in range(matches):
        turn = i % len(seats)
        seeds = random.Random(f"search_cost:{spec}:{i}")
        game = new_game(compiled, seeds.getrandbits(64))
        kinds = seats[turn:] + seats[:turn]
        bots = [make_bot(parse_seat(kind), random.Random(seeds.getrandbits(64))) for kind in kinds]
        table = Table(game, bots)
        while not game.over:
            action = table.choose()
            play, face, target, pile = action
            digest.update(repr((game.to_move, -1 if play is None else play.index, face, target, pile)).encode())
            table.play(action)
        digest.update(repr(game.state.totals).encode())
    return {"moves": digest.hexdigest(), "cpu": time.process_time() - cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="the other build's Python (required)")
    ap.add_argument("--matches", type=int, default=2, help="matches a cell (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="times each build plays every cell (default 3)")
    ap.add_argument("--same", action="store_true", help="exit 1 unless every cell's moves are the same")
    ap.add_argument("--rulesets", nargs="+", metavar="SPEC",
                    help="only the cells of these rulesets, e.g. arne_92 rummy (default: the issue's six cells; "
                         f"also {', '.join(spec for spec, _ in MORE_CELLS)})")
    ap.add_argument("--cell", type=int, help=argparse.SUPPRESS)  # a worker: play one cell, print JSON
    a = ap.parse_args()
    if a.cell is not None:
        print(json.dumps(play_cell(a.cell, a.matches)))
        return
    if a.against is None:
        ap.error("--against is required: the other build's Python")
    every = CELLS + MORE_CELLS
    chosen = [c for c, (spec, _) in enumerate(every) if spec in a.rulesets] if a.rulesets else list(range(len(CELLS)))
    if not chosen:
        ap.error(f"no cell plays {' '.join(a.rulesets)}: choose from {', '.join(dict.fromkeys(s for s, _ in every))}")
    builds = {"other": a.against, "here": sys.executable}
    cpu = {(b, c): 0.0 for b in builds for c in chosen}
    moves: dict[tuple[str, int], str] = {}
    for _ in range(a.rounds):
        for build, python in builds.items():
            for c in chosen:
                done = subprocess.run([python, __file__, "--cell", str(c), "--matches", str(a.matches)],
                                      capture_output=True, text=True, cwd="/")
                if done.returncode != 0:
                    sys.exit(f"{build} ({python}) failed on cell {c}:\n{done.stderr[-2000:]}")
                out = json.loads(done.stdout)
                cpu[build, c] += out["cpu"]
                moves.setdefault((build, c), out["moves"])
    print(f"{a.matches} matches a cell, {a.rounds} rounds; processor seconds over the rounds\n")
    print("| ruleset | seats | other s | here s | other / here | moves |")
    print("|---|---|---|---|---|---|")
    differ = False
    for c in chosen:
        spec, seats = every[c]
        same = moves["other", c] == moves["here", c]
        differ |= not same
        print(f"| {spec} | {','.join(seats)} | {cpu['other', c]:.1f} | {cpu['here', c]:.1f} | "
              f"{cpu['other', c] / cpu['here', c]:.3f} | {'same' if same else 'differ'} |")
    other, here = (sum(cpu[b, c] for c in chosen) for b in builds)
    print(f"\nall cells: other {other:.1f} s, here {here:.1f} s, other / here {other / here:.3f}")
    if differ and a.same:
        sys.exit(1)


if __name__ == "__main__":
    main()
