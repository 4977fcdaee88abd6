"""Game logs: a ruleset, its options, a seed and the notation of every decision, as JSON.

A seed and the moves replay a match exactly (the engine owns all chance; bots draw on their own
random source), so a log needs nothing else. The writer is strict; the reader checks every key
and says where a broken log goes wrong; `replay` says at which move a log stops applying.

Three layouts, told apart by their first line (docs/logs.md):
  a journal (`play --log`): JSON Lines, a header, then a line per move or undo, and a result
      line when the match ends; written line by line as the game goes, so a killed game
      leaves every move but a torn last line, which the reader leaves out with a note;
  one log a line (`selfplay --log`): each line a whole `cardrules-log/1` record;
  one pretty-printed `cardrules-log/1` record (what `play --log` wrote before the journal).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from .compile import Compiled
from .engine import Action, EngineError, Game, new_game
from .errors import CardrulesError, clip
from .files import FileRefused, decode, is_regular_file, position, read_bytes
from .notation import MoveError
from .parse import MAX_BYTES as RULES_MAX_BYTES

if TYPE_CHECKING:  # bots imports this module (through redact): its names are for annotations only
    from .bots import Bot, SeatView

FORMAT = "cardrules-log/1"
JOURNAL = "cardrules-journal/1"
MAX_BYTES = 1 << 28  # a file of logs: a million short matches
MAX_DEPTH = 100  # nesting of JSON values; a log nests three levels
MAX_DIGITS = 30  # digits of a JSON number; int() refuses 4,300 and no log needs more than 20
MAX_SEED = 2**63 - 1  # seeds the commands take, so that every log they write can be read

T = TypeVar("T")


class LogError(CardrulesError, ValueError):
    """A log that cannot be read: its message names the file and, when it can, line:col."""


class NoSuchGame(LogError):
    """A game number that the file does not hold."""


class ReplayError(CardrulesError, ValueError):
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
    notes: tuple[str, ...] = ()  # what the reader of a journal left out or took back, for people
    journal: bool = False  # read from a journal, which `resume` may go on with


def sha256_of(path: str | Path) -> str:
    """The hash of a ruleset's bytes, read under the bound of a ruleset."""
    return hashlib.sha256(read_bytes(str(path), RULES_MAX_BYTES)).hexdigest()


def ruleset_path(log: GameLog, log_file: str | Path) -> str:
    """Where to find the log's ruleset: beside the log file when it names a file there, else as it
    was given (a path from here, or the name of a shipped ruleset)."""
    given = Path(log.ruleset)
    beside = Path(log_file).parent / given
    return str(beside) if not given.is_absolute() and is_regular_file(beside) else log.ruleset


class Recorder:
    """A bot that writes down the notation of each choice of the bot it stands in for, so that only
    the matches that are logged pay for the notation."""

    def __init__(self, bot: Bot):
        self.bot, self.kind = bot, bot.kind
        self.observes = getattr(bot, "observes", False)
        self.moves: list[str] = []

    def choose(self, seen: SeatView) -> Action:
        action = self.bot.choose(seen)
        self.moves.append(str(seen.move_of(action)))
        return action


def result_of(game: Game) -> LogResult | None:
    """The outcome of a finished match, or None while it goes on."""
    if not game.over:
        return None
    return LogResult(tuple(game.state.totals), tuple(game.winners()), len(game.state.results))


def result_record(result: LogResult | None) -> dict[str, object] | None:
    """A result as the logs write it."""
    return None if result is None else {
        "totals": list(result.totals), "winners": list(result.winners), "rounds": result.rounds}


def _record(log: GameLog) -> dict[str, object]:
    return {
        "format": FORMAT, "ruleset": log.ruleset, "ruleset_sha256": log.ruleset_sha256, "players": log.players,
        "params": dict(log.params), "seed": log.seed, "seats": list(log.seats), "moves": list(log.moves),
        "result": result_record(log.result),
    }


def to_line(log: GameLog) -> str:
    """The log as one line of a JSON Lines file of many logs."""
    return json.dumps(_record(log), ensure_ascii=False, separators=(",", ":")) + "\n"


# ------------------------------------------------------------------ the journal's lines
# Each is ASCII (other characters escaped), so a line torn at any byte is still readable text.


def _line(record: dict[str, object]) -> str:
    return json.dumps(record, separators=(",", ":"))


def journal_header(log: GameLog) -> str:
    """The first line of a journal: everything but the moves and the result."""
    record = _record(log)
    del record["moves"], record["result"]
    return _line({**record, "format": JOURNAL})


def move_line(seat: int, move: str) -> str:
    """A decision; `seat` is for people reading the file: replay works it out itself."""
    return _line({"seat": seat, "move": move})


def undo_line(count: int) -> str:
    """The last `count` moves taken back."""
    return _line({"undo": count})


def result_line(result: LogResult) -> str:
    return _line({"result": result_record(result)})


def read(path: str | Path, game: int = 1) -> GameLog:
    """Read and check log number `game` (1-based) of a file; raise `LogError` saying what is wrong
    and where, `NoSuchGame` when the file holds no log of that number."""
    try:
        text = decode(read_bytes(str(path), MAX_BYTES, "the log", "a game log (JSON)"), str(path), nul=True)
    except FileRefused as e:
        d = e.diagnostics[0]
        where = f"{d.file}:{d.span.line}:{d.span.column}" if d.span else d.file
        raise LogError(f"{where}: {d.message}" if d.message.startswith("cannot read") else
                       f"{where}: cannot read the log: {d.message}") from None
    return pick(text, str(path), game)


def where_move(path: str | Path, game: int, move: int) -> str:
    """`file:line:col` of move `move` (1-based; 0: the result) of log `game` of a file, for a
    replay error; the file alone when the log's text does not show it."""
    try:
        text = decode(read_bytes(str(path), MAX_BYTES), str(path), nul=True)
    except FileRefused:
        return str(path)
    lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    first, part = (1, text) if not lines or not _is_json(lines[0][1]) or game > len(lines) else lines[game - 1]
    found = re.search(r'"moves"\s*:\s*\[', part) if move else re.search(r'"result"\s*:', part)
    if found is None:
        return str(path)
    index = found.start()
    if move:
        strings = re.finditer(r'"(?:[^"\\]|\\.)*"', part[found.end():])
        at = next((m for k, m in enumerate(strings, 1) if k == move), None)
        if at is None:
            return str(path)
        index = found.end() + at.start()
    line, column = position(part, index)
    return f"{path}:{line + first - 1}:{column}"


def pick(text: str, file: str = "<log>", game: int = 1) -> GameLog:
    """Log number `game` of a text that holds one log or one a line. Only that line is read."""
    if game < 1:
        raise NoSuchGame(f"{file}: games are numbered from 1, not {game}")
    lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if lines and _is_journal(lines[0][1]):
        if game != 1:
            raise NoSuchGame(f"{file} is the journal of one game; there is no game {game}")
        return parse_journal(text, file)
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
        _loads(line, "<line>", 1)
    except LogError:
        return False
    return True


def _is_journal(line: str) -> bool:
    try:
        data = _loads(line, "<line>", 1)
    except LogError:
        return False
    return isinstance(data, dict) and data.get("format") == JOURNAL


def parse_journal(text: str, file: str = "<log>") -> GameLog:
    """A journal's match as it stands: its moves with the undone ones taken out, its result if it
    has one. A last line without its line end was being written when the game stopped: it is
    left out, and said so in `notes`."""
    lines = text.split("\n")
    notes: list[str] = []
    if lines[-1].strip():
        notes.append(f"{file}:{len(lines)}: the last line is incomplete (the game stopped while writing it); "
                     "it is left out")
    header: dict[str, object] | None = None
    moves: list[str] = []
    result: LogResult | None = None
    undone = 0
    for number, line in enumerate(lines[:-1], 1):
        if not line.strip():
            continue
        if header is None:
            header, where = _object(line, file, number), _locator(line, file, number)
            continue
        if result is not None:
            raise LogError(f"{file}:{number}:1: a line after the result: the match was over")
        record = _object(line, file, number)
        kind = next((k for k in ("move", "undo", "result") if k in record), None)
        if kind == "move" and isinstance(record["move"], str):
            moves.append(record["move"])
        elif kind == "undo" and _integer(taken := record["undo"]) and 0 < taken <= len(moves):
            undone += taken
            del moves[len(moves) - taken:]
        elif kind == "result":
            result = _result(record["result"], f"{file}:{number}:1")
            if result is None:
                raise LogError(f"{file}:{number}:1: 'result' must be an object, not null")
        elif kind == "undo":
            raise LogError(f"{file}:{number}:1: 'undo' takes back 1 to {len(moves)} moves (those before it), "
                           f"not {json.dumps(record['undo'])[:20]}")
        else:
            raise LogError(f"{file}:{number}:1: a journal line holds " + (
                f"a move as a string, not {_kind(record['move'])}" if kind else '"move", "undo" or "result"'))
    if header is None:
        raise LogError(f"{file}: the journal has no complete line: the game stopped before it began")
    if undone:
        notes.append(f"{undone} move{'s' * (undone != 1)} taken back (undo)")
    log = _checked({**header, "moves": moves, "result": None}, where, JOURNAL)
    return dataclasses.replace(log, result=result, notes=tuple(notes), journal=True)


def _object(line: str, file: str, number: int) -> dict[str, object]:
    data = _loads(line, file, number)
    if not isinstance(data, dict):
        raise LogError(f"{file}:{number}:1: a journal line is a JSON object, not {_kind(data)}")
    return data


def _integer(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


class _Refused(Exception):
    def __init__(self, message: str, index: int):
        self.message, self.index = message, index


def _loads(text: str, file: str, first_line: int) -> object:
    """JSON of a log, or a `LogError` at the line and column of what is wrong: not JSON, a key
    twice in one object, a number too long, nesting too deep."""
    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in items:
            if key in seen:
                raise _Refused(f"the key '{clip(key)}' comes twice in one object", _second_key(text, key))
            seen[key] = value
        return seen

    def number(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise _Refused(f"a number of more than {MAX_DIGITS} digits", text.find(digits))
        return int(digits)

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_int=number)
    except json.JSONDecodeError as e:
        raise LogError(f"{file}:{e.lineno + first_line - 1}:{e.colno}: not valid JSON: {e.msg}") from None
    except _Refused as e:
        line, column = position(text, max(e.index, 0))
        raise LogError(f"{file}:{line + first_line - 1}:{column}: not valid JSON: {e.message}") from None
    except RecursionError:
        line, column = position(text, _too_deep(text))
        raise LogError(f"{file}:{line + first_line - 1}:{column}: not valid JSON: it nests more than "
                       f"{MAX_DEPTH} levels deep") from None


def _second_key(text: str, key: str) -> int:
    found = [m.start() for m in re.finditer(re.escape(json.dumps(key)) + r"\s*:", text)]
    return found[1] if len(found) > 1 else 0


def _too_deep(text: str) -> int:
    """Where `text` first nests deeper than MAX_DEPTH (strings skipped), or 0."""
    depth = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif m.group() in "]}":
            depth -= 1
    return 0


def parse(text: str, file: str = "<log>", first_line: int = 1) -> GameLog:
    """Check one log; `first_line` is the line of the file the text starts on, for the messages."""
    data = _loads(text, file, first_line)
    if not isinstance(data, dict):
        raise LogError(f"{file}:{first_line}:1: a game log is a JSON object, not {_kind(data)}")
    return _checked(data, _locator(text, file, first_line))


def _locator(text: str, file: str, first_line: int) -> Callable[[str], str]:
    """Where a key of the JSON `text` is written, as file:line:col."""
    def where(key: str) -> str:
        found = re.search(rf'"{re.escape(key)}"\s*:', text)
        if found is None:
            return f"{file}:{first_line}" if first_line > 1 else file
        line = text.count("\n", 0, found.start()) + first_line
        return f"{file}:{line}:{found.start() - text.rfind(chr(10), 0, found.start())}"
    return where


def _checked(data: dict[str, object], where: Callable[[str], str], form: str = FORMAT) -> GameLog:
    """The log a JSON object holds, every key checked; `where(key)` locates a key for the messages."""
    def get(key: str, kind: type[T], check: Callable[[T], object] | None, wanted: str) -> T:
        """`data[key]`, a `kind` for which `check` holds."""
        if key not in data:
            raise LogError(f"{where(key)}: the log has no '{key}' key")
        value = data[key]
        if not isinstance(value, kind) or (check is not None and not check(value)):
            raise LogError(f"{where(key)}: '{key}' must be {wanted}, not {_kind(value)}")
        return value

    def strings(v: Iterable[object]) -> bool:
        return all(isinstance(x, str) for x in v)

    found = get("format", str, None, "a string")
    if found != form:
        raise LogError(f"{where('format')}: not a game log this version reads: format '{clip(found)}', "
                       f"expected '{form}'")
    players = get("players", int, lambda v: _integer(v) and v > 0, "a positive integer")
    seats = get("seats", list, strings, "a list of strings")
    if len(seats) != players:
        raise LogError(f"{where('seats')}: 'seats' names {len(seats)} seats for {players} players")
    return GameLog(
        ruleset=get("ruleset", str, lambda v: v.strip(), "a path"),
        ruleset_sha256=get("ruleset_sha256", str, None, "a string"),
        players=players,
        params=get("params", dict, lambda v: all(_integer(x) for x in v.values()), "an object of NAME: integer"),
        seed=get("seed", int, _integer, "an integer"),
        seats=tuple(seats),
        moves=tuple(get("moves", list, strings, "a list of strings")),
        result=_result(get("result", object, lambda v: v is None or isinstance(v, dict), "an object or null"),
                       where("result")),
    )


def _result(record: object, where: str) -> LogResult | None:
    """A result as the logs write it, checked; None stays None (an unfinished match)."""
    if record is None:
        return None
    if not isinstance(record, dict):
        raise LogError(f"{where}: 'result' must be an object, not {_kind(record)}")

    def integers(v: object) -> bool:
        return isinstance(v, list) and all(_integer(x) for x in v)

    for key, check, wanted in (("totals", integers, "a list of integers"),
                               ("winners", integers, "a list of integers"), ("rounds", _integer, "an integer")):
        if not check(record.get(key)):
            raise LogError(f"{where}: 'result.{key}' must be {wanted}, not {_kind(record.get(key))}")
    return LogResult(tuple(record["totals"]), tuple(record["winners"]), record["rounds"])


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def replay(log: GameLog, compiled: Compiled, on_move: Callable[[int, int, str, Game], None] | None = None,
           on_start: Callable[[Game], None] | None = None, check_result: bool = True) -> Game:
    """Re-run the log's moves on a fresh match; raise `ReplayError` at the first move that does not
    apply, or (with `check_result`) when the recorded result is not the one the moves give.
    `on_start(game)` is called once the cards are dealt, `on_move(number, seat, text, game)` after
    each move applied."""
    try:
        game = new_game(compiled, log.seed)
    except EngineError as e:
        raise ReplayError(f"the match cannot start: {e}", reason=str(e)) from None
    if on_start is not None:
        on_start(game)
    for number, text in enumerate(log.moves, 1):
        seat = game.to_move
        if seat is None:
            raise ReplayError(f"move {number} '{clip(text)}': the match is already over", number, text, None,
                              "the match is already over")
        try:
            game.apply(text)
        except MoveError as e:
            reason = clip(e.message + (f" (hint: {e.hint})" if e.hint else ""), 240)
            raise ReplayError(f"move {number} '{clip(text)}' by seat {seat} does not apply: {reason}",
                              number, text, seat, reason) from None
        except EngineError as e:
            raise ReplayError(f"move {number} '{clip(text)}' by seat {seat}: the ruleset cannot go on: {e}",
                              number, text, seat, str(e)) from None
        if on_move is not None:
            on_move(number, seat, text, game)
    replayed = result_of(game)
    if check_result and replayed != log.result:
        raise ReplayError(f"the log records {_describe(log.result)}, but its {len(log.moves)} moves give "
                          f"{_describe(replayed)}")
    return game


def _describe(result: LogResult | None) -> str:
    if result is None:
        return "an unfinished match"
    winners = ", ".join(map(str, result.winners))
    return (f"totals {list(result.totals)} after {result.rounds} round{'s' * (result.rounds != 1)}"
            f" (winner{'s' * (len(result.winners) != 1)}: seat {winners})")
