"""The tables of `cardrules serve`: a match, what plays each seat, the secret token of each
person's seat, and the journal that keeps the match on disk.

Everything a seat is sent is built here, from `Game.view(seat)` and from the moves as that seat
saw them (`redact.as_seen`, kept by the `bots.Table` that watches every seat) with what each did
as that seat may know it (`narration`): the state, the log, the answers to `why`. Nothing else of
the match leaves the server. A table's journal is the one `play --log` writes (docs/logs.md), its
tokens a small file beside it, so a restarted server reopens the table where it stood and the
links still work.
"""
from __future__ import annotations

import io
import json
import os
import random
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, RenderableType

from ...interpreter import gamelog, outputs
from ...interpreter.bots import Bot, SeatView
from ...interpreter.bots import Table as Seating
from ...interpreter.cards import UnknownCard, describe
from ...interpreter.compile import Compiled, compile_ruleset
from ...interpreter.engine import Action, EngineError, Game, new_game
from ...interpreter.errors import CardrulesError, clip
from ...interpreter.export import Json
from ...interpreter.load import Loaded, load, resolve, split_selection
from ...interpreter.narration import narrate, round_words, snapshot
from ...interpreter.notation import MoveError, parse_move
from ...interpreter.progress import endless_round, round_bound
from ...interpreter.seats import HUMAN, parse_seat
from ..narrate import event_text

MAX_LOG = 100  # the last moves a state message carries
MAX_TABLES = 200  # open tables a server holds; the lobby refuses more
JOURNAL = ".journal"
TOKENS = ".seats.json"


class TableError(CardrulesError):
    """A table that cannot be made or reopened; the message says why."""


def data_dir() -> Path:
    """Where tables are kept by default: the user's data folder, as the platform names it."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "cardrules" / "tables"


def load_spec(spec_text: str) -> Loaded:
    """The checked model of FILE@EDITION+VARIANT+house:H.yaml; a `CardrulesError` says why not."""
    spec = split_selection(spec_text)
    if spec.house is None:
        return load(spec.path, spec.edition, spec.variants)
    from ...interpreter.house import apply_house, read_house

    return apply_house(read_house(spec.house))


def lasting_spec(spec_text: str) -> str:
    """The spec with its files as absolute paths, so that a server started elsewhere finds them;
    a shipped ruleset keeps its name."""
    spec = split_selection(spec_text)
    path = os.path.abspath(spec.path) if Path(spec.path).exists() else spec.path
    house = os.path.abspath(spec.house) if spec.house and Path(spec.house).exists() else spec.house
    from ...interpreter.model import selection_text

    return path + selection_text(spec.edition, spec.variants, house)


def text_of(renderable: RenderableType) -> str:
    """A rich renderable as plain text, as the terminal would show it without colour."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False, markup=False, emoji=False)
    console.print(renderable)
    return buffer.getvalue().rstrip()


@dataclass(frozen=True)
class Reply:
    """What a seat is told in answer to what it sent: `ok` False is a refusal."""

    ok: bool
    text: str = ""


class Table:
    """One match at one table. Mutated only by the server's event loop; a bot thinks on a copy of
    what its seat knows (`bot_turn`), so a bot in a worker thread never reads the live game."""

    def __init__(self, table_id: str, compiled: Compiled, spec: str, kinds: list[str], seed: int,
                 tokens: dict[int, str], journal: outputs.Journal, moves: Sequence[str] = ()):
        self.id, self.compiled, self.spec, self.kinds, self.seed = table_id, compiled, spec, kinds, seed
        self.tokens, self.journal = tokens, journal
        game = new_game(compiled, seed)
        self.seating = Seating(game, [None] * game.n, watch=tuple(range(game.n)))
        self.moves: list[str] = []
        self.told: list[list[tuple[str, ...]]] = [[] for _ in range(game.n)]  # per seat, per move: what it did
        self.end_words = round_words(compiled.model)
        for text in moves:
            self._play(game.action_of(parse_move(text, game.open_plays())))
        self.round_bound = round_bound(game)
        self.broken = ""  # why the ruleset cannot go on, once it cannot
        self.busy = False  # a bot of this table is thinking

    @property
    def game(self) -> Game:
        return self.seating.game

    @property
    def title(self) -> str:
        model = self.compiled.model
        return model.title + model.selection

    def is_person(self, seat: int) -> bool:
        return self.kinds[seat] == HUMAN

    def token_fits(self, seat: int, token: object) -> bool:
        """Whether `token` is the secret of `seat` (compared in constant time)."""
        own = self.tokens.get(seat)
        return own is not None and isinstance(token, str) and secrets.compare_digest(own.encode(), token.encode())

    # ---------------------------------------------------------------- what a seat is sent

    def state_for(self, seat: int) -> Json:
        """The table as `seat` may see it: its view, its moves when it is to move, the moves so far
        as it saw them, the rounds' results, the winners once the match is over."""
        game = self.game
        mine = game.to_move == seat and not self.broken
        seen = self.seating.history[seat]
        first = max(0, len(seen) - MAX_LOG)
        model = self.compiled.model
        return {
            "type": "state", "table": self.id, "title": self.title, "seat": seat, "kinds": self.kinds,
            "zones": [{"name": z.name, "per_seat": z.per_seat, "piles": z.piles} for z in model.zones],
            "view": game.view(seat),
            "moves": [str(m) for m in game.legal_moves(seat)] if mine else [],
            "log": [{"number": first + k + 1, "seat": s.mover, "move": str(s.move), "told": list(told)}
                    for k, (s, told) in enumerate(zip(seen[first:], self.told[seat][first:], strict=True))],
            "rounds": [{"round": r.round, "reason": r.reason, "scores": list(r.scores), "totals": list(r.totals),
                        "plays": r.plays} for r in game.state.results],
            "winners": game.winners() if game.over else None,
            "broken": self.broken or None,
        }

    # ---------------------------------------------------------------- what a seat asks

    def move(self, seat: int, text: str) -> Reply:
        """A person's move, typed or clicked (or the number of a legal move, from 1)."""
        refused = self._not_to_move(seat)
        if refused:
            return Reply(False, refused)
        try:
            action = self._action(seat, text)
        except MoveError as e:
            return Reply(False, e.render())
        self.play(action)
        return Reply(True)

    def why(self, seat: int, text: str) -> Reply:
        """Which rule forbids a move; asked on the seat's own turn, as it reads the seat's cards."""
        refused = self._not_to_move(seat)
        if refused:
            return Reply(False, refused)
        if not text:
            return Reply(False, f"why what? e.g. why {self.game.legal_moves(seat)[0]}")
        game = self.game
        try:
            move = game.move_of(self._action(seat, text)) if text.isascii() and text.isdigit() else parse_move(
                text, game.open_plays())
        except MoveError as e:
            return Reply(False, e.render())
        try:
            legal = game.move_of(game.action_of(move))
        except MoveError:
            return Reply(True, f"{move}: {game.why_illegal(move)}")
        return Reply(True, f"{legal} is legal now")

    def card(self, name: str) -> Reply:
        """What a card (or kind) does, and the rules that say so; `card` alone lists the kinds.
        The ruleset's text, the same for every seat."""
        from ..play import card_of, kinds_of

        if not name:
            return Reply(True, text_of(kinds_of(self.compiled.model)))
        try:
            return Reply(True, text_of(card_of(describe(self.compiled, name))))
        except UnknownCard as e:
            return Reply(False, f"{e}" + (f"\n  hint: {e.hint}" if e.hint else "") + "\n  `card` alone lists the kinds")

    def _not_to_move(self, seat: int) -> str:
        game = self.game
        if self.broken:
            return f"the match cannot go on: {self.broken}"
        if game.over:
            return "the match is over"
        if game.to_move != seat:
            return f"it is not your turn: seat {game.to_move} is to move"
        return ""

    def _action(self, seat: int, text: str) -> Action:
        game = self.game
        moves = game.legal_moves(seat)
        if text.isascii() and text.isdigit():
            number = int(text) if len(text) <= 9 else 0
            if not 1 <= number <= len(moves):
                raise MoveError(f"there is no move {clip(text, 20)}: the moves are numbered 1 to {len(moves)}")
            text = str(moves[number - 1])
        return game.action_of(parse_move(text, game.open_plays()))

    # ---------------------------------------------------------------- the match going on

    def _play(self, action: Action) -> tuple[int, str]:
        """Play `action`, and tell each seat what it did as that seat may know it (narration)."""
        game = self.game
        seat, move = game.to_move, game.move_of(action)
        assert seat is not None  # an action is the seat's to move
        before = snapshot(game)
        self.seating.play(action)
        self.moves.append(str(move))
        for viewer, told in enumerate(self.told):  # a bot's seat is sent nothing: it is told nothing
            told.append(tuple(event_text(e, viewer) for e in narrate(before, game, viewer, move, seat, self.end_words))
                        if self.is_person(viewer) else ())
        return seat, str(move)

    def play(self, action: Action) -> None:
        """Play `action` for the seat to move, write it to the journal, and the result at the end."""
        game = self.game
        seat, text = self._play(action)
        self.journal.append(gamelog.move_line(seat, text))
        result = gamelog.result_of(game)
        if result is not None:  # the match is over
            self.journal.append(gamelog.result_line(result))
            self.journal.sync()
        elif game.state.round_plays > self.round_bound:
            raise EngineError(*endless_round(game))

    def bot_to_move(self) -> bool:
        game, seat = self.game, self.game.to_move
        return not game.over and not self.broken and seat is not None and not self.is_person(seat)

    def bot_turn(self) -> tuple[Bot, SeatView | _Legal]:
        """The bot to move and what it is given (a copy: views, public flow, legal actions)."""
        from ..play import bot_for

        seat = self.game.to_move
        assert seat is not None  # `bot_to_move` said a bot is to move
        bot = bot_for(self.kinds[seat], self.seed, seat, len(self.moves))
        if getattr(bot, "observes", False):
            return bot, self.seating.seat_view(seat)
        return bot, _Legal(tuple(self.game.actions()))

    def close(self) -> None:
        self.journal.close()


@dataclass(frozen=True)
class _Legal:
    """The legal actions alone, for a bot that reads nothing else (as `bots.Choices`, but a copy)."""

    legal: tuple[Action, ...]

    def actions(self) -> tuple[Action, ...]:
        return self.legal


class Tables:
    """The tables of one server, each a journal (and its tokens) in the folder `data`."""

    def __init__(self, data: Path):
        self.data = data
        self.open: dict[str, Table] = {}

    def create(self, compiled: Compiled, spec: str, kinds: list[str], seed: int | None = None) -> Table:
        """A new table; a `TableError` when the server holds too many, or no seat is a person's."""
        if len(self.open) >= MAX_TABLES:
            raise TableError(f"this server holds {MAX_TABLES} tables already", "wait for a match to end")
        if HUMAN not in kinds:
            raise TableError("no seat is a person's: a table needs one human seat at least",
                             "e.g. --seats human,ismcts")
        if len(kinds) != compiled.players:
            raise TableError(f"{len(kinds)} seats named for {compiled.players} players")
        for kind in kinds:
            parse_seat(kind)
        seed = random.SystemRandom().randrange(1, 1_000_000) if seed is None else seed
        spec = lasting_spec(spec)
        self.data.mkdir(parents=True, exist_ok=True)
        table_id = secrets.token_hex(5)
        tokens = {seat: secrets.token_urlsafe(18) for seat, kind in enumerate(kinds) if kind == HUMAN}
        outputs.write_whole(self.data / (table_id + TOKENS), json.dumps({"tokens": tokens}))
        journal = outputs.Journal(self.data / (table_id + JOURNAL))
        head = gamelog.GameLog(spec, gamelog.sha256_of(resolve(split_selection(spec).path)), compiled.players,
                               dict(compiled.params), seed, tuple(kinds), ())
        journal.append(gamelog.journal_header(head))
        try:
            table = Table(table_id, compiled, spec, kinds, seed, tokens, journal)
        except BaseException:
            journal.close()
            raise
        journal.sync()
        self.open[table_id] = table
        return table

    def reopen(self) -> list[tuple[str, str]]:
        """Open every unfinished table of the folder where it stood; returns the tables that could
        not be opened, each with why (a broken journal, a ruleset gone, another server's lock)."""
        failed: list[tuple[str, str]] = []
        if not self.data.is_dir():
            return failed
        for path in sorted(self.data.glob("*" + JOURNAL)):
            table_id = path.name[:-len(JOURNAL)]
            if table_id in self.open:
                continue
            try:
                table = self._reopen(table_id, path)
            except (CardrulesError, OSError, ValueError, KeyError, TypeError, AttributeError) as e:
                failed.append((table_id, clip(str(e) or type(e).__name__, 300)))
                continue
            if table is not None:
                self.open[table_id] = table
        return failed

    def _reopen(self, table_id: str, path: Path) -> Table | None:
        log = gamelog.read(path)
        if not log.journal or log.result is not None:
            return None
        tokens_file = self.data / (table_id + TOKENS)
        tokens = {int(seat): str(token) for seat, token in json.loads(tokens_file.read_text("utf-8"))["tokens"].items()}
        compiled = compile_ruleset(load_spec(log.ruleset).model, log.players, log.params)
        journal = outputs.Journal(path, create=False)
        try:
            data = path.read_bytes()
            journal.cut(data.rfind(b"\n") + 1)  # a torn last line goes
            return Table(table_id, compiled, log.ruleset, list(log.seats), log.seed, tokens, journal, list(log.moves))
        except BaseException:
            journal.close()
            raise

    def close(self) -> None:
        for table in self.open.values():
            table.close()
