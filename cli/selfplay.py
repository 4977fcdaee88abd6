"""`selfplay`: whole matches between bots (random, or the seats given), and their statistics as a
table or as JSON."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Annotated, TypedDict

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..interpreter import gamelog, invariants, outputs
from ..interpreter import selfplay as selfplaying
from ..interpreter.compile import Compiled
from ..interpreter.distributed import RayError
from ..interpreter.engine import EngineError
from ..interpreter.errors import EXIT_FINDINGS, EXIT_USAGE
from ..interpreter.load import resolve, split_selection
from ..interpreter.workers import WorkerLost
from .common import (
    Edition,
    House,
    Variants,
    compile_or_exit,
    err,
    fail,
    load_or_exit,
    out,
    parse_params,
    seats_or_exit,
    seed_in_range,
)
from .i18n import _
from .logs import writable_or_exit

BAR_FROM = 200  # fewer games than this end too soon for a progress bar to help
SHOWN_FAILURES = 20  # invariant failures listed on stderr; --json lists them all
MAX_GAMES = 1_000_000  # a run longer than this is better split: each run reports as it ends


def selfplay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A .rules file, or the name of a shipped ruleset.",
                                        show_default=False)],
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N",
                                                help="Number of seats (or give --seats).",
                                                show_default=False)] = None,
    seats: Annotated[str | None, typer.Option(
        "--seats", metavar="KIND,...", help="The bot at each seat, comma-separated: random, greedy, ismcts "
                                            "(ismcts:400 iterations, ismcts:0.5s a decision). Default: all random.",
        show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", "-g", metavar="GAMES", help="Matches to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="SEED", callback=seed_in_range,
                                              help="Seed of the run (0 to 2^63-1): the same seed gives the same "
                                                   "figures.")] = 1,
    param: Annotated[list[str] | None, typer.Option("--param", metavar="NAME=NUMBER",
                                                    help="Set a ruleset param, NAME=NUMBER (repeatable).",
                                                    show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json",
                                          help="Print the figures as one JSON object, nothing else.")] = False,
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="Write the log of every match to FILE, one a line (JSON Lines); "
                                      "`cardrules replay FILE --game K` replays match K. The file appears once the run "
                                      "is over (Ctrl-C: with the matches finished).", show_default=False)] = None,
    check_invariants: Annotated[bool, typer.Option(
        "--check-invariants", help="Check the engine's invariants after every action (much slower): every card "
                                   "in one place, views hide what they must, moves distinct and readable, every "
                                   "match ends. Failures are listed and exit 1.")] = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", metavar="N",
        help="Processes that play the matches (default: one per core). The figures, logs and "
                                "failures are the same whatever the number.", show_default=False)] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="Play on a Ray cluster: ADDRESS is host:port, auto (the cluster this machine belongs to) or local (a Ray "
             "started here for the run). Needs pip install 'cardrules\\[ray]'; the figures are the same.",
        show_default=False)] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Play matches between bots and report what happened in them.

    GAMES whole matches are played between bots (random by default: each uniform among its distinct
    legal moves). The report gives rounds, moves (plays, not passes) and winning totals per match (mean
    and sample sd), wins by seat (tied winners each count a win) and how the rounds ended."""
    if not 1 <= games <= MAX_GAMES:
        raise fail(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}", "e.g. --games 100; for more, "
                   "run several times with other seeds", EXIT_USAGE)
    if workers is not None and workers < 1:
        raise fail(f"--workers must be at least 1, not {workers}", "e.g. --workers 2", EXIT_USAGE)
    kinds = seats_or_exit(seats, players, bots_only=True)
    players = len(kinds) if kinds else players
    if players is None:
        raise fail("give --players N or --seats KIND,...", "e.g. --players 3, or --seats ismcts,random,random",
                   EXIT_USAGE)
    spec = split_selection(file)
    if log is not None:
        writable_or_exit(log, "--log", [resolve(spec.path), house or spec.house])
    loaded = load_or_exit(file, edition, variant, house)
    compiled = compile_or_exit(loaded, players, parse_params(param))
    checker = invariants.Checker() if check_invariants else None
    named = None if kinds is None else tuple(map(str, kinds))
    who: _Who = {"workers": workers or os.cpu_count() or 1, "ray": ray, "seats": named}
    tally = selfplaying.Tally(compiled, named)
    start = time.perf_counter()
    stopped = None  # the EngineError or WorkerLost that ended the run: the matches finished before it are
    #                 reported and logged
    with contextlib.suppress(EngineError, WorkerLost), contextlib.ExitStack() as stack:
        logger = None if log is None else _Logger(stack.enter_context(_whole_file(log)), spec.path, compiled,
                                                  tally.seats)
        try:
            interrupted = _run(compiled, games, seed, None if logger is None else logger.record, checker, tally, who,
                               bar=not as_json and games >= BAR_FROM)
        except RayError as e:
            raise fail(str(e), "or play without --ray") from None
        except (EngineError, WorkerLost) as e:
            stopped = e
            if not tally.games:
                raise  # no log to keep: the file is not written
        if logger is not None:
            logger.keep(tally.games)
    if stopped is not None:
        kept = f" (the logs of the {tally.games:,} matches finished before are in {log})" if log and tally.games else ""
        if isinstance(stopped, WorkerLost):
            raise fail(f"{stopped}{kept}", stopped.hint)
        raise fail(f"{loaded.model.file}: a match cannot go on: {stopped}{kept}", stopped.hint)
    if interrupted:
        err.print(f"interrupted: {tally.games:,} of {games:,} matches finished", markup=False)
        if tally.games == 0:
            raise typer.Exit(130)
    stats = tally.stats(seed, time.perf_counter() - start)
    if as_json:
        figures = dataclasses.asdict(stats)
        if not stats.teams:  # a game without teams has no team figures
            del figures["teams"], figures["wins_by_team"]
        if checker is not None:
            figures["invariants"] = {"checked_actions": checker.checked_actions, "failures": checker.failures}
        typer.echo(json.dumps(figures, indent=2))
    else:
        for table in _tables(stats, loaded.model.title):
            out.print(table)
        out.print(f"{stats.games_per_second:.1f} matches/s ({stats.wall_seconds:.2f} s)", markup=False)
        if log is not None:
            out.print(f"logs of the {stats.games} matches written to {log}, one a line", markup=False)
        if checker is not None:
            _report(checker)
    if interrupted:
        raise typer.Exit(130)
    if checker is not None and checker.failures:
        raise typer.Exit(EXIT_FINDINGS)


class _Who(TypedDict):
    """Who plays the matches: `selfplaying.run`'s arguments of that name."""

    workers: int
    ray: str | None
    seats: tuple[str, ...] | None


def _run(compiled: Compiled, games: int, seed: int, record: Callable[[selfplaying.Match], None] | None,
         checker: invariants.Checker | None, tally: selfplaying.Tally, who: _Who, bar: bool) -> bool:
    """Play the run into `tally`, showing progress once it takes more than a second; True when
    Ctrl-C stopped it (the matches finished so far stay in the tally and the log)."""
    try:
        if bar and err.is_terminal:
            with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as shown:
                task = shown.add_task("", total=games)
                selfplaying.run(compiled, games, seed, lambda done: shown.update(task, completed=done),
                                record=record, invariants=checker, tally=tally, **who)
        else:
            with _Ticker(tally, games):
                selfplaying.run(compiled, games, seed, record=record, invariants=checker, tally=tally, **who)
    except KeyboardInterrupt:
        return True
    return False


class _Ticker(threading.Thread):
    """Where a run is, on stderr, once it has taken more than a second: the matches done and, when
    this process plays it, the round and plays of the one under way (a long single match shows it
    is alive). A line that updates itself on a terminal, else a line every LINE_EVERY seconds."""

    LINE_EVERY = 10.0

    def __init__(self, tally: selfplaying.Tally, games: int):
        super().__init__(daemon=True)
        self.tally, self.games = tally, games
        self.start_time = time.perf_counter()
        self.done = threading.Event()

    def __enter__(self) -> _Ticker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.join()

    def text(self) -> str:
        index, game = selfplaying.playing or (-1, None)  # shown when it is the next match to count
        where = "" if game is None or game.over or index != self.tally.games else (
            f"; match {index + 1}: round {game.state.round + 1}, {game.state.plays:,} plays")
        return (f"self-play: {self.tally.games:,} of {self.games:,} matches{where} "
                f"({time.perf_counter() - self.start_time:.0f} s)")

    def run(self) -> None:
        if self.done.wait(1.0):
            return
        if not err.is_terminal:
            err.print(self.text(), markup=False)
            while not self.done.wait(self.LINE_EVERY):
                err.print(self.text(), markup=False)
            return
        with err.status(self.text()) as status:
            while not self.done.wait(0.25):
                status.update(self.text())


@contextlib.contextmanager
def _whole_file(path: Path) -> Iterator[IO[str]]:
    """The log file, whole or not at all (see `outputs.whole_file`), or exit with why not."""
    try:
        with outputs.whole_file(path) as sink:
            yield sink
    except outputs.WriteRefused as e:
        raise fail(e.message, e.hint) from None
    except OSError as e:
        raise fail(f"cannot write the log '{path}': {e.strerror or e}") from None


def _report(checker: invariants.Checker) -> None:
    """The invariants' outcome, on stderr: a line when all hold, else the first failures."""
    done = f"{checker.matches} matches, {checker.checked_actions:,} actions checked"
    if not checker.failures:
        err.print(f"invariants: all hold ({done})", markup=False)
        return
    err.print(f"invariants: {len(checker.failures)} failures ({done}):", markup=False)
    for failure in checker.failures[:SHOWN_FAILURES]:
        err.print(f"  {failure}", markup=False)
    if len(checker.failures) > SHOWN_FAILURES:
        err.print(f"  ... and {len(checker.failures) - SHOWN_FAILURES} more (--json lists them all)", markup=False)


class _Logger:
    """The `record` of `selfplaying.run` for `--log`: each match's log is written to `sink` as one
    line, in match order; the file appears under its name once the run is over."""

    def __init__(self, sink: IO[str], file: str, compiled: Compiled, seats: tuple[str, ...]):
        self.sink, self.written, self.last = sink, 0, 0
        self.head = (file + compiled.model.selection, gamelog.sha256_of(resolve(file)), compiled.players,
                     dict(compiled.params))
        self.seats = seats

    def record(self, match: selfplaying.Match) -> None:
        assert match.moves is not None, "a run that records keeps each match's moves"
        line = gamelog.to_line(gamelog.GameLog(*self.head, match.seed, self.seats, match.moves, match.result))
        self.last = self.sink.tell()
        self.sink.write(line)
        self.written += 1

    def keep(self, matches: int) -> None:
        """Keep the logs of the first `matches` matches: a run interrupted after a match's log was
        written and before it was counted has one log too many."""
        if self.written > matches:
            self.sink.seek(self.last)
            self.sink.truncate()
            self.written = matches


def _tables(s: selfplaying.Stats, title: str) -> list[Table]:
    bots = f"{s.players} random bots" if set(s.seats) == {"random"} else ", ".join(s.seats)
    per_match = Table(title=Text(f"{title}: {s.games} matches, {bots}, seed {s.seed}"),
                      title_justify="left")
    for column in ("per match", "mean", "sd"):
        per_match.add_column(column, justify="left" if column == "per match" else "right")
    for name, mean, sd in (("rounds", s.mean_rounds, s.sd_rounds), ("moves (plays, not passes)", s.mean_moves,
                           s.sd_moves), ("winning total", s.mean_winning_total, s.sd_winning_total)):
        per_match.add_row(name, f"{mean:.2f}", f"{sd:.2f}")
    wins = _counts("wins (ties: each winner)", "seat", {f"{k} {kind}": w for k, (kind, w) in
                                                          enumerate(zip(s.seats, s.wins_by_seat, strict=True))},
                   s.games)
    ends = _counts("round ends", "condition", s.round_end_reasons, sum(s.round_end_reasons.values()))
    return [per_match, wins, *_team_tables(s), ends]


def _team_tables(s: selfplaying.Stats) -> list[Table]:
    """The teams' wins, for a ruleset with teams: a team wins when its seats do."""
    if not s.teams:
        return []
    return [
        _counts(
            _("wins by team (ties: each team)"),
            _("team"),
            {"+".join(map(str, team)): w for team, w in zip(s.teams, s.wins_by_team, strict=True)},
            s.games,
        )
    ]


def _counts(title: str, what: str, counts: Mapping[str, int], whole: int) -> Table:
    table = Table(title=Text(title), title_justify="left")
    table.add_column(what)
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    for key, count in counts.items():
        table.add_row(Text(str(key)), str(count), f"{count / whole:.1%}" if whole else "-")
    return table
