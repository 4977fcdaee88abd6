"""How strong the bots are: win rates with 95% Wilson intervals, and the time a decision takes.

    python bench/bots_strength.py --games 200 --workers 2              # the whole table
    python bench/bots_strength.py --games 24 --ismcts ismcts:100       # a small run, a smaller budget

Two players: ismcts vs random, ismcts vs greedy, greedy vs random, each bot first in half the
matches (match i puts the first-named bot at seat i % 2). Four players: one ismcts among three
random bots, at seat i % 4, in half as many matches unless --four-games says; its target is
twice the fair share (50%); `--four-rivals random greedy` adds a cell of one ismcts among three
greedy bots. `--three-rivals random greedy` adds 3-player cells (one ismcts among two random or
two greedy bots, as many matches as a 4-player cell), held to the fair share: the issue sets them
no bar. Ties count as a share of a win (shared among the tied teams where the ruleset has
teams: a team's win is each of its seats' win).

The issue's bars are for its own rulesets (`RULESETS`) and cells. Any other ruleset (`--rulesets
whist hearts rummy go_fish colour_rush`) and any other cell is held to its fair share instead: the
share a seat wins among bots alike (a half with two seats, a quarter among four, its team's share
where the ruleset has teams), which the interval must lie above. A ruleset that cannot seat two
players (Whist, Hearts) plays its 4-player cells alone.

Each match's game and bot seeds come from the run seed, the cell and the match index, so the
figures do not depend on --workers; each worker compiles the rulesets itself (compiled
rulesets hold closures, which do not pickle). Decision times are the ismcts seat's, over the
decisions with two or more legal moves, in the matches of this run, in processor time (as are the
seconds a match takes): on a shared machine, what one idle core would need.

`--outcomes FILE` adds each match's result to FILE, a JSON object a line, a cell at a time as it
ends (a cut run keeps its cells): two runs of the same seed play the same deals, so
`bench/paired.py` can compare them match by match.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from cardrules.interpreter.bots import Table, make_bot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import EngineError, new_game
from cardrules.interpreter.load import load, split_selection
from cardrules.interpreter.progress import endless_round, round_bound
from cardrules.interpreter.seats import parse_seat
from cardrules.interpreter.workers import Pool

RULESETS = ["klats", "arne_92", "arne_total@en", "arne_total@ru", "arne_total@en+minimum"]
PAIRS = [("ismcts", "random", 0.90), ("ismcts", "greedy", 0.60), ("greedy", "random", 0.70)]
FOUR_TARGET = 0.50  # the issue's: one ismcts among three random wins twice its fair share
Z = 1.959964  # the normal quantile of a 95% interval

_compiled: dict = {}


def compiled(spec: str, players: int):
    """The ruleset compiled in this process, once per (spec, players)."""
    if (spec, players) not in _compiled:
        s = split_selection(spec)
        _compiled[spec, players] = compile_ruleset(load(s.path, s.edition, s.variants).model, players)
    return _compiled[spec, players]


def play(task: tuple) -> tuple[float, list[float], float]:
    """One match: the first bot's share of the win, the ismcts seat's decision times, and the
    processor time the match took (what a run on idle cores needs, however loaded this one is).
    An error comes back naming the cell and the match it happened in."""
    try:
        cpu = time.process_time()
        wins, times = _play(*task)
        return wins, times, time.process_time() - cpu
    except Exception as e:
        raise RuntimeError(f"{task[4]} match {task[5]}: {type(e).__name__}: {e}") from None


def _play(spec: str, seats: tuple, me: int, run_seed: int, cell: str, index: int) -> tuple[float, list[float]]:
    c = compiled(spec, len(seats))
    seeds = random.Random(f"{run_seed}:{cell}:{index}")
    game = new_game(c, seeds.getrandbits(64))
    bots = [make_bot(parse_seat(kind), random.Random(seeds.getrandbits(64))) for kind in seats]
    table, times, bound = Table(game, bots), [], round_bound(game)
    while not game.over:
        if game.state.round_plays > bound:  # as `bots.play_out`: a match that cannot end is an error, not a hang
            raise EngineError(*endless_round(game))
        timed = seats[game.to_move].startswith("ismcts") and len(game.actions()) > 1
        start = time.process_time()  # the processor's time: what one idle core would take, however loaded this one is
        action = table.choose()
        if timed:
            times.append(time.process_time() - start)
        table.play(action)
    winners = game.winners()
    teams = {c.team_of[s] for s in winners}  # a tie shares the win among the teams, not their seats
    return (1.0 / len(teams) if me in winners else 0.0), times


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _spread(times: list[float]) -> str:
    """The median and 95th percentile of sorted decision times, or a dash where there are none."""
    if not times:
        return "-"
    return f"{statistics.median(times):.3f} / {times[int(0.95 * (len(times) - 1))]:.3f}"


def fair_share(spec: str, players: int) -> float:
    """A seat's share of the wins among bots alike: its team's (a seat alone without teams)."""
    c = compiled(spec, players)
    return len(c.team_of[0]) / players


def cells(args) -> list[tuple[str, str, list[tuple], str, float]]:
    """(ruleset, cell name, tasks, target's kind, target) for every cell of the run: the kind is
    ">=" for the issue's bars, ">" for a fair share, which the interval must lie above."""
    out = []
    for spec in args.rulesets:
        s = split_selection(spec)
        counts = load(s.path, s.edition, s.variants).model.counts
        issue = spec in RULESETS
        for a, b, bar in PAIRS if 2 in counts else ():
            if args.pairs is not None and f"{a} vs {b}" not in args.pairs:
                continue
            kind_a, kind_b = (args.ismcts if k == "ismcts" else k for k in (a, b))
            name = f"{a} vs {b}"
            tasks = [(spec, (kind_a, kind_b) if i % 2 == 0 else (kind_b, kind_a), i % 2, args.seed, f"{spec}/{name}", i)
                     for i in range(args.games)]
            out.append((spec, name, tasks, ">=", bar) if issue else (spec, name, tasks, ">", fair_share(spec, 2)))
        for rival in args.three_rivals if 3 in counts else ():
            out.append((spec, f"ismcts vs 2 {rival}", _many(args, spec, rival, 3), ">", fair_share(spec, 3)))
        for rival in args.four_rivals if args.four and 4 in counts else ():
            issue_cell = issue and rival == "random"
            out.append((spec, f"ismcts vs 3 {rival}", _many(args, spec, rival, 4), ">=" if issue_cell else ">",
                        FOUR_TARGET if issue_cell else fair_share(spec, 4)))
    return out


def _many(args, spec: str, rival: str, players: int) -> list[tuple]:
    """The matches of one ismcts seat among `players - 1` rivals of a kind, the ismcts seat at
    seat i % players in match i."""
    cell = f"{players}p" if rival == "random" else f"{players}p-{rival}"  # the random cell keeps its seeds of before
    tasks = []
    for i in range(args.four_games):
        seats = [rival] * players
        seats[i % players] = args.ismcts
        tasks.append((spec, tuple(seats), i % players, args.seed, f"{spec}/{cell}", i))
    return tasks


def _record(args, spec: str, name: str, tasks: list[tuple], outcomes: list) -> None:
    """Append a cell's matches to `--outcomes`, each with what names its deal (run seed, cell,
    index) and the ismcts seat string; the file is closed after each cell, so a killed run keeps
    the cells it finished."""
    with open(args.outcomes, "a", encoding="utf-8") as out:
        for task, (wins, _, cpu) in zip(tasks, outcomes, strict=True):
            out.write(json.dumps({"ruleset": spec, "cell": name, "seed": args.seed, "match": task[5],
                                  "ismcts": args.ismcts, "win": wins, "cpu": round(cpu, 3)}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="matches a cell (default 200)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ismcts", default="ismcts",
                        help="the ismcts seat string (default: ismcts, its default budget)")
    parser.add_argument("--rulesets", nargs="+", default=RULESETS)
    parser.add_argument("--pairs", nargs="*", choices=[f"{a} vs {b}" for a, b, _ in PAIRS],
                        help="only these two-player cells (default: all three; none: --pairs alone)")
    parser.add_argument("--no-four", dest="four", action="store_false", help="leave out the 4-player cells")
    parser.add_argument("--four-rivals", nargs="+", choices=["random", "greedy"], default=["random"],
                        help="the bots the ismcts seat meets in the 4-player cells (default: random)")
    parser.add_argument("--four-games", type=int,
                        help="matches a 4-player cell, and a 3-player one (default: half of --games: a 4-player "
                             "match costs ismcts about twice a 2-player one, and the figures are far above its target)")
    parser.add_argument("--three-rivals", nargs="+", choices=["random", "greedy"], default=[],
                        help="add 3-player cells: one ismcts among two bots of each kind named (default: none)")
    parser.add_argument("--outcomes", metavar="FILE",
                        help="append each match's result to FILE as a JSON line (see bench/paired.py)")
    args = parser.parse_args()
    if args.four_games is None:
        args.four_games = max(1, args.games // 2)
    parse_seat(args.ismcts)
    plan = cells(args)
    print(f"bots_strength: {args.games} matches a cell ({args.four_games} a 4-player cell), ismcts seat "
          f"'{args.ismcts}', seed {args.seed}, {args.workers} workers\n")
    print("| ruleset | cell | win rate | 95% CI | target | met | cpu s/match | decision s, median / p95 |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    started, times, cpu = time.perf_counter(), [], 0.0
    with Pool(args.workers, play) as pool:  # a worker killed ends the run with an error, never a wait
        for spec, name, tasks, kind, target in plan:  # each row as soon as its cell is done: a cut run keeps its rows
            outcomes = list(pool.map(tasks))
            if args.outcomes:
                _record(args, spec, name, tasks, outcomes)
            wins = sum(w for w, _, _ in outcomes)
            cell_cpu = sum(c for _, _, c in outcomes)
            cpu += cell_cpu
            low, high = wilson(wins, len(outcomes))
            if kind == ">=":
                met = "yes" if low >= target else ("no" if high < target else "unsure")
            else:
                met = "yes" if low > target else ("no" if high <= target else "unsure")
            cell_times = sorted(t for _, ts, _ in outcomes for t in ts)
            print(f"| {spec} | {name} | {wins / len(outcomes):.0%} | {low:.0%}-{high:.0%} | {kind} {target:.0%} | "
                  f"{met} | {cell_cpu / len(outcomes):.1f} | {_spread(cell_times)} |",
                  flush=True)
            times += cell_times
    if times:
        times.sort()
        print(f"\nismcts decisions ('{args.ismcts}', two or more legal moves, processor time): {len(times)}, median "
              f"and 95th percentile {_spread(times)} s")
    print(f"wall time {time.perf_counter() - started:.0f} s; processor time {cpu:.0f} s, so about "
          f"{cpu / args.workers:.0f} s on {args.workers} idle cores")


if __name__ == "__main__":
    main()
