"""The `cardrules` command: typer commands that parse arguments, call the interpreter and print.
No rules logic lives here.

Each command lives in a module of its own, imported only when that command runs (`cardrules
check` never loads the YAML schemas, the REPL or the diff): a command's start-up time is its
own. `app`, with every command, is built on first use.
"""
from __future__ import annotations

import importlib
import os
import sys
from functools import cache

import typer

# command -> (module, attribute): a function for a command, a Typer for a group of them; in the
# order `cardrules --help` lists them
COMMANDS = {
    "check": ("inspect", "check"),
    "export": ("inspect", "export"),
    "scenarios": ("scenarios", "scenarios"),
    "play": ("play", "play"),
    "replay": ("play", "replay"),
    "resume": ("play", "resume"),
    "selfplay": ("selfplay", "selfplay"),
    "diff": ("compare", "diff"),
    "compare": ("measure", "compare"),
    "log": ("logs", "app"),
    "house": ("house", "app"),
    "book": ("book", "book"),
    "lsp": ("lsp", "lsp"),
}


def build(only: str | None = None) -> typer.Typer:
    """The command line with every command, or with only the command `only` when it names one."""
    app = typer.Typer(
        name="cardrules",
        help="Card games written as data: check, play, self-play and export rulesets.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
    )
    app.callback()(_group)  # a group even when it holds one command: `cardrules check FILE`, not `cardrules FILE`
    for name, (module, attribute) in COMMANDS.items():
        if only in COMMANDS and name != only:
            continue
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        if isinstance(command, typer.Typer):
            app.add_typer(command, name=name)
        else:
            app.command(name)(command)
    return app


def _group() -> None:
    pass


@cache
def _every_command() -> typer.Typer:
    return build()


def __getattr__(name: str):
    if name == "app":  # for tests and tools that drive the whole command line
        return _every_command()
    raise AttributeError(name)


def main() -> None:
    """Entry point: a bug of ours ends in one line and exit 70, not a traceback, unless
    CARDRULES_DEBUG is set."""
    try:
        build(sys.argv[1] if len(sys.argv) > 1 else None)()
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
