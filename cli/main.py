"""The `cardrules` command: typer commands that parse arguments, call the interpreter and print.
No rules logic lives here."""
from __future__ import annotations

import os
import sys

import typer

from . import compare, house, inspect, logs, play, scenarios, selfplay

app = typer.Typer(
    name="cardrules",
    help="Card games written as data: check, play, self-play and export rulesets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
app.command("check")(inspect.check)
app.command("export")(inspect.export)
app.command("scenarios")(scenarios.scenarios)
app.command("play")(play.play)
app.command("replay")(play.replay)
app.command("selfplay")(selfplay.selfplay)
app.command("diff")(compare.diff)
app.add_typer(logs.app, name="log")
app.add_typer(house.app, name="house")


def main() -> None:
    """Entry point: a bug of ours ends in one line and exit 70, not a traceback, unless
    CARDRULES_DEBUG is set."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - the last guard; typer.Exit never reaches here
        if os.environ.get("CARDRULES_DEBUG"):
            raise
        sys.stderr.write(f"internal error: {type(e).__name__}: {e}\n"
                         "  hint: this is a bug in cardrules; run again with CARDRULES_DEBUG=1 for details\n")
        sys.exit(70)


if __name__ == "__main__":
    main()
