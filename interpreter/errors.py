"""The one root of every error a user's input can cause.

Each error of the package (a ruleset that does not check, a log that cannot be read, a move
that cannot be played, a match that cannot go on ...) is a `CardrulesError`, so that the
command line catches them all in one place and prints `render()`; anything else that reaches
it is a bug of ours. Like lark's `ConfigurationError(LarkError, ValueError)`, a subclass may
also be a `ValueError` or `LookupError` where callers already catch those.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

EXIT_FINDINGS = 1  # bad input, or findings such as a failed scenario
EXIT_USAGE = 2  # the command line itself is wrong


class CardrulesError(Exception):
    """An error of the input, not of the program: it says what is wrong (`message`), what to do
    (`hint`) and, when it can, where (`location`: `file`, `file:line` or `file:line:col`)."""

    exit_code = EXIT_FINDINGS

    def __init__(self, message: str = "", hint: str = "", location: str = ""):
        super().__init__(message)
        self.message, self.hint, self.location = message, hint, location

    def __reduce__(self) -> tuple[Callable[..., CardrulesError], tuple[Any, ...]]:
        """Pickled as its class and attributes, whatever its constructor takes: an error raised
        in a worker process comes back whole to the pool (which would otherwise die trying to
        call `RulesError(message)`)."""
        return _restore, (type(self), self.args, self.__dict__)

    def render(self) -> str:
        """`location: error: message` and the hint on its own line, as the command line prints it."""
        head = f"{self.location}: error: {self.message}" if self.location else f"error: {self}"
        return head + (f"\n  hint: {self.hint}" if self.hint else "")


def _restore(cls: type[CardrulesError], args: tuple[Any, ...], attributes: dict[str, Any]) -> CardrulesError:
    error: CardrulesError = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(attributes)
    return error


def clip(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters with an ellipsis: a message quotes a value, never all of
    a huge one."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
