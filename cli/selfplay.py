"""`selfplay`: whole matches between bots (random, or the seats given), and their statistics as a
table or as JSON."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..interpreter import gamelog, invariants, selfplay as selfplaying
from ..interpreter.compile import Compiled
from ..interpreter.engine import EngineError, Game
from ..interpreter.load import resolve, split_selection
from ..interpreter.seats import Seat
from .common import (EXIT_FINDINGS, EXIT_USAGE, Edition, House, Variants, compile_or_exit, err, fail, load_or_exit, out,
                     parse_params, seats_or_exit)
from .logs import writable_or_exit

BAR_FROM = 200  # fewer games than this end too soon for a progress bar to help
SHOWN_FAILURES = 20  # invariant failures listed on stderr; --json lists them all


def selfplay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A .rules file, or the name of a shipped ruleset.",
                                        show_default=False)],
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of seats (or give --seats).",
                                                show_default=False)] = None,
    seats: Annotated[str | None, typer.Option(
        "--seats", metavar="KIND,...", help="The bot at each seat, comma-separated: random, greedy, ismcts "
                                            "(ismcts:400 iterations, ismcts:0.5s a decision). Default: all random.",
        show_default=False)] = None,
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
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Play GAMES whole matches between bots (random by default: each uniform among its distinct
    legal moves) and report rounds, moves (plays, not passes) and winning totals per match (mean
    and sample sd), wins by seat (tied winners each count a win) and how the rounds ended."""
    if games < 1:
        raise fail(f"--games must be at least 1, not {games}", "e.g. --games 100", EXIT_USAGE)
    kinds = seats_or_exit(seats, players, bots_only=True)
    players = len(kinds) if kinds else players
    if players is None:
        raise fail("give --players N or --seats KIND,...", "e.g. --players 3, or --seats ismcts,random,random",
                   EXIT_USAGE)
    if log is not None:
        writable_or_exit(log, "--log")
    loaded = load_or_exit(file, edition, variant, house)
    compiled = compile_or_exit(loaded, players, parse_params(param))
    kinds = kinds or (Seat("random"),) * compiled.players
    record = None if log is None else _logger(log, file, compiled, kinds)
    checker = invariants.Checker() if check_invariants else None
    try:
        if as_json or games < BAR_FROM or not err.is_terminal:
            stats = selfplaying.run(compiled, games, seed, record=record, invariants=checker, seats=kinds)
        else:
            with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("", total=games)
                stats = selfplaying.run(compiled, games, seed, lambda done: bar.update(task, completed=done),
                                         record=record, invariants=checker, seats=kinds)
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


def _logger(path: Path, file: str, compiled: Compiled, kinds: tuple[Seat, ...]):
    """The `record` of `selfplaying.run` for `--log`: each match's log is appended to `path` as one
    line when the match ends, so the file holds every finished match even if a later one fails."""
    file = split_selection(file).path
    head = (file + compiled.model.selection, gamelog.sha256_of(resolve(file)), compiled.players, dict(compiled.params))
    seats = tuple(map(str, kinds))

    def append(text: str, mode: str = "a") -> None:
        try:
            with path.open(mode, encoding="utf-8") as sink:
                sink.write(text)
        except OSError as e:
            raise fail(f"cannot write the log '{path}': {e.strerror or e}") from None

    def record(game: Game, moves: list[str]) -> None:
        append(gamelog.to_line(gamelog.GameLog(*head, game.seed, seats, tuple(moves), gamelog.result_of(game))))

    append("", "w")
    return record


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
                                                          enumerate(zip(s.seats, s.wins_by_seat))}, s.games)
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
