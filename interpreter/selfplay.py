"""Self-play: whole matches between random bots, and the statistics a ruleset must reproduce.

Match i (0-based) plays with the i-th pair (game seed, bots' seed) that one `random.Random(seed)`
draws: a function of the run's seed and the match's index alone. The parent process draws the
pairs and hands them out with the matches, so a run gives the same figures, logs and invariant
failures whether one process plays every match or many do (`workers`, or a Ray cluster), and each
match can be replayed from its game seed and its moves alone (the bots never draw on the game's
random source).

Other processes get a `Table`: the checked model (plain frozen data, which pickles) with the
player count, params and language, and compile it themselves once, since compiled closures do
not pickle. Matches travel in chunks; results come back in match order, at most a few chunks
ahead of the slowest worker, so memory stays flat however many matches are played.
"""
from __future__ import annotations

import gc
import hashlib
import itertools
import multiprocessing
import pickle
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast, overload

from . import model as m
from .bots import Bot, RandomBot, make_bot, play_out
from .compile import Compiled, compile_ruleset
from .engine import Game, new_game
from .gamelog import LogResult, Recorder
from .invariants import Checker
from .seats import parse_seat
from .workers import Pool, Task

CHUNK = 25  # matches a worker plays per task, at most: few enough that progress moves and work balances
AHEAD = 4  # chunks in flight per worker: keeps every worker busy without holding the whole run

Played = TypeVar("Played")  # what one match gives back: a `Match`, or what a run's own `play` returns
Handle = TypeVar("Handle")  # a chunk under way, as `in_order`'s `submit` returns it


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
    teams: tuple[tuple[int, ...], ...] = ()  # with a `teams` clause: each team's seats
    wins_by_team: tuple[int, ...] = ()  # matches each team won (tied teams each count a win)


@dataclass(frozen=True)
class Table:
    """What another process needs to play the matches of a run: the compiled ruleset's recipe.
    `key` names it, so that a worker compiles each table once however many chunks it plays."""

    model: m.Ruleset
    players: int
    params: tuple[tuple[str, int], ...]
    lang: str | None
    key: str

    @classmethod
    def of(cls, compiled: Compiled) -> Table:
        """The recipe of `compiled`: its language is the one whose faces it shows."""
        model = compiled.model
        lang = next((lang for lang in (None, *model.languages)
                     if tuple(card.face if lang is None else dict(card.names).get(lang, card.face)
                              for card in model.deck) == compiled.faces), None)
        recipe = (model, compiled.players, tuple(compiled.params.items()), lang)
        return cls(*recipe, hashlib.sha256(pickle.dumps(recipe)).hexdigest())

    def compile(self) -> Compiled:
        return compile_ruleset(self.model, self.players, dict(self.params), self.lang)


@dataclass(frozen=True)
class Match:
    """One played match, as small as it travels back from a worker: its figures, its log when
    asked (`moves`), and what checking it found when asked."""

    index: int  # 0-based, in the run
    seed: int  # the game's seed: with `moves`, it replays the match
    over: bool
    rounds: int
    plays: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reasons: tuple[str, ...]  # how each round ended
    moves: tuple[str, ...] | None = None  # the notation of every decision, when recorded
    checked_actions: int = 0
    failures: tuple[str, ...] = ()  # invariant failures, each naming the match by its 1-based number
    game: Game | None = field(default=None, compare=False, repr=False)  # the finished game, when played in this
    #                                                                     process (a game does not pickle)

    @property
    def result(self) -> LogResult | None:
        """The outcome as logs write it; None for a match that did not end."""
        return LogResult(self.totals, self.winners, self.rounds) if self.over else None


@dataclass(frozen=True)
class Chunk(Generic[Played]):
    """Matches `first`, `first + 1`, ... with their seeds: a worker's task."""

    first: int
    seeds: tuple[tuple[int, int], ...]  # (game seed, bots' seed) of each match
    seats: tuple[str, ...] | None
    record: bool
    check: bool
    max_actions: int | None
    play: Callable[[Compiled, int, int, int], Played] | None = None  # plays one match instead of `play_match`:
    #                                                                   (compiled, index, game seed, bots' seed)
    engine: str | None = None  # `engine.new_game`'s choice; None: the default


def seeds(seed: int) -> Iterator[tuple[int, int]]:
    """The (game seed, bots' seed) of match 0, 1, 2, ... of a run with this seed."""
    draw = random.Random(seed)
    while True:
        yield draw.getrandbits(64), draw.getrandbits(64)


def play_match(compiled: Compiled, index: int, game_seed: int, bot_seed: int, seats: tuple[str, ...] | None = None,
               record: bool = False, checker: Checker | None = None, keep_game: bool = False,
               engine: str | None = None) -> Match:
    """Play match `index` to its end: a function of the compiled ruleset, the seats, the index
    and the seeds alone. With `checker`, every action is checked and the match's failures carry
    its number; with `keep_game`, the match holds its finished game."""
    global playing
    game = new_game(compiled, game_seed, engine=engine)
    playing = index, game
    bots, moves = seat_bots(seats, compiled.players, bot_seed, record)
    checked = 0
    failures: tuple[str, ...] = ()
    if checker is None:
        play_out(game, bots)
    else:
        one = Checker(checker.max_actions, first_match=index)
        one.play_out(game, bots)
        checked, failures = one.checked_actions, tuple(one.failures)
    st = game.state
    return Match(index, game_seed, st.over, len(st.results), st.plays, tuple(st.totals), tuple(game.winners()),
                 tuple(r.reason for r in st.results), None if moves is None else tuple(moves), checked, failures,
                 game if keep_game else None)


playing: tuple[int, Game] | None = None  # the match this process plays (its index, its game), for a progress display


def seat_bots(seats: tuple[str, ...] | None, players: int, bot_seed: int,
              record: bool) -> tuple[list[Bot], list[str] | None]:
    """The bot of each seat, and the list the notation of every decision goes to when `record`.
    No `seats`: one random bot plays every seat from `bot_seed`, as self-play always has, so a
    seed gives the figures it gave; else each seat gets a bot of its kind (`bots.make_bot`) with a
    source of its own drawn from `bot_seed` and its number."""
    bots: list[Bot]
    if seats is None:
        bots = [RandomBot(random.Random(bot_seed))] * players
    else:
        bots = [make_bot(parse_seat(kind), random.Random(f"{bot_seed}:{seat}")) for seat, kind in enumerate(seats)]
    if not record:
        return bots, None
    moves: list[str] = []
    recorders = {id(bot): Recorder(bot) for bot in bots}  # a bot that plays several seats is written down once
    for recorder in recorders.values():
        recorder.moves = moves  # one list, in the order of the decisions, whichever seat makes them
    return [recorders[id(bot)] for bot in bots], moves


def play_chunk(compiled: Compiled, chunk: Chunk[Played], keep_games: bool = False) -> list[Played]:
    """The chunk's matches: `Match`es, or what the chunk's own `play` returns for each."""
    if chunk.play is not None:
        return [chunk.play(compiled, chunk.first + k, game_seed, bot_seed)
                for k, (game_seed, bot_seed) in enumerate(chunk.seeds)]
    checker = Checker(chunk.max_actions) if chunk.check else None
    played = [play_match(compiled, chunk.first + k, game_seed, bot_seed, chunk.seats, chunk.record, checker,
                         keep_games, chunk.engine) for k, (game_seed, bot_seed) in enumerate(chunk.seeds)]
    return cast("list[Played]", played)  # a chunk without `play` is a Chunk[Match]: `matches` makes it so


@overload
def matches(compiled: Compiled, games: int, seed: int, *, seats: tuple[str, ...] | None = None, record: bool = False,
            invariants: Checker | None = None, workers: int = 1, ray: str | None = None,
            play: None = None, engine: str | None = None) -> Generator[Match, None, None]: ...
@overload
def matches(compiled: Compiled, games: int, seed: int, *, seats: tuple[str, ...] | None = None, record: bool = False,
            invariants: Checker | None = None, workers: int = 1, ray: str | None = None,
            play: Callable[[Compiled, int, int, int], Played], engine: str | None = None
            ) -> Generator[Played, None, None]: ...
def matches(compiled: Compiled, games: int, seed: int, *, seats: tuple[str, ...] | None = None, record: bool = False,
            invariants: Checker | None = None, workers: int = 1, ray: str | None = None,
            play: Callable[[Compiled, int, int, int], Played] | None = None,
            engine: str | None = None) -> Generator[Played | Match, None, None]:
    """Play matches 0 .. games-1, in this process (`workers` 1), in a pool of `workers`
    processes, or on Ray (`ray`: a cluster's address, or "local" to start one here); yield them
    in match order whatever plays them, with their games when played in this process. Closing
    the iterator stops the workers. With `play` (a function that pickles: module-level, or a
    `functools.partial` of one), each match is `play(compiled, index, game_seed, bot_seed)` and
    its result is yielded."""
    size = max(1, min(CHUNK, games // (max(workers, 1) * AHEAD) or 1))
    pairs = itertools.islice(seeds(seed), games)
    max_actions = invariants.max_actions if invariants is not None else None
    chunks = (Chunk(first, tuple(itertools.islice(pairs, count)), seats, record, invariants is not None, max_actions,
                    play, engine)
              for first, count in _chunking(games, size, max(workers, 1)))
    if ray is not None:
        from . import distributed  # Ray is an optional extra: imported only when asked for

        yield from distributed.matches(Table.of(compiled), chunks, ray)
    elif workers <= 1 or games <= size:
        for chunk in chunks:
            yield from play_chunk(compiled, chunk, keep_games=True)
    else:
        yield from _pool(Table.of(compiled), chunks, min(workers, -(-games // size)), compiled, engine)


def _chunking(games: int, size: int, workers: int) -> Iterator[tuple[int, int]]:
    """(first match, matches) of each chunk: `size` while much is left, then smaller and smaller
    (a quarter of what is left per worker), so that the workers finish together rather than one
    playing a whole last chunk alone."""
    first = 0
    while first < games:
        count = max(1, min(size, (games - first) // (4 * workers)))
        yield first, count
        first += count


def _pool(table: Table, chunks: Iterable[Chunk[Played]], workers: int, compiled: Compiled,
          engine: str | None = None) -> Iterator[Played]:
    """The chunks played by this process and a pool of `workers - 1` more, yielded in order.
    This process plays a chunk itself whenever each worker has `AHEAD` chunks under way: it
    would only wait otherwise, and so it plays from the start, while the pool starts. Leaving
    (Ctrl-C, an error, the caller closing it) ends the workers at once; a worker that dies ends
    the run with `WorkerLost` in its chunk's turn (`workers.Pool`). Workers made by fork inherit
    `compiled` rather than compile the table again, and the engine's code generated for it
    (written here, once, not by every worker on its first match); the objects this process holds
    are frozen out of the garbage collector while they run, so that no collection touches (and
    copies) the pages the workers share with it."""
    inherited = multiprocessing.get_start_method() == "fork" and table.key not in _compiled
    if inherited:
        _compiled[table.key] = compiled
    new_game(compiled, deal=False, engine=engine)
    gc.freeze()
    most = 2 * workers * AHEAD
    pending: deque[Task[list[Played]] | _PlayedHere[Played]] = deque()  # each chunk's matches, in chunk order:
    #                                                                     a worker's to come, or played here
    play: Callable[[Chunk[Played]], list[Played]] = _play_in_worker  # of this run's `Played`
    try:
        with Pool(workers - 1, play, _start_worker, (table,)) as pool:
            for chunk in chunks:
                pending.append(pool.submit(chunk, AHEAD) or _PlayedHere(compiled, chunk))
                while pending and (pending[0].ready() or len(pending) >= most):  # memory stays flat
                    yield from pending.popleft().get()
            while pending:
                yield from pending.popleft().get()
    finally:
        gc.unfreeze()
        if inherited:
            del _compiled[table.key]


class _PlayedHere(Generic[Played]):
    """A chunk the parent of a pool played, as a worker's task reads: ready, and `get` gives
    its matches or raises what playing it raised, in its turn (an error of a later chunk does
    not overtake the matches before it)."""

    def __init__(self, compiled: Compiled, chunk: Chunk[Played]):
        self.matches: list[Played] = []
        self.error: Exception | None = None
        try:
            self.matches = play_chunk(compiled, chunk)
        except Exception as e:  # noqa: BLE001 - raised again in its turn, as a worker's error is
            self.error = e

    def ready(self) -> bool:
        return True

    def get(self) -> list[Played]:
        if self.error is not None:
            raise self.error
        return self.matches


def in_order(submit: Callable[[Chunk[Played]], Handle], wait: Callable[[Handle], list[Played]],
             chunks: Iterable[Chunk[Played]], ahead: int) -> Iterator[Played]:
    """Submit chunks while at most `ahead` are in flight; yield each chunk's matches in the
    order submitted. `submit(chunk)` returns a handle, `wait(handle)` its list of matches."""
    pending: deque[Handle] = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= ahead:
            yield from wait(pending.popleft())
    while pending:
        yield from wait(pending.popleft())


_compiled: dict[str, Compiled] = {}  # a worker's compiled tables, by key
_table: Table | None = None  # a pool worker's table, set when it starts


def compiled_here(table: Table) -> Compiled:
    """The table compiled in this process, once."""
    if table.key not in _compiled:
        _compiled[table.key] = table.compile()
    return _compiled[table.key]


def _start_worker(table: Table) -> None:
    global _table
    _table = table
    compiled_here(table)


def _play_in_worker(chunk: Chunk[Played]) -> list[Played]:
    assert _table is not None, "a pool worker gets its table when it starts (_start_worker)"
    return play_chunk(compiled_here(_table), chunk)


def run(compiled: Compiled, games: int, seed: int, progress: Callable[[int], None] | None = None,
        record: Callable[[Match], None] | None = None, invariants: Checker | None = None, *,
        seats: tuple[str, ...] | None = None, workers: int = 1, ray: str | None = None,
        tally: Tally | None = None, engine: str | None = None) -> Stats:
    """Play `games` matches, every seat a `RandomBot` (or a bot of the kind `seats` gives it);
    call `progress(done)` after each match.
    Raises `engine.EngineError` when the ruleset cannot go on (a round that cannot end).
    With `record`, each match's notation is kept and `record(match)` called, in match order
    (`match.game` is the finished game when this process played it: `workers` 1, no `ray`).
    With `invariants`, it plays every match and checks it after every action; a match that,
    once dealt, fails to end is one of its failures, not an error, and counts in the figures as
    it stands. `workers` and `ray` say who plays (see `matches`); the figures are the same.
    Each match is added to `tally` (a new one by default) after `record`: a run that is
    interrupted leaves the tally with the matches it finished, and at most one more log.
    `engine` picks the engine (`engine.new_game`; None: CARDRULES_ENGINE, else the fast one)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    tally = Tally(compiled, seats) if tally is None else tally
    start = time.perf_counter()
    played = matches(compiled, games, seed, seats=seats, record=record is not None, invariants=invariants,
                     workers=workers, ray=ray, engine=engine)
    try:
        for match in played:
            if record is not None:
                record(match)
            tally.add(match)
            if invariants is not None:
                invariants.add(match.checked_actions, match.failures)
            if progress is not None:
                progress(tally.games)
    finally:
        played.close()
    return tally.stats(seed, time.perf_counter() - start)


class Tally:
    """The figures of the matches played so far. A match is added in one step, so one that an
    interrupt (Ctrl-C) cuts short counts whole or not at all and `stats` may be read after it."""

    def __init__(self, compiled: Compiled, seats: tuple[str, ...] | None = None):
        self.players = compiled.players
        self.seats = tuple(seats) if seats else ("random",) * compiled.players
        self.reason_names = compiled.model.round_end_names
        self.teams = compiled.model.teams.at(compiled.players) if compiled.model.teams else ()
        self.team_of = compiled.team_of
        self.matches: list[tuple[int, int, int, tuple[int, ...], tuple[str, ...]]] = []

    @property
    def games(self) -> int:
        return len(self.matches)

    def add(self, match: Match) -> None:
        best = sum(match.totals[s] for s in self.team_of[match.winners[0]])  # the winning team's total
        self.matches.append((match.rounds, match.plays, best, match.winners, match.reasons))

    def stats(self, seed: int, wall: float) -> Stats:
        """The figures; at least one match must have been added."""
        wins = [0] * self.players
        reasons = {name: 0 for name in self.reason_names}
        for *_, winners, ends in self.matches:
            for s in winners:
                wins[s] += 1
            for reason in ends:
                reasons[reason] += 1
        rounds, moves, best = ([row[0] for row in self.matches], [row[1] for row in self.matches],
                               [row[2] for row in self.matches])
        return Stats(self.games, self.players, seed, wall, self.games / max(wall, 1e-9), *_mean_sd(rounds),
                     *_mean_sd(moves), *_mean_sd(best), tuple(wins), reasons, self.seats, self.teams,
                     self._team_wins())

    def _team_wins(self) -> tuple[int, ...]:
        """Matches each team won: a team wins when its seats do."""
        return tuple(sum(1 for *_, winners, _ in self.matches if team[0] in winners) for team in self.teams)


def _mean_sd(xs: list[int]) -> tuple[float, float]:
    """Mean and sample standard deviation (0.0 for a single value)."""
    return statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else 0.0
