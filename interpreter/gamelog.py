"""Game logs: a ruleset, its options, a seed and the notation of every decision, as JSON.

A seed and the moves replay a match exactly (the engine owns all chance; bots draw on their own
random source), so a log needs nothing else. The writer is strict; the reader checks every key
and says where a broken log goes wrong; `replay` says at which move a log stops applying.
A file holds one log (pretty JSON, as `play --log` writes) or many, one a line (JSON Lines, as
`selfplay --log` writes); the reader tells them apart by whether the first line is JSON by itself.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .compile import Compiled
from .engine import EngineError, Game
from .notation import MoveError

FORMAT = "cardrules-log/1"


class LogError(ValueError):
    """A log that cannot be read: its message names the file and, when it can, line:col."""


class NoSuchGame(LogError):
    """A game number that the file does not hold."""


class ReplayError(ValueError):
    """A log whose moves (or result) the ruleset does not reproduce. `move` is 1-based, 0 when the
    moves all applied and the recorded result differs."""

    def __init__(self, message: str, move: int = 0, text: str = "", seat: int | None = None, reason: str = ""):
        super().__init__(message)
        self.move, self.text, self.seat, self.reason = move, text, seat, reason


@dataclass(frozen=True)
class LogResult:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int


@dataclass(frozen=True)
class GameLog:
    ruleset: str  # the path as the player gave it
    ruleset_sha256: str
    players: int
    params: dict[str, int]
    seed: int
    seats: tuple[str, ...]  # "human" or a bot's kind, per seat
    moves: tuple[str, ...]  # the notation of every decision, in order
    result: LogResult | None = None  # None: the match did not finish


def sha256_of(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def ruleset_path(log: GameLog, log_file: str | Path) -> str:
    """Where to find the log's ruleset: beside the log file when it names a file there, else as it
    was given (a path from here, or the name of a shipped ruleset)."""
    given = Path(log.ruleset)
    beside = Path(log_file).parent / given
    return str(beside) if not given.is_absolute() and beside.is_file() else log.ruleset


class Recorder:
    """Writes down the notation of each choice of the bots it stands in for, in the order made,
    so that only the matches that are logged pay for the notation."""

    def __init__(self, bots: list):
        self.bots = bots
        self.moves: list[str] = []

    def seats(self) -> list:
        """One stand-in per seat, each choosing as its bot does."""
        return [_Recording(bot, self.moves) for bot in self.bots]


class _Recording:
    def __init__(self, bot, moves: list[str]):
        self.bot, self.kind, self.moves = bot, bot.kind, moves
        self.observes = getattr(bot, "observes", False)

    def choose(self, seen) -> tuple:
        action = self.bot.choose(seen)
        self.moves.append(str(seen.move_of(action)))
        return action


def result_of(game: Game) -> LogResult | None:
    """The outcome of a finished match, or None while it goes on."""
    if not game.over:
        return None
    return LogResult(tuple(game.state.totals), tuple(game.winners()), len(game.state.results))


def result_record(result: LogResult | None) -> dict | None:
    """A result as the logs write it."""
    return None if result is None else {
        "totals": list(result.totals), "winners": list(result.winners), "rounds": result.rounds}


def _record(log: GameLog) -> dict:
    return {
        "format": FORMAT, "ruleset": log.ruleset, "ruleset_sha256": log.ruleset_sha256, "players": log.players,
        "params": dict(log.params), "seed": log.seed, "seats": list(log.seats), "moves": list(log.moves),
        "result": result_record(log.result),
    }


def to_json(log: GameLog) -> str:
    return json.dumps(_record(log), indent=2, ensure_ascii=False) + "\n"


def to_line(log: GameLog) -> str:
    """The log as one line of a JSON Lines file of many logs."""
    return json.dumps(_record(log), ensure_ascii=False, separators=(",", ":")) + "\n"


def write(log: GameLog, path: str | Path) -> None:
    Path(path).write_text(to_json(log), encoding="utf-8")


def read(path: str | Path, game: int = 1) -> GameLog:
    """Read and check log number `game` (1-based) of a file; raise `LogError` saying what is wrong
    and where, `NoSuchGame` when the file holds no log of that number."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LogError(f"{path}: cannot read the log: {getattr(e, 'strerror', None) or e}") from None
    return pick(text, str(path), game)


def pick(text: str, file: str = "<log>", game: int = 1) -> GameLog:
    """Log number `game` of a text that holds one log or one a line. Only that line is read."""
    if game < 1:
        raise NoSuchGame(f"{file}: games are numbered from 1, not {game}")
    lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines or not _is_json(lines[0][1]):
        log = parse(text, file)
        if game != 1:
            raise NoSuchGame(f"{file} holds one game log; there is no game {game}")
        return log
    if game > len(lines):
        raise NoSuchGame(f"{file} holds {len(lines)} game log{'s' * (len(lines) != 1)}, one a line; "
                         f"there is no game {game}")
    number, line = lines[game - 1]
    return parse(line, file, number)


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def parse(text: str, file: str = "<log>", first_line: int = 1) -> GameLog:
    """Check one log; `first_line` is the line of the file the text starts on, for the messages."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(f"{file}:{e.lineno + first_line - 1}:{e.colno}: not valid JSON: {e.msg}") from None
    if not isinstance(data, dict):
        raise LogError(f"{file}:{first_line}:1: a game log is a JSON object, not {_kind(data)}")

    def where(key: str) -> str:
        found = re.search(r'"%s"\s*:' % re.escape(key), text)
        if found is None:
            return f"{file}:{first_line}" if first_line > 1 else file
        line = text.count("\n", 0, found.start()) + first_line
        return f"{file}:{line}:{found.start() - text.rfind(chr(10), 0, found.start())}"

    def get(key: str, check, wanted: str):
        if key not in data:
            raise LogError(f"{where(key)}: the log has no '{key}' key")
        value = data[key]
        if not check(value):
            raise LogError(f"{where(key)}: '{key}' must be {wanted}, not {_kind(value)}")
        return value

    def integer(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def strings(v) -> bool:
        return isinstance(v, list) and all(isinstance(x, str) for x in v)

    def integers(v) -> bool:
        return isinstance(v, list) and all(integer(x) for x in v)

    form = get("format", lambda v: isinstance(v, str), "a string")
    if form != FORMAT:
        raise LogError(f"{where('format')}: not a game log this version reads: format '{form}', expected '{FORMAT}'")
    players = get("players", lambda v: integer(v) and v > 0, "a positive integer")
    seats = get("seats", strings, "a list of strings")
    if len(seats) != players:
        raise LogError(f"{where('seats')}: 'seats' names {len(seats)} seats for {players} players")
    result = get("result", lambda v: v is None or isinstance(v, dict), "an object or null")
    if result is not None:
        for key, check, wanted in (("totals", integers, "a list of integers"),
                                   ("winners", integers, "a list of integers"), ("rounds", integer, "an integer")):
            if not check(result.get(key)):
                raise LogError(f"{where('result')}: 'result.{key}' must be {wanted}, not {_kind(result.get(key))}")
        result = LogResult(tuple(result["totals"]), tuple(result["winners"]), result["rounds"])
    return GameLog(
        ruleset=get("ruleset", lambda v: isinstance(v, str) and v.strip(), "a path"),
        ruleset_sha256=get("ruleset_sha256", lambda v: isinstance(v, str), "a string"),
        players=players,
        params=get("params", lambda v: isinstance(v, dict) and all(integer(x) for x in v.values()),
                   "an object of NAME: integer"),
        seed=get("seed", integer, "an integer"),
        seats=tuple(seats),
        moves=tuple(get("moves", strings, "a list of strings")),
        result=result,
    )


def _kind(value) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def replay(log: GameLog, compiled: Compiled, on_move: Callable[[int, int, str, Game], None] | None = None,
           on_start: Callable[[Game], None] | None = None) -> Game:
    """Re-run the log's moves on a fresh match; raise `ReplayError` at the first move that does not
    apply, or when the recorded result is not the one the moves give. `on_start(game)` is called
    once the cards are dealt, `on_move(number, seat, text, game)` after each move applied."""
    try:
        game = Game(compiled, log.seed)
    except EngineError as e:
        raise ReplayError(f"the match cannot start: {e}", reason=str(e)) from None
    if on_start is not None:
        on_start(game)
    for number, text in enumerate(log.moves, 1):
        seat = game.to_move
        if seat is None:
            raise ReplayError(f"move {number} '{text}': the match is already over", number, text, None,
                              "the match is already over")
        try:
            game.apply(text)
        except MoveError as e:
            reason = e.message + (f" (hint: {e.hint})" if e.hint else "")
            raise ReplayError(f"move {number} '{text}' by seat {seat} does not apply: {reason}",
                              number, text, seat, reason) from None
        except EngineError as e:
            raise ReplayError(f"move {number} '{text}' by seat {seat}: the ruleset cannot go on: {e}",
                              number, text, seat, str(e)) from None
        if on_move is not None:
            on_move(number, seat, text, game)
    replayed = result_of(game)
    if replayed != log.result:
        raise ReplayError(f"the log records {_describe(log.result)}, but its {len(log.moves)} moves give "
                          f"{_describe(replayed)}")
    return game


def _describe(result: LogResult | None) -> str:
    if result is None:
        return "an unfinished match"
    winners = ", ".join(map(str, result.winners))
    return (f"totals {list(result.totals)} after {result.rounds} round{'s' * (result.rounds != 1)}"
            f" (winner{'s' * (len(result.winners) != 1)}: seat {winners})")
