"""`selfplay`: whole matches between random bots, and their statistics as a table or as JSON."""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..interpreter import gamelog, invariants, selfplay as selfplaying
from ..interpreter.bots import RandomBot
from ..interpreter.compile import Compiled
from ..interpreter.distributed import RayError
from ..interpreter.engine import EngineError
from ..interpreter.load import resolve, split_selection
from .common import (EXIT_FINDINGS, EXIT_USAGE, Edition, House, Variants, compile_or_exit, err, fail, load_or_exit, out,
                     parse_params)
from .logs import writable_or_exit

BAR_FROM = 200  # fewer games than this end too soon for a progress bar to help
SHOWN_FAILURES = 20  # invariant failures listed on stderr; --json lists them all


def selfplay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A .rules file, or the name of a shipped ruleset.",
                                        show_default=False)],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of seats, every one a random bot.",
                                         show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", help="Matches to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run: the same seed gives the same figures.")] = 1,
    param: Annotated[list[str] | None, typer.Option("--param", help="Set a ruleset param, NAME=NUMBER (repeatable).",
                                                    show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object, nothing else.")] = False,
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="Write the log of every match to FILE, one a line (JSON Lines); "
                                      "`cardrules replay FILE --game K` replays match K.", show_default=False)] = None,
    check_invariants: Annotated[bool, typer.Option(
        "--check-invariants", help="Check the engine's invariants after every action (much slower): every card "
                                   "in one place, views hide what they must, moves distinct and readable, every "
                                   "match ends. Failures are listed and exit 1.")] = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Processes that play the matches (default: one per core). The figures, logs and "
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
    """Play GAMES whole matches between random bots (each uniform among its distinct legal moves)
    and report rounds, moves (plays, not passes) and winning totals per match (mean and sample
    sd), wins by seat (tied winners each count a win) and how the rounds ended."""
    if games < 1:
        raise fail(f"--games must be at least 1, not {games}", "e.g. --games 100", EXIT_USAGE)
    if workers is not None and workers < 1:
        raise fail(f"--workers must be at least 1, not {workers}", "e.g. --workers 2", EXIT_USAGE)
    if log is not None:
        writable_or_exit(log, "--log")
    loaded = load_or_exit(file, edition, variant, house)
    compiled = compile_or_exit(loaded, players, parse_params(param))
    record = None if log is None else _logger(log, file, compiled)
    checker = invariants.Checker() if check_invariants else None
    who = {"workers": workers or os.cpu_count() or 1, "ray": ray}
    try:
        if as_json or games < BAR_FROM or not err.is_terminal:
            stats = selfplaying.run(compiled, games, seed, record=record, invariants=checker, **who)
        else:
            with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("", total=games)
                stats = selfplaying.run(compiled, games, seed, lambda done: bar.update(task, completed=done),
                                         record=record, invariants=checker, **who)
    except RayError as e:
        raise fail(str(e), "or play without --ray") from None
    except EngineError as e:
        raise fail(f"{loaded.model.file}: {e}",
                   "every round needs an `end round` condition that the play can reach") from None
    if as_json:
        figures = dataclasses.asdict(stats)
        if checker is not None:
            figures["invariants"] = {"checked_actions": checker.checked_actions, "failures": checker.failures}
        typer.echo(json.dumps(figures, indent=2))
    else:
        for table in _tables(stats, loaded.model.title):
            out.print(table)
        out.print(f"{stats.games_per_second:.1f} matches/s ({stats.wall_seconds:.2f} s)", markup=False)
        if log is not None:
            out.print(f"logs of the {games} matches written to {log}, one a line", markup=False)
        if checker is not None:
            _report(checker)
    if checker is not None and checker.failures:
        raise typer.Exit(EXIT_FINDINGS)


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


def _logger(path: Path, file: str, compiled: Compiled):
    """The `record` of `selfplaying.run` for `--log`: each match's log is appended to `path` as one
    line when the match ends, so the file holds every finished match even if a later one fails."""
    file = split_selection(file).path
    head = (file + compiled.model.selection, gamelog.sha256_of(resolve(file)), compiled.players, dict(compiled.params))
    seats = (RandomBot.kind,) * compiled.players

    def append(text: str, mode: str = "a") -> None:
        try:
            with path.open(mode, encoding="utf-8") as sink:
                sink.write(text)
        except OSError as e:
            raise fail(f"cannot write the log '{path}': {e.strerror or e}") from None

    def record(match: selfplaying.Match) -> None:
        append(gamelog.to_line(gamelog.GameLog(*head, match.seed, seats, match.moves, match.result)))

    append("", "w")
    return record


def _tables(s: selfplaying.Stats, title: str) -> list[Table]:
    per_match = Table(title=Text(f"{title}: {s.games} matches, {s.players} random bots, seed {s.seed}"),
                      title_justify="left")
    for column in ("per match", "mean", "sd"):
        per_match.add_column(column, justify="left" if column == "per match" else "right")
    for name, mean, sd in (("rounds", s.mean_rounds, s.sd_rounds), ("moves (plays, not passes)", s.mean_moves,
                           s.sd_moves), ("winning total", s.mean_winning_total, s.sd_winning_total)):
        per_match.add_row(name, f"{mean:.2f}", f"{sd:.2f}")
    wins = _counts("wins (ties: each winner)", "seat", dict(enumerate(s.wins_by_seat)), s.games)
    ends = _counts("round ends", "condition", s.round_end_reasons, sum(s.round_end_reasons.values()))
    return [per_match, wins, ends]


def _counts(title: str, what: str, counts: dict, whole: int) -> Table:
    table = Table(title=Text(title), title_justify="left")
    table.add_column(what)
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    for key, count in counts.items():
        table.add_row(Text(str(key)), str(count), f"{count / whole:.1%}" if whole else "-")
    return table
