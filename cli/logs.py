"""`cardrules log ...`: commands on game logs. `log redact` writes what one seat saw of a match."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from ..interpreter import gamelog, outputs
from ..interpreter import redact as redacting
from ..interpreter.errors import EXIT_USAGE
from ..interpreter.files import exists, is_folder, is_regular_file
from .common import compile_log_ruleset, echo, fail, out

app = typer.Typer(help="Work with game logs: redact one for a seat.", no_args_is_help=True)

LOG_HINT = ("a game log is the journal `cardrules play --log` writes, or a line of `cardrules selfplay --log` "
            "(docs/logs.md)")


def writable_or_exit(path: Path, option: str, inputs: Iterable[str | Path | None] = ()) -> None:
    """Refuse, before any work, an output path that cannot be a regular file (a FIFO with no
    reader blocks the writer for ever), or that is one of the command's `inputs` (also through
    a link): usage errors."""
    if is_folder(path) or not is_folder(path.parent):
        raise fail(f"{option}: '{path}' is a folder" if is_folder(path) else f"{option}: no folder '{path.parent}'",
                   "give a file in an existing folder", EXIT_USAGE)
    no_special_file(path, option)
    not_an_input_or_exit(path, option, inputs)


def no_special_file(path: Path, option: str) -> None:
    """Refuse an output path that is a FIFO, socket or device: it would block or swallow the file."""
    if exists(path) and not is_folder(path) and not is_regular_file(path):
        raise fail(f"{option}: '{path}' is not a regular file (a FIFO, a device or a socket)",
                   "give a file in an existing folder", EXIT_USAGE)


def not_an_input_or_exit(path: Path, option: str, inputs: Iterable[str | Path | None]) -> None:
    """Refuse an output that is one of the command's `inputs`, also through a link: a usage error."""
    try:
        outputs.refuse_inputs(path, inputs, option)
    except outputs.WriteRefused as e:
        raise fail(e.message, e.hint, EXIT_USAGE) from None


def write_or_exit(path: Path, text: str) -> None:
    """Write `text` as the whole file `path`, which appears only once complete."""
    try:
        outputs.write_whole(path, text)
    except outputs.WriteRefused as e:
        raise fail(e.message, e.hint) from None
    except IsADirectoryError:
        raise fail(f"cannot write '{path}': it is a directory", "give a file name") from None
    except OSError as e:
        raise fail(f"cannot write '{path}': {e.strerror or e}",
                   "check that its folder exists and is writable") from None


def read_or_exit(log_file: str, game: int) -> gamelog.GameLog:
    """Game `game` of a log file; a game number the file lacks is a usage error."""
    try:
        return gamelog.read(log_file, game)
    except gamelog.NoSuchGame as e:
        raise fail(str(e), "--game counts the logs of a file from 1", EXIT_USAGE) from None
    except gamelog.LogError as e:
        raise fail(str(e), LOG_HINT) from None


@app.command("redact")
def redact(
    log_file: Annotated[str, typer.Argument(metavar="LOG", help="A game log: one match (play --log) or one a line "
                                            "(selfplay --log).", show_default=False)],
    seat: Annotated[int, typer.Option("--seat", "-s", metavar="N", help="The seat whose log to write (from 0).",
                                      show_default=False)],
    game: Annotated[int, typer.Option("--game", "-g", metavar="K", help="Which log of the file (from 1).")] = 1,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="OUT",
                                                   help="Write to this file; default: stdout.")] = None,
) -> None:
    """Write what one seat saw of a logged match.

    What seat N saw is written as JSON: each move, the seat's view after it, the
    result. No seed, no face of a card hidden from the seat; a card moved between two zones both
    hidden from it reads "?"."""
    if output is not None:
        writable_or_exit(output, "--output", [log_file])
    log = read_or_exit(log_file, game)
    if not 0 <= seat < log.players:
        raise fail(f"--seat {seat}: the match in {log_file} has seats 0 to {log.players - 1}",
                   "seats count from 0", EXIT_USAGE)
    compiled = compile_log_ruleset(log, log_file)
    try:
        seat_log = redacting.redact(log, compiled, seat)
    except gamelog.ReplayError as e:
        raise fail(f"{log_file}: {e}", f"{'the move' if e.move else 'the result'} is at "
                   f"{gamelog.where_move(log_file, game, e.move)}; " + ("the log was written with another ruleset or "
                   "edited by hand" if e.move else "the log's result was edited, or the ruleset changed")) from None
    text = redacting.to_json(seat_log)
    if output is None:
        echo(text, nl=False, is_json=True)
        return
    write_or_exit(output, text)
    out.print(f"the log of seat {seat} ({len(seat_log.moves)} moves) written to {output}", markup=False)
