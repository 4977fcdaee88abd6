"""`cardrules log ...`: commands on game logs. `log redact` writes what one seat saw of a match."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..interpreter import gamelog, redact as redacting
from ..interpreter.compile import Compiled, ConfigError, compile_ruleset
from ..interpreter.load import resolve
from .common import EXIT_USAGE, err, fail, load_or_exit, out

app = typer.Typer(help="Work with game logs: redact one for a seat.", no_args_is_help=True)

LOG_HINT = "a game log is the JSON file `cardrules play --log` writes, or a line of `cardrules selfplay --log`"


def writable_or_exit(path: Path, option: str) -> None:
    """Refuse, before any work, an output path that cannot be a file."""
    if path.is_dir() or not path.parent.is_dir():
        raise fail(f"{option}: '{path}' is a folder" if path.is_dir() else f"{option}: no folder '{path.parent}'",
                   "give a file in an existing folder", EXIT_USAGE)


def read_or_exit(log_file: str, game: int) -> gamelog.GameLog:
    """Game `game` of a log file; a game number the file lacks is a usage error."""
    try:
        return gamelog.read(log_file, game)
    except gamelog.NoSuchGame as e:
        raise fail(str(e), "--game counts the logs of a file from 1", EXIT_USAGE) from None
    except gamelog.LogError as e:
        raise fail(str(e), LOG_HINT) from None


def compiled_for(log: gamelog.GameLog, log_file: str) -> Compiled:
    """The log's ruleset (beside the log, or from here) compiled with the log's options; a changed
    ruleset is a warning, since the replay tells whether the moves still apply."""
    path = gamelog.ruleset_path(log, log_file)
    if not resolve(path).is_file():
        raise fail(f"{log_file}: its ruleset '{log.ruleset}' is found neither beside the log nor from here",
                   "run from the folder the game was played in, or edit the log's \"ruleset\"")
    loaded = load_or_exit(path)
    if gamelog.sha256_of(resolve(path)) != log.ruleset_sha256:
        err.print(f"warning: {path} has changed since the log was written (its sha256 differs); replaying anyway",
                  markup=False)
    try:
        return compile_ruleset(loaded.model, log.players, log.params)
    except ConfigError as e:
        raise fail(f"{log_file}: the log's options do not fit {path}: {e}") from None


@app.command("redact")
def redact(
    log_file: Annotated[str, typer.Argument(metavar="LOG", help="A game log: one match (play --log) or one a line "
                                            "(selfplay --log).", show_default=False)],
    seat: Annotated[int, typer.Option("--seat", "-s", metavar="N", help="The seat whose log to write (from 0).",
                                      show_default=False)],
    game: Annotated[int, typer.Option("--game", "-g", metavar="K", help="Which log of the file (from 1).")] = 1,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="OUT",
                                                   help="Write to this file; default: stdout.")] = None,
) -> None:
    """Write what seat N saw of a logged match, as JSON: each move, the seat's view after it, the
    result. No seed, no face of a card hidden from the seat; a card moved between two zones both
    hidden from it reads "?"."""
    if output is not None:
        writable_or_exit(output, "--output")
    log = read_or_exit(log_file, game)
    if not 0 <= seat < log.players:
        raise fail(f"--seat {seat}: the match in {log_file} has seats 0 to {log.players - 1}",
                   "seats count from 0", EXIT_USAGE)
    compiled = compiled_for(log, log_file)
    try:
        seat_log = redacting.redact(log, compiled, seat)
    except gamelog.ReplayError as e:
        raise fail(f"{log_file}: {e}", "the log was written with another ruleset or edited by hand"
                   if e.move else "the log's result was edited, or the ruleset changed") from None
    text = redacting.to_json(seat_log)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise fail(f"cannot write '{output}': {e.strerror or e}") from None
    out.print(f"the log of seat {seat} ({len(seat_log.moves)} moves) written to {output}", markup=False)
