"""The `cardrules` command: typer commands that parse arguments, call the interpreter and print.
No rules logic lives here.

Each command lives in a module of its own, imported only when that command runs (`cardrules
check` never loads the YAML schemas, the REPL or the diff): a command's start-up time is its
own. `app`, with every command, is built on first use.
"""
from __future__ import annotations

import errno
import importlib
import inspect
import io
import os
import re
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ..interpreter.errors import EXIT_FINDINGS, CardrulesError, clip

if TYPE_CHECKING:  # typer 0.2x's own copy of click; an older typer uses click itself
    from typer._click import Context, Parameter
    from typer.core import _TyperParameter

try:  # typer 0.2x coerces each value through a pydantic TypeAdapter, built on first use
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # an older typer coerces through click's types, without pydantic
    LAZY_COERCION = False
else:
    LAZY_COERCION = True

# command -> (module, attribute): a function for a command, a Typer for a group of them; in the
# order `cardrules --help` lists them
COMMANDS = {
    "list": ("catalog", "list_rulesets"),
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
    "serve": ("serve", "serve"),
}


def build(only: str | None = None) -> typer.Typer:
    """The command line with every command, or with only the command `only` when it names one."""
    app = typer.Typer(
        name="cardrules",
        help="Card games written as data: check, play, measure and compare rulesets.",
        cls=_Group,
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
            for info in command.registered_commands:
                info.cls, info.help = _Command, _reflowed(info.callback.__doc__)
            app.add_typer(command, name=name, cls=_Group)
        else:
            app.command(name, cls=_Command, help=_reflowed(command.__doc__))(command)
    return app


def _group() -> None:
    pass


def _reflowed(doc: str | None) -> str:
    """A docstring with each paragraph on one line, so that rich wraps it at the terminal's width
    (in rich markup mode typer keeps the source's line breaks). Its first paragraph is the
    one-line summary listed under Commands. A paragraph of indented or listed lines keeps its
    breaks."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(
        paragraph
        if any(line[:1] in (" ", "-", "*") for line in paragraph.splitlines())
        else " ".join(paragraph.split())
        for paragraph in paragraphs
    )


def _without_types(params: list[Parameter]) -> list[Parameter]:
    """Parameters as the help should name them: `--json`, not `--json <bool>`, and `FILE`, not
    `FILE <str>` (typer writes a Python type beside every flag and argument). Options that take a
    value keep their metavar (`--games GAMES`). Values are coerced lazily (`_Plain`)."""
    for param in params:
        _coerced_lazily(param)
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        elif isinstance(param, TyperArgument) and param.metavar is not None:
            param.__class__ = _NamedArgument
    return params


if LAZY_COERCION:
    class _Plain(RuntimeParam):
        """Typer's coercion of a parameter, built only for a value that needs it. Typer builds a
        pydantic TypeAdapter for each parameter it reads, and importing pydantic and building
        the adapters is a fifth of `cardrules check`; but the command line gives text, flags and
        plain numbers as they should be, and a default that is None needs no coercion."""

        def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Context) -> Any:  # typer's signature
            kind, ranged = self.annotation, param.type_descriptor.is_ranged
            if kind == list[str] and isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
                return list(value)
            if kind in (str, bool) and isinstance(value, kind):
                return value
            if kind is int and not ranged and type(value) is int:
                return value
            if kind is int and not ranged and isinstance(value, str) and _DECIMAL.fullmatch(value):
                return int(value)
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


_DECIMAL = re.compile(r"-?[0-9]{1,18}")


def _coerced_lazily(param: Parameter) -> None:
    """Give a typer parameter `_Plain` coercion."""
    if LAZY_COERCION and isinstance(param, TyperArgument | TyperOption) and param._runtime_param is None:
        descriptor = param.type_descriptor
        param._runtime_param = _Plain(descriptor.parameter_info, descriptor.annotation)


class _NamedArgument(TyperArgument):
    def display_type_rich(self, ctx: Context) -> str | None:
        return None


class _Command(TyperCommand):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _without_types(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _without_types(super().get_params(ctx))


@cache
def _every_command() -> typer.Typer:
    return build()


def __getattr__(name: str) -> typer.Typer:
    if name == "app":  # for tests and tools that drive the whole command line
        return _every_command()
    raise AttributeError(name)


def main() -> None:
    """Entry point. An error of the input (`CardrulesError`) ends in its message and exit 1 or 2;
    output that cannot be written (`> /dev/full`, a closed pipe) in one line or quietly; only a
    bug of ours ends in "internal error" and exit 70, with a traceback if CARDRULES_DEBUG is set."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"), (sys.stdin, "replace")):
        if isinstance(stream, io.TextIOWrapper):  # a terminal that cannot show a character gets an escape
            stream.reconfigure(errors=errors)
    try:
        try:
            build(sys.argv[1] if len(sys.argv) > 1 else None)()
        finally:
            if not sys.stdout.closed:  # a command that owned stdout (the language server) may close it
                sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except CardrulesError as e:
        from .common import err

        err.print(e.render())
        sys.exit(e.exit_code)
    except BrokenPipeError:  # the reader went away (`| head -1`): stop quietly, as Unix tools do
        _silence_stdout()
        sys.exit(EXIT_FINDINGS)
    except OSError as e:
        if e.errno not in OUTPUT_ERRNOS or os.environ.get("CARDRULES_DEBUG"):
            _internal(e)
        _silence_stdout()
        sys.stderr.write(f"error: cannot write the output: {e.strerror or e}\n")
        sys.exit(EXIT_FINDINGS)
    except Exception as e:  # noqa: BLE001 - the last guard; typer.Exit never reaches here
        _internal(e)


OUTPUT_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EPIPE, errno.EBADF, errno.EFBIG, errno.EDQUOT}


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _internal(e: Exception) -> None:
    if os.environ.get("CARDRULES_DEBUG"):
        raise e
    sys.stderr.write(
        f"internal error: {type(e).__name__}: {clip(str(e), 200)}\n"
        "  hint: this is a bug in cardrules; run again with CARDRULES_DEBUG=1 for details\n"
    )
    sys.exit(70)


if __name__ == "__main__":
    main()
