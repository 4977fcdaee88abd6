"""`cardrules serve`: play in browsers, each seat at its own link; the tables are kept on disk and
reopened when the server starts again (the server itself is in `cli/server/`)."""
from __future__ import annotations

import errno
import signal
import socket
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from ..interpreter.errors import EXIT_USAGE
from ..interpreter.load import split_selection
from ..interpreter.seats import HUMAN
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

if TYPE_CHECKING:  # the server needs the `serve` extra, so `serve` imports it only when run
    from .server.tables import Table

EXTRA = "pip install 'cardrules[serve]'"


def serve(
    spec: Annotated[str | None, typer.Argument(
        metavar="[SPEC]", help="A .rules file or a shipped ruleset's name (FILE@EDITION+VARIANT): open one table of "
                               "it. Without one, a lobby page makes tables of the shipped rulesets.",
        show_default=False)] = None,
    seats: Annotated[str | None, typer.Option(
        metavar="KIND,...", help="Who plays each seat of the table: human (a person, at a link of their own), or a "
                                 "bot: random, greedy, ismcts. Default: human, human.")] = None,
    host: Annotated[str, typer.Option(metavar="HOST", help="The address to listen on; 127.0.0.1 is this machine "
                                                           "only, 0.0.0.0 every network it is on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="P", min=0, max=65535, help="The port; 0 picks a free one.")] = 8000,
    seed: Annotated[int | None, typer.Option(
        metavar="SEED", callback=seed_in_range, help="Seed of the table's shuffles and bots (0 to 2^63-1), for a deal "
                                                          "to play again; default: a random one. Needs SPEC.",
        show_default=False)] = None,
    data: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Where the tables are kept (a journal each); default: cardrules/tables in the user's "
                            "data folder.", show_default=False)] = None,
    param: Annotated[list[str] | None, typer.Option(metavar="NAME=V", help="Set a ruleset param (repeatable).")] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Play in browsers: a link per person, each seeing only their own view.

    Bots play on the server. Stop it with Ctrl-C: the tables go on when it starts again."""
    try:
        import uvicorn

        from .server.app import MAX_FRAME, make_app
        from .server.tables import TableError, Tables, data_dir
    except ImportError as e:
        raise fail(f"serve needs the 'serve' extra ({e.name} is not installed)", EXTRA) from None
    folder = data if data is not None else data_dir()
    if folder.exists() and not folder.is_dir():
        raise fail(f"--data: '{folder}' is not a folder", "give a folder (it is made if missing)", EXIT_USAGE)
    tables = Tables(folder)
    table = None
    if spec is not None:
        seated = seats_or_exit(seats, None)
        named = [str(s) for s in seated] if seated else None
        if named is not None and HUMAN not in named:
            raise fail("--seats: no seat is a person's", "give one human seat at least, e.g. --seats human,ismcts",
                       EXIT_USAGE)
        loaded = load_or_exit(spec, edition, variant, house)
        compiled = compile_or_exit(loaded, len(named) if named else None, parse_params(param))
        kinds = named or [HUMAN] * compiled.players
        selection = split_selection(spec).path + loaded.model.selection
    elif seats is not None or seed is not None:
        what, example = ("--seats names the seats", "--seats human,human,ismcts") if seats is not None else (
            "--seed deals the cards", "--seed 7")
        raise fail(f"{what} of a table: give its ruleset too", f"e.g. cardrules serve RULESET {example} (`cardrules "
                   "list` names them); without a ruleset the lobby page sets up the tables", EXIT_USAGE)
    listener = _listen(host, port)
    base = f"http://{_shown(host)}:{listener.getsockname()[1]}"
    for table_id, why in tables.reopen():
        err.print(_("warning: table {id} in {folder} cannot be reopened: {why}")
                  .format(id=table_id, folder=folder, why=why),
                  markup=False)
    for old in tables.open.values():
        out.print(_("table {id} ({title}) reopened after {n} moves:")
                  .format(id=old.id, title=old.title, n=len(old.moves)),
                  markup=False)
        _links(old, base)
    if spec is not None:
        try:
            table = tables.create(compiled, selection, kinds, seed)
        except (TableError, OSError) as e:
            raise fail(f"cannot open the table: {e}", getattr(e, "hint", "")) from None
        out.print(_("{title}: {n} players ({kinds}), table {id}").format(title=table.title, n=len(kinds),
                  kinds=", ".join(kinds), id=table.id), markup=False)
        _links(table, base)
    else:
        out.print(_("lobby: {url}").format(url=f"{base}/"), markup=False)
    out.print(_("tables kept in {folder}; Ctrl-C stops the server, and they go on when it starts again").format(
        folder=folder), markup=False)
    config = uvicorn.Config(make_app(tables, lobby=spec is None), log_level="warning", ws_max_size=MAX_FRAME,
                            ws_ping_interval=10, ws_ping_timeout=10, limit_concurrency=1000, lifespan="on")
    stops = {s: signal.signal(s, _stopped) for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s}
    try:  # uvicorn shuts down on SIGINT and SIGTERM, then raises the signal again for its caller
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        for s, handler in stops.items():
            signal.signal(s, handler)
    unfinished = sum(not t.game.over for t in tables.open.values())
    out.print(_("server stopped; unfinished tables kept in {folder}: {n}").format(folder=folder, n=unfinished),
              markup=False)


def _stopped(signum: int, frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP, raised again by uvicorn once it has shut down: a stop like Ctrl-C."""
    raise KeyboardInterrupt


def _links(table: Table, base: str) -> None:
    for seat, token in sorted(table.tokens.items()):
        out.print(_("seat {seat}: {url}").format(seat=seat, url=f"{base}/t/{table.id}/{seat}#{token}"), markup=False,
                  soft_wrap=True)


def _shown(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed: a port in use is said at once."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as e:
        listener.close()
        busy = e.errno == errno.EADDRINUSE
        raise fail(f"--host {host} --port {port}: " + ("the port is in use" if busy else (e.strerror or str(e))),
                   "give another --port (0 picks a free one)" if busy else "give an address of this machine",
                   EXIT_USAGE) from None
    listener.listen(128)
    return listener
