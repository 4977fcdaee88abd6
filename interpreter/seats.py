"""Seat kinds as people write them: `human`, `random`, `greedy`, `greedy:16`, `ismcts`,
`ismcts:400` (iterations a decision), `ismcts:0.5s` (seconds a decision).

One parser for every place that takes seats (`play --seats`, `selfplay --seats`, the logs), so
that a kind reads the same everywhere and a log records each seat with its settings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

HUMAN = "human"
KINDS = (HUMAN, "random", "greedy", "ismcts")
# who sits at a seat nobody named: an opponent worth playing (random puts its best cards in your row)
DEFAULT_BOT = "ismcts"
GREEDY_SAMPLES = 8  # worlds a greedy decision looks at, by default
ISMCTS_ITERATIONS = 150  # iterations an ismcts decision runs by default with two seats (more with more:
# `ismcts.default_iterations`): under a second here
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0
EXAMPLE = "e.g. --seats human,ismcts or --seats ismcts:400,greedy,random,ismcts:0.5s"


class SeatError(ValueError):
    """A seat string that names no kind we have, or settings it does not take."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person or a bot, and the bot's budget (None: its default)."""

    kind: str
    iterations: int | None = None  # ismcts: iterations a decision; greedy: worlds a decision
    seconds: float | None = None  # ismcts: a time budget instead of iterations

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s"
        return self.kind if self.iterations is None else f"{self.kind}:{self.iterations}"

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN


_SETTING = re.compile(r"(\d+)$|(\d+)(?:\.(\d+))?s$")
SECONDS_PLACES = 3  # a time to the millisecond: a log prints it back exactly


def parse_seat(text: str) -> Seat:
    """One seat: KIND or KIND:SETTING; raise `SeatError` saying what is wrong."""
    kind, colon, setting = text.strip().lower().partition(":")
    if kind not in KINDS:
        raise SeatError(f"unknown kind '{text.strip()}'", f"each seat is one of: {', '.join(KINDS)}; {EXAMPLE}")
    if not colon:
        return Seat(kind)
    if kind in (HUMAN, "random"):
        raise SeatError(f"'{kind}' takes no settings: '{text.strip()}'", f"write {kind} alone")
    found = _SETTING.match(setting)
    if found is None or (kind == "greedy" and found.group(1) is None):
        takes = "a number of worlds, e.g. greedy:16" if kind == "greedy" else \
            "iterations (ismcts:400) or seconds (ismcts:0.5s)"
        raise SeatError(f"'{text.strip()}': bad setting '{setting}'", f"{kind} takes {takes}")
    digits, whole, places = found.groups()
    if digits is not None:
        # the length first: int() of thousands of digits is refused, and slow before that
        if len(digits.lstrip("0")) > len(str(MAX_ITERATIONS)) or not 1 <= int(digits) <= MAX_ITERATIONS:
            raise SeatError(f"'{text.strip()}': the count must be 1 to {MAX_ITERATIONS:,}", EXAMPLE)
        return Seat(kind, iterations=int(digits))
    if places is not None and len(places) > SECONDS_PLACES:
        raise SeatError(f"'{text.strip()}': a time is given to the thousandth of a second at most",
                        "e.g. ismcts:0.25s")
    seconds = float(f"{whole}.{places or 0}")
    if not 0 < seconds <= MAX_SECONDS:
        raise SeatError(f"'{text.strip()}': the time must be above 0 and at most {MAX_SECONDS:g} s", EXAMPLE)
    return Seat(kind, seconds=seconds)


def parse_seats(text: str) -> tuple[Seat, ...]:
    """A comma-separated list of seats."""
    parts = text.split(",")
    if any(not p.strip() for p in parts):
        raise SeatError(f"an empty seat in '{text}'", f"give one kind per seat, {EXAMPLE}")
    return tuple(parse_seat(p) for p in parts)
