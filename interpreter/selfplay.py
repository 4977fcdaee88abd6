"""Self-play: whole matches between bots (random by default, or the seats given), and the
statistics a ruleset must reproduce.

Match i gets its game seed and its bots' seed from one `random.Random(seed)`, so a run is
deterministic, and each match can be replayed from its game seed and its moves alone (the bots
never draw on the game's random source). The random seats of a match share one random source,
drawn from its bots' seed; every other bot has its own, drawn from that seed and its seat.
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable

from .bots import RandomBot, make_bot, play_out
from .compile import Compiled
from .engine import Game
from .gamelog import Recorder
from .invariants import Checker
from .seats import Seat


@dataclass(frozen=True)
class Stats:
    """The figures of one run. A move is a play (a pass is not); the winning total is the best
    total of a match (the lowest when the match is won by the lowest); tied winners each count a
    win, so `wins_by_seat` sums to at least `games`."""

    games: int
    players: int
    seed: int
    wall_seconds: float
    games_per_second: float
    mean_rounds: float
    sd_rounds: float
    mean_moves: float
    sd_moves: float
    mean_winning_total: float
    sd_winning_total: float
    wins_by_seat: tuple[int, ...]
    round_end_reasons: dict[str, int]  # every `end round` of the ruleset, in its order
    seats: tuple[str, ...] = ()  # each seat's kind, with its settings


def run(compiled: Compiled, games: int, seed: int, progress: Callable[[int], None] | None = None,
        record: Callable[[Game, list[str]], None] | None = None, invariants: Checker | None = None,
        seats: tuple[Seat, ...] | None = None) -> Stats:
    """Play `games` matches, each seat a bot of its kind in `seats` (default: every seat a
    `RandomBot`); call `progress(done)` after each match.
    Raises `engine.EngineError` when the ruleset cannot go on (a round that cannot end).
    With `record`, each match's notation is kept and `record(game, moves)` called at its end.
    With `invariants`, it plays every match and checks it after every action; a match that,
    once dealt, fails to end is one of its failures, not an error, and counts in the figures as
    it stands."""
    if games < 1:
        raise ValueError("games must be at least 1")
    n = compiled.players
    seats = seats or (Seat("random"),) * n
    if len(seats) != n or not all(s.is_bot for s in seats):
        raise ValueError(f"{n} seats, every one a bot, are needed")
    seeds = random.Random(seed)
    rounds, moves, best = [], [], []
    wins = [0] * n
    reasons = {name: 0 for name in compiled.model.round_end_names}
    start = time.perf_counter()
    for done in range(1, games + 1):
        game = Game(compiled, seeds.getrandbits(64))
        bots_seed = seeds.getrandbits(64)
        shared = RandomBot(random.Random(bots_seed))
        bots = [shared if s.kind == "random" else make_bot(s, random.Random(f"{bots_seed}:{k}"))
                for k, s in enumerate(seats)]
        if record is not None:
            recorder = Recorder(bots)
            bots = recorder.seats()
        if invariants is None:
            play_out(game, bots)
        else:
            invariants.play_out(game, bots)
        st = game.state
        rounds.append(len(st.results))
        moves.append(st.plays)
        winners = game.winners()
        best.append(st.totals[winners[0]])
        for s in winners:
            wins[s] += 1
        for result in st.results:
            reasons[result.reason] += 1
        if record is not None:
            record(game, recorder.moves)
        if progress is not None:
            progress(done)
    wall = time.perf_counter() - start
    return Stats(games, n, seed, wall, games / max(wall, 1e-9), *_mean_sd(rounds),
                 *_mean_sd(moves), *_mean_sd(best), tuple(wins), reasons, tuple(map(str, seats)))


def _mean_sd(xs: list[int]) -> tuple[float, float]:
    """Mean and sample standard deviation (0.0 for a single value)."""
    return statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else 0.0
