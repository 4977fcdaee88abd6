"""`cardrules play`: a match at the terminal, people and bots at the seats; `cardrules resume`: a
stopped game's journal played on; `cardrules replay`: a game log played again, move by move.

At a terminal the prompt has completion and history (prompt_toolkit); from a pipe, lines are
read plainly and echoed after the prompt, so the output reads as the session it was.
A bot's choice depends on the seed, its seat and the number of moves before it alone, so a
resumed game goes on as the game would have, and an undone move is chosen again the same way.
"""
from __future__ import annotations

import difflib
import random
import shlex
import signal
import sys
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from types import FrameType
from typing import Annotated, Final, TypeAlias

import typer
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..interpreter import gamelog, narration, outputs
from ..interpreter.book import Summary, summary
from ..interpreter.bots import Bot, make_bot
from ..interpreter.bots import Table as Seating
from ..interpreter.cards import FINAL, TURN, WINDOW, CardInfo, UnknownCard, describe, faces_by_kind
from ..interpreter.engine import PASS, Action, EngineError, Game, RoundResult, View, new_game, team_totals
from ..interpreter.errors import EXIT_FINDINGS, EXIT_USAGE, clip
from ..interpreter.ismcts import search
from ..interpreter.load import resolve, split_selection
from ..interpreter.model import Ruleset, selection_text
from ..interpreter.narration import RoundOver, narrate, round_words, snapshot
from ..interpreter.notation import HELP, AmbiguousMoveError, IllegalMoveError, Move, MoveError, matching, parse_move
from ..interpreter.progress import endless_round, round_bound
from ..interpreter.redact import as_seen
from ..interpreter.reserve import kept_back, reserve
from ..interpreter.rulings import cited
from ..interpreter.scoring import Scorer
from ..interpreter.seats import DEFAULT_BOT, HUMAN, KINDS, SeatError, parse_seat
from ..interpreter.worlds import Memory
from .common import (
    Edition,
    House,
    Lang,
    Variants,
    compile_log_ruleset,
    compile_or_exit,
    err,
    fail,
    load_or_exit,
    out,
    parse_params,
    seats_or_exit,
    seed_in_range,
)
from .i18n import _, ngettext, use
from .logs import read_or_exit, writable_or_exit
from .narrate import event_text, round_over_text
from .render import Paint, breakdown_of, changes_of, moves_of, painter, plain, plural, view_of

MAX_DIGITS = 9  # a move number, or a param: numbers up to 999,999,999
MAX_LINE = 10_000  # characters of a line typed or piped at the prompt
COMMANDS = ("help", "moves", "view", "score", "rules", "hint", "why ", "card ", "auto-pass ", "undo", "quit")
MANY = 6  # moves an ambiguous shortened move lists
HINT_SECONDS = 0.9  # the search behind `hint`: about a second
HINTS = 3  # moves shown


def help_text(examples: str) -> str:
    """`help`: how to type a move, with `examples` from the game at hand, and the commands."""
    return _("""\
Type a move's number from the list, or the move itself: the play, the card,
then @SEAT for a seat's zone (a new pile there) or @SEAT/PILE onto a pile.
Here, for instance:
  {examples}
The play's name may be left out when only one play is open, and any part of a
move that is clear without it: `CARD` for `PLAY CARD @SEAT` when it is the only
one. Seats and piles count from 0; piles read bottom to top, the top card last.
  moves      list the legal moves again      view   show the table again
  score      each seat's round score so far, clause by clause
  rules      the rules of this game in short
  hint       what the ismcts bot would play here: its top moves, how often it
             tried each and how often that won, from what your seat knows
  why MOVE   which rule forbids MOVE         quit   stop the game (also Ctrl-D)
  card NAME  what a card does, and which rules say so; `card` alone lists the
             kinds
  undo       take back your last move and the bots' moves after it
  auto-pass on|off        pass response windows by themselves (off at the start)
  auto-pass on except NAME, ...   ... unless you could play one of these cards
                                  or kinds""").format(examples=examples)


def examples_of(moves: list[Move]) -> str:
    """A legal move of each form there is now (onto a pile, to a seat, neither), for `help`."""
    forms: dict[tuple[bool, bool], Move] = {}
    for move in moves:
        forms.setdefault((move.pile is not None, move.seat is not None), move)
    return ", ".join(str(m) for m in forms.values()) or "pass"


def _is_number(text: str) -> bool:
    """ASCII digits only: `str.isdigit()` also takes '²' and '٣', which `int()` refuses or reads."""
    return text.isascii() and text.isdigit()


class Quit(Exception):
    """The person at the keyboard stopped the game, or a signal did; `why` says how, `code` is
    the exit code."""

    def __init__(self, why: str, code: int = 0):
        super().__init__(why)
        self.why, self.code = why, code


class Command(Enum):
    """What `_ask` returns besides an action: a command the session carries out."""

    UNDO = "undo"


UNDO: Final = Command.UNDO


def _stop_on(signum: int, frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP (a closed terminal): stop the game as `quit` does; the journal holds
    every move already."""
    raise Quit(signal.Signals(signum).name, 128 + signum)


# ------------------------------------------------------------------ reading lines


class _Pipe:
    """Lines from a pipe or file; each is echoed after its prompt."""

    terminal = False

    def read(self, prompt: str, words: list[str]) -> str:
        line = sys.stdin.readline(MAX_LINE + 1)  # bounded: `< /dev/zero` has no line end
        if not line:
            raise EOFError
        if len(line) > MAX_LINE:
            raise Quit(f"an input line longer than {MAX_LINE:,} characters")
        line = line.rstrip("\r\n")
        out.print(f"{prompt}{line}", markup=False)
        return line


class _Terminal:
    """A prompt with completion of the legal moves and commands, and history."""

    terminal = True

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory())

    def read(self, prompt: str, words: list[str]) -> str:
        from prompt_toolkit.completion import WordCompleter

        return self.session.prompt(prompt, completer=WordCompleter(words, sentence=True))


Reader: TypeAlias = _Pipe | _Terminal


# ------------------------------------------------------------------ a match


class Session:
    """One match: asks the people, lets the bots choose, prints what happens, keeps the moves and
    appends each to the journal, if there is one, as it is made."""

    def __init__(self, game: Game, kinds: list[str], reader: Reader, journal: outputs.Journal | None = None,
                 movers: list[int] | None = None, moves: list[str] | None = None, lang: str | None = None,
                 faces: str | None = None):
        """`moves` (and the seats that made them, `movers`) are those `game` has had already: a
        resumed game's. `lang`: the interface's language, for the rules' words; `faces`: the
        language the cards and the game's name are shown in."""
        self.game, self.kinds, self.reader, self.journal = game, kinds, reader, journal
        self.moves: list[str] = list(moves or ())
        self.movers: list[int] = list(movers or ())
        # a resumed game shows the rounds to come; one that is over already, its last round and winners
        self.rounds_shown = len(game.state.results) - game.over if self.moves else 0
        self.round_bound = round_bound(game)
        self.table = self._seat_table()
        self.hot_seat = kinds.count(HUMAN) > 1
        # whose eyes the table is printed for: the one person, else anyone (public zones only)
        self.viewer = kinds.index(HUMAN) if kinds.count(HUMAN) == 1 else -1
        self.end_words = round_words(game.c.model, lang or "en")
        self.scorer = Scorer(game.c)
        self.lang = lang or "en"
        self.summary: Summary | None = None  # `rules`, made when first asked for
        self.shown: dict[int, View] = {}  # seat -> the view shown at its last prompt
        self.auto_pass = False
        self.auto_pass_except: frozenset[str] = frozenset()  # `auto-pass on except NAME, ...`
        self.auto_passed = False  # the move to come is auto-pass's
        model = game.c.model
        self.title = dict(model.names).get(faces, model.title) if faces else model.title
        self.paint: Paint = painter(model, faces, out.is_terminal) if reader.terminal else plain
        self.asked: int | None = None  # the seat asked last: in hot-seat, a new one is handed the screen

    def _seat_table(self) -> Seating:
        """The match played again from the deal into a table that keeps, for every seat, the moves
        as that seat saw them: what a bot of that seat (or `hint`) may know. It becomes the game."""
        game = new_game(self.game.c, self.game.seed)
        table = Seating(game, [None] * game.n, watch=tuple(range(game.n)))
        for text in self.moves:
            table.play(game.action_of(parse_move(text, game.open_plays())))
        self.game = game
        return table

    def run(self) -> None:
        """Play to the end of the match; raise `Quit` if a person stops it."""
        self._report_rounds()
        while not self.game.over:
            game = self.game
            seat = game.to_move
            assert seat is not None  # a match under way has a seat to move
            action: Action | Command
            if self.kinds[seat] == HUMAN:
                action = self._ask(seat)
                if action is UNDO:
                    self._undo()
                    continue
            else:
                action = self.table.choose(bot_for(self.kinds[seat], game.seed, seat, len(self.moves)))
            move = game.move_of(action)
            if self.hot_seat and self.reader.terminal and self.kinds[seat] == HUMAN:
                out.clear()  # the hand just played from leaves the screen before anyone else looks
            in_window = game.state.window is not None
            before = snapshot(game)
            self.table.play(action)
            self.moves.append(str(move))
            self.movers.append(seat)
            if self.journal is not None:
                self.journal.append(gamelog.move_line(seat, str(move)))
            if game.state.round_plays > self.round_bound:
                raise EngineError(*endless_round(game))
            shown = move if seat == self.viewer else as_seen(move, seat, self.viewer, game.c.model)
            said = _("seat {seat} ({kind}): {move}").format(seat=seat, kind=self.kinds[seat], move=shown)
            if self.auto_passed:
                out.print(said + " " + _("(auto-pass)"), markup=False, style="dim")
                self.auto_passed = False
            # a bot letting a window go: nothing to tell
            elif not (in_window and not move.card and self.kinds[seat] != HUMAN):
                out.print(said, markup=False, style="dim" if self.kinds[seat] != HUMAN else "")
            for event in narrate(before, game, self.viewer, move, seat, self.end_words):
                if not isinstance(event, RoundOver):  # the round's report tells it
                    out.print("    " + event_text(event, self.viewer), markup=False)
            self._report_rounds()
        result = gamelog.result_of(self.game)  # the match is over
        if self.journal is not None and result is not None:
            self.journal.append(gamelog.result_line(result))

    def _undo(self) -> None:
        """Take back the last move a person made and the bots' moves after it: the match is
        played again from its seed up to the move before."""
        last = max((k for k, seat in enumerate(self.movers) if self.kinds[seat] == HUMAN), default=None)
        if last is None:
            err.print(_("nothing to undo: no person has moved yet"), markup=False)
            return
        count = len(self.moves) - last
        taken = self.moves[last:]
        del self.moves[last:], self.movers[last:]
        self.table = self._seat_table()
        game = self.game
        if self.journal is not None:
            self.journal.append(gamelog.undo_line(count))
        self.rounds_shown = len(game.state.results)
        self.shown.clear()  # the table is shown whole again
        out.print(_("took back {moves}: {list}").format(moves=plural(count, "move"), list=", ".join(taken)),
                  markup=False)

    def _ask(self, seat: int) -> Action | Command:
        """A person's decision: commands are answered until a legal move is given. The journal is
        synced first: while a person thinks, every move so far is on the disk."""
        if self.journal is not None:
            self.journal.sync()
        game = self.game
        auto = self._auto_pass(seat)
        if auto is not None:
            return auto
        if self.hot_seat and seat != self.asked:
            self._hand_over(seat)
            self.shown.pop(seat, None)  # the screen was cleared: the table is shown whole
        self.asked = seat
        self._show_changes(seat)
        prompt = _("seat {seat}> ").format(seat=seat)
        while True:
            words = [str(m) for m in game.legal_moves(seat)] + list(COMMANDS)
            try:
                line = self.reader.read(prompt, words).strip()
            except EOFError:
                raise Quit(_("end of input")) from None
            if not line:
                continue
            command, _sep, rest = line.partition(" ")
            if command in ("quit", "exit"):
                raise Quit(_("quit"))
            if command == "undo":
                return UNDO
            if command in ("help", "?"):
                out.print(help_text(examples_of(game.legal_moves(seat))), markup=False, soft_wrap=False)
            elif command == "moves":
                out.print(moves_of(game.legal_moves(seat), self.paint))
            elif command == "view":
                self._show(seat, moves=False)
            elif command == "score":
                self._score()
            elif command == "rules":
                if self.summary is None:
                    self.summary = summary(self.game.c.model, self.lang)
                out.print(rules_of(self.summary), soft_wrap=False)
            elif command == "hint":
                self._hint(seat)
            elif command == "why":
                self._why(rest.strip(), seat)
            elif command == "card":
                self._card(rest.strip())
            elif command == "auto-pass":
                self._set_auto_pass(rest)
                auto = self._auto_pass(seat)
                if auto is not None:
                    return auto
            else:
                try:
                    return self._action(line, seat)
                except MoveError as e:
                    self._refuse(e, seat)

    def _hand_over(self, seat: int) -> None:
        """Hot-seat: the next person takes the keyboard. At a terminal the screen was cleared
        after the last person's move, and the hand waits for Enter; from a pipe, a line."""
        if not self.reader.terminal:
            out.rule(_("seat {seat}: your turn").format(seat=seat), style="bold")
            return
        try:
            self.reader.read(_("seat {seat}, press Enter").format(seat=seat) + " ", [])
        except EOFError:
            raise Quit(_("end of input")) from None
        out.clear()

    def _refuse(self, e: MoveError, seat: int) -> None:
        """A move that cannot be played: where and why, the notation's example from this game."""
        if e.hint == HELP:
            e.hint = _("e.g. {examples}").format(examples=examples_of(self.game.legal_moves(seat)))
        err.print(e.render(), markup=False, soft_wrap=False)

    def _action(self, line: str, seat: int) -> Action:
        """The action a typed number or move names, whole or with its unambiguous parts left out;
        a `MoveError` says why there is none, with a suggestion for a misspelt word."""
        moves = self.game.legal_moves(seat)
        if _is_number(line):
            number = int(line) if len(line) <= MAX_DIGITS else 0
            if not 1 <= number <= len(moves):
                raise MoveError(_("there is no move {number}: the moves are numbered 1 to {last}").format(
                    number=clip(line, 20), last=len(moves)), clip(line, 20), 1, _("type 'moves' to list them"))
            line = str(moves[number - 1])
        try:
            return self.game.action_of(parse_move(line, self.game.open_plays()))
        except MoveError as e:
            found = matching(line, moves, self.game.c.face_index)
            if len(found) == 1:
                return self.game.action_of(found[0])
            if found:
                shown = ", ".join(map(str, found[:MANY])) + (", …" if len(found) > MANY else "")
                raise AmbiguousMoveError(_("'{line}' could be any of {n} moves: {moves}").format(
                    line=clip(line, 40), n=len(found), moves=shown), clip(line, 40), 1,
                    _("say more of the move, or type its number (`moves` lists them)")) from None
            if isinstance(e, AmbiguousMoveError) and len(line.split()) == 1 and line.lower() in self.game.c.face_index:
                raise IllegalMoveError(_("no move with {card} is legal now").format(card=clip(line, 40)),
                                       clip(line, 40),
                                       1, _("`moves` lists the legal moves; `why PLAY {card}` says which rule forbids "
                                            "one").format(card=clip(line, 40))) from None
            close = self._close_words(line)
            if isinstance(e, AmbiguousMoveError) and len(line.split()) == 1:  # a lone word that names nothing
                raise MoveError(_("'{word}' is not a card, a play or a command here").format(word=clip(line, 40)),
                                clip(line, 40), 1,
                                (_("did you mean {words}?").format(words=close) + " " if close else "")
                                + _("`help` lists the commands, `moves` the moves")) from None
            if close:
                raise MoveError(e.message, e.text, e.column, _("did you mean {words}?").format(words=close)
                                + (f" {e.hint}" if e.hint else "")) from None
            raise

    def _close_words(self, line: str) -> str:
        """For each word of `line` that names nothing here, the card, play or command it is
        closest to (difflib), if one is close."""
        c = self.game.c
        known = {*c.face_index, *(p.name for p in c.model.plays), "pass", *(w.strip() for w in COMMANDS)}
        names = [*c.faces, *(p.name for p in c.model.plays), *(w.strip() for w in COMMANDS)]
        close = []
        for word in line.split():
            if word.lower() in known or word.startswith(("@", "/")) or _is_number(word):
                continue
            for part in word.split("+"):
                if part.lower() not in known:
                    close += difflib.get_close_matches(part, names, n=1, cutoff=0.7)
        return ", ".join(dict.fromkeys(close))

    def _why(self, text: str, seat: int) -> None:
        if not text:
            err.print(_("why what? e.g. why {move}").format(move=self.game.legal_moves(seat)[0]), markup=False)
            return
        try:
            move = self.game.move_of(self._action(text, seat)) if _is_number(text) else parse_move(
                text, self.game.open_plays())
        except MoveError as e:
            self._refuse(e, seat)
            return
        try:  # a card may be named in any of the ruleset's languages: the engine reads the move
            legal = self.game.move_of(self.game.action_of(move))
        except MoveError:
            out.print(f"{move}: {self.game.why_illegal(move)}", markup=False, soft_wrap=False)
        else:
            out.print(_("{move} is legal now").format(move=legal), markup=False)

    def _hint(self, seat: int) -> None:
        """The ismcts search of the seat's position, from what the seat knows: its top moves among
        those the bot would weigh, and the plays it would keep for the final round (`reserve`)."""
        seen = self.table.seat_view(seat)
        legal = seen.actions()
        open_now = kept_back(reserve(seen.compiled), seen.flow, legal)
        edges = search(Memory().sampler(seen), seat, open_now, random.Random(), seconds=HINT_SECONDS)
        if not edges:
            out.print(_("no hint: the search found no move to try"), markup=False)
            return
        out.print(_("hint ({lines} lines played out from what seat {seat} knows):").format(
            lines=sum(e.visits for e in edges), seat=seat), markup=False)
        for rank, e in enumerate(edges[:HINTS], 1):
            out.print("  " + _("{rank}. {move}  tried {visits} times, won {rate:.0%}").format(
                rank=rank, move=self.game.move_of(e.action), visits=e.visits, rate=e.win_rate), markup=False)
        kept = sorted({action[0].name for action in legal if action[0] is not None and action not in open_now})
        if kept:
            out.print("  " + _("kept for the final round, as the bot keeps them: {plays}").format(
                plays=", ".join(kept)), markup=False)

    def _card(self, name: str) -> None:
        if not name:
            out.print(kinds_of(self.game.c.model))
            return
        try:
            info = describe(self.game.c, name)
        except UnknownCard as e:
            err.print(f"{e}\n  " + _("hint: {hint}`card` alone lists the card kinds").format(
                hint=e.hint + " " if e.hint else ""), markup=False)
            return
        out.print(card_of(info), soft_wrap=False)
        out.print(rulings_of(info, self.game.c.model.file), soft_wrap=False)

    def _score(self) -> None:
        """`score`: every seat's round score so far, clause by clause, from what the viewer sees."""
        for seat in range(self.game.n):
            out.print(breakdown_of(self.scorer.breakdown(self.game, seat, self.viewer), self.kinds, self.viewer))
        unseen = self.scorer.unseen(self.viewer)
        if unseen:
            out.print(_("counted from what you may see: {zones} of other seats count as empty").format(
                zones=", ".join(unseen)), style="dim", markup=False)

    def _show(self, seat: int, moves: bool = True) -> None:
        scores = self.scorer.scores(self.game, self.viewer)
        view = self.game.view(seat)
        out.print(view_of(view, self.game.c.model, self.kinds, scores, self.paint, self.title))
        self.shown[seat] = view
        if moves:
            out.print(moves_of(self.game.legal_moves(seat), self.paint))

    def _show_changes(self, seat: int) -> None:
        """At a prompt: the whole table the first time in a round, else what changed since this
        seat's last prompt (the moves between were narrated as they were made)."""
        last, view = self.shown.get(seat), self.game.view(seat)
        if last is None or last["round"] != view["round"]:
            self._show(seat)
            return
        out.print(changes_of(last, view, self.game.c.model, self.kinds, self.scorer.scores(self.game, self.viewer),
                             self.paint, self.title))
        self.shown[seat] = view
        out.print(moves_of(self.game.legal_moves(seat), self.paint))

    def _auto_pass(self, seat: int) -> Action | None:
        """The pass, when auto-pass is on, a response window asks this seat, and no card it
        could play is one of the setting's exceptions."""
        game = self.game
        if not self.auto_pass or game.state.window is None or PASS not in game.actions():
            return None
        wanted = self.auto_pass_except
        for move in game.legal_moves(seat):
            for face in move.card.split("+") if move.card else ():
                card = game.c.model.deck[game.c.face_index[face.lower()]]
                if face.lower() in wanted or card.kind.lower() in wanted:
                    return None
        self.auto_passed = True
        return PASS

    def _set_auto_pass(self, text: str) -> None:
        """`auto-pass on|off`, `auto-pass on except NAME, ...` (a card's face or kind)."""
        words = text.replace(",", " ").split()
        if not words:
            state = _("on") if self.auto_pass else _("off")
            if self.auto_pass and self.auto_pass_except:
                state += " " + _("except") + " " + ", ".join(sorted(self.auto_pass_except))
            out.print(_("auto-pass is {state}").format(state=state), markup=False)
            return
        if words[0] not in ("on", "off") or (len(words) > 1 and (words[0] == "off" or words[1] != "except")) \
                or (len(words) == 2):
            err.print(_("auto-pass takes: on, off, or on except NAME, ... (a card or a kind of card)"), markup=False)
            return
        model = self.game.c.model
        known = {*self.game.c.face_index, *(k.name.lower() for k in model.kinds)}
        names = [w.lower() for w in words[2:]]
        unknown = [n for n in names if n not in known]
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(known), n=1, cutoff=0.6)
            err.print(_("no card or kind of card is called '{name}'").format(name=clip(unknown[0], 40))
                      + (" " + _("(did you mean {words}?)").format(words=close[0]) if close else ""), markup=False)
            return
        self.auto_pass, self.auto_pass_except = words[0] == "on", frozenset(names)
        if not self.auto_pass:
            out.print(_("auto-pass is off: every response window you can play in asks you"), markup=False)
        elif names:
            out.print(_("auto-pass is on: a response window passes by itself unless you could play {names}").format(
                names=", ".join(names)), markup=False)
        else:
            out.print(_("auto-pass is on: response windows pass by themselves"), markup=False)

    def _report_rounds(self) -> None:
        """Print the rounds that ended since the last report, and announce the next one."""
        results = self.game.state.results
        for result in results[self.rounds_shown:]:
            print_round(result, self.kinds, self.end_words)
        if self.rounds_shown == len(results) and self.moves:
            return
        self.rounds_shown = len(results)
        if self.game.over:
            print_winners(self.game, self.kinds)
        else:
            out.rule(_("round {round}: seat {seat} starts").format(round=self.game.state.round + 1,
                                                                   seat=self.game.to_move), style="dim")


def _timing(when: str) -> str:
    return {TURN: _("on a turn"), WINDOW: _("out of turn"), FINAL: _("in the final round")}[when]


def card_of(info: CardInfo) -> RenderableType:
    """`card NAME`: the card's values and copies, then each play it is used in, item by item,
    each item's provenance dim beneath it and the item that takes the card in bold."""
    copies = ngettext("{n} copy", "{n} copies", info.copies).format(n=info.copies)
    head = Text(info.name, style="bold")
    if len(info.faces) > 1:
        head.append(" · " + ngettext("a kind of {n} face: {faces} · {copies} each",
                                     "a kind of {n} faces: {faces} · {copies} each", len(info.faces)).format(
            n=len(info.faces), faces=_some(info.faces), copies=copies))
    else:
        head.append((" · " + _("kind {kind}").format(kind=info.kind) if info.kind != info.name else "")
                    + f" · {copies}")
    head.append(" · " + ", ".join(f"{attr} {value}" for attr, value in info.attributes))
    cited = (info.provenance, info.copies_provenance and _("copies: {why}").format(why=info.copies_provenance))
    lines: list[RenderableType] = [head, *(_dim(p, 2) for p in cited if p)]
    lines.append(Text(_("used in {plays}").format(plays=plural(len(info.uses), "play")) + (":" if info.uses else ""),
                      style="bold dim"))
    for card_use in info.uses:
        line = Text(f"play {card_use.play}", style="bold")
        line.append(" · " + _("as its second card (with)") if card_use.second else "")
        line.append(" · " + (", ".join(_timing(t) for t in card_use.timing) or _("in no turn step: never made")))
        line.append(" · " + _("if {condition}").format(condition=card_use.condition) if card_use.condition else "")
        items = Table.grid()  # wrapped lines hang under an item's text, its provenance further in
        items.add_column(no_wrap=True)
        items.add_column()
        if card_use.provenance:
            items.add_row("", _dim(card_use.provenance, 2))
        own = card_use.items[1 if card_use.second else 0]
        for item in card_use.items:
            items.add_row("  • ", Text(item.text, style="bold" if item is own else ""))
            if item.provenance:
                items.add_row("", _dim(item.provenance, 2))
        lines += [line, items]
    return Group(*lines)


def rulings_of(info: CardInfo, ruleset_file: str) -> RenderableType:
    """The text of each ruling the card's clauses cite, from the document they cite."""
    texts = [info.provenance, info.copies_provenance, *(u.provenance for u in info.uses),
             *(item.provenance for u in info.uses for item in u.items)]
    found = []
    for text in texts:
        found += [r for r in cited(text or "", ruleset_file) if r not in found]
    if not found:
        return Group()
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column()
    for ruling in found:
        grid.add_row(f"  #{ruling.anchor}", ruling.text)
    return Group(Text(_("the rulings cited:"), style="bold dim"), grid)


def rules_of(s: Summary) -> RenderableType:
    """`rules`: the rules in short, a heading a part and a line a rule."""
    lines: list[RenderableType] = [Text(s.title, style="bold")]
    for head, part in s.parts:
        lines.append(Text(head, style="bold dim"))
        lines += [Padding(Text(line), (0, 0, 0, 2), expand=False) for line in part]
    return Group(*lines)


def _dim(text: str, indent: int) -> RenderableType:
    return Padding(Text(text, style="dim"), (0, 0, 0, indent), expand=False)


def kinds_of(model: Ruleset) -> RenderableType:
    """`card` alone: the card kinds, their faces and how many cards each puts in the deck."""
    grid = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    grid.add_column(_("kind"), no_wrap=True)
    grid.add_column(_("faces"), overflow="fold")
    grid.add_column(_("cards"), justify="right")
    for kind, faces in faces_by_kind(model).items():
        grid.add_row(kind, _some([c.face for c in faces]), str(sum(c.copies for c in faces)))
    return Group(grid, Text(_("card NAME (a face or a kind) tells what it does"), style="dim"))


def _some(faces: Sequence[str]) -> str:
    return " ".join(faces) if len(faces) <= 5 else f"{' '.join(faces[:3])} … {faces[-1]}"


def print_round(result: RoundResult, kinds: list[str], words: dict[str, str] | None = None) -> None:
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    for name in (_("seat"), _("score"), _("total")):
        table.add_column(name, justify="left" if name == _("seat") else "right")
    for seat, (score, total) in enumerate(zip(result.scores, result.totals, strict=True)):
        table.add_row(f"{seat} {kinds[seat]}", f"{score:+d}", str(total))
    out.print(round_over_text(result.round, result.reason, (words or {}).get(result.reason, ""), result.plays),
              style="bold", markup=False)
    out.print(table)


def print_totals(game: Game, kinds: list[str]) -> None:
    results = game.state.results
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    for name in ("seat", "total"):
        table.add_column(name, justify="left" if name == "seat" else "right")
    for seat, total in enumerate(game.state.totals):
        table.add_row(f"{seat} {kinds[seat]}", str(total))
    reasons = Counter(r.reason for r in results)
    out.print(f"{plural(len(results), 'round')}, ended by "
              + ", ".join(f"{reason} ({n})" for reason, n in reasons.items()), markup=False)
    out.print(table)


def print_winners(game: Game, kinds: list[str]) -> None:
    winners = game.winners()
    names = _(" and ").join(_("seat {seat} ({kind})").format(seat=s, kind=kinds[s]) for s in winners)
    rounds = plural(len(game.state.results), "round")
    total = team_totals(game.c, game.state.totals)[winners[0]]  # with teams, the winning team's total
    won = _("match over after {rounds}: {names} wins with {total}") if len(winners) == 1 else \
        _("match over after {rounds}: {names} share the win with {total}")
    out.print(won.format(rounds=rounds, names=names, total=total), style="bold", markup=False)


# ------------------------------------------------------------------ commands


def bot_for(kind: str, seed: int, seat: int, number: int) -> Bot:
    """The bot that makes the match's decision `number` (from 0) at `seat`, seeded from these
    alone: a resumed game, or one replayed from its journal, chooses as the first run did."""
    return make_bot(parse_seat(kind), random.Random(f"{seed}:{seat}:{number}"))


def play(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A .rules file, or the name of a shipped ruleset.",
                                        show_default=False)],
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N",
                                                   help="Number of players.")] = None,
    seats: Annotated[str | None, typer.Option(
        metavar="KIND,...", help="Who plays each seat, comma-separated: human, or a bot: random, greedy, "
                                 "ismcts (ismcts:400 iterations, ismcts:0.5s a decision). Default: human, then "
                                 "ismcts bots (random is the easy one).")] = None,
    seed: Annotated[int | None, typer.Option(
        metavar="SEED", callback=seed_in_range, help="Seed of the shuffles (0 to 2^63-1); default: a random one, "
                                                          "printed.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        metavar="NAME=V", help="Set a ruleset param: NAME=VALUE (repeatable).")] = None,
    log: Annotated[Path | None, typer.Option(
        metavar="FILE", help="Keep the game's journal in this file, a line a move as it is made: "
                             "`cardrules replay FILE` plays it again, `cardrules resume FILE` goes on with "
                             "a game that was stopped.")] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
    lang: Lang = None,
) -> None:
    """Play a match at the terminal against bots or friends (hot-seat)."""
    seated = seats_or_exit(seats, players)
    kinds = None if seated is None else [str(seat) for seat in seated]
    spec = split_selection(file)
    if log is not None:
        writable_or_exit(log, "--log", [resolve(spec.path), house or spec.house])
    loaded = load_or_exit(file, edition, variant, house)
    compiled = compile_or_exit(loaded, players if kinds is None else len(kinds), parse_params(param), lang)
    kinds = kinds or [HUMAN] + [DEFAULT_BOT] * (compiled.players - 1)
    use(lang)  # the interface speaks what --lang asks; an edition's language names only the cards
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    try:
        game = new_game(compiled, seed)
    except EngineError as e:
        raise fail(f"the match cannot start: {e}", e.hint) from None
    journal = None
    if log is not None:
        head = gamelog.GameLog(spec.path + compiled.model.selection, gamelog.sha256_of(resolve(spec.path)),
                               compiled.players, dict(compiled.params), seed, tuple(kinds), ())
        journal = _open_journal(log)
        _not_over_a_game_in_play(log, journal)
        journal.cut(0)
        journal.append(gamelog.journal_header(head))
    reader = _reader()
    while True:
        model = loaded.model
        again = " ".join(shlex.quote(part) for part in (
            "cardrules", "play", spec.path + selection_text(model.edition, model.variants),
            *(("--house", house or spec.house) if house or spec.house else ()),
            *(("--seats", ",".join(kinds)) if seats else ("-p", str(compiled.players))),
            *(x for p in param or () for x in ("--param", p)), *(("--lang", lang) if lang else ()),
            "--seed", str(seed)))
        out.print(_("{title}: {players} players ({kinds}), seed {seed}").format(
            title=model.title + model.selection, players=compiled.players, kinds=", ".join(kinds), seed=seed)
            + "; " + _("play it again: {command}").format(command=again)
            + (". " + _("Type help for help.") if HUMAN in kinds else ""), markup=False, soft_wrap=False)
        session = Session(game, kinds, reader, journal, lang=lang,
                          faces=lang if lang in model.languages else model.language)
        code = _run(session)
        if code or journal is not None or not session.game.over or not _again(reader, kinds):
            raise typer.Exit(code)
        seed = random.SystemRandom().randrange(1, 1_000_000)
        game = new_game(compiled, seed)


def _again(reader: Reader, kinds: list[str]) -> bool:
    """After a finished match with a person at the table (and no journal, which holds one
    match): ask whether to play another, with a new seed."""
    if HUMAN not in kinds:
        return False
    try:
        answer = reader.read(_("play again? [y/N] "), ["yes", "no"])
    except (EOFError, Quit):
        return False
    return answer.strip().lower() in ("y", "yes", _("y"), _("yes"))


def resume(
    log_file: Annotated[str, typer.Argument(metavar="LOG", help="The journal of a stopped game (`play --log LOG`).",
                                            show_default=False)],
) -> None:
    """Go on with a stopped game from its journal.

    A game that was stopped (quit, closed, killed) goes on with the same seats
    and seed, the bots choosing as they would have; the new moves are added to the journal."""
    log = read_or_exit(log_file, 1)
    if not log.journal:
        raise fail(f"{log_file} is a finished file of logs (format {gamelog.FORMAT}), not a game's journal",
                   "`cardrules play --log FILE` keeps a journal that resume goes on with; this one can be replayed")
    path = Path(log_file)
    journal = _open_journal(path, create=False)
    try:
        log = read_or_exit(log_file, 1)  # again, under the lock: as it is now
        for kind in log.seats:
            try:
                parse_seat(kind)
            except SeatError as e:
                raise fail(f"{log_file}: a seat is played by '{kind}', which this cardrules does not know: "
                           f"{e.message}", f"the kinds it knows: {', '.join(KINDS)}") from None
        compiled = compile_log_ruleset(log, log_file)
        movers: list[int] = []
        try:
            game = gamelog.replay(log, compiled, on_move=lambda number, seat, text, game: movers.append(seat),
                                  check_result=False)
        except gamelog.ReplayError as e:
            raise fail(f"{log_file}: {e}", "the log was written with another ruleset or edited by hand") from None
        for note in log.notes:
            err.print(f"note: {note}", markup=False)
        if log.result is not None:
            raise fail(f"{log_file}: the match is over; there is nothing to resume",
                       f"`cardrules replay {log_file}` shows it")
        data = path.read_bytes()
        journal.cut(data.rfind(b"\n") + 1)  # a torn last line goes
    except BaseException:
        journal.close()
        raise
    kinds = list(log.seats)
    out.print(f"{compiled.model.title}{compiled.model.selection}: {log.players} players ({', '.join(kinds)}), "
              f"seed {log.seed}: resumed after {plural(len(log.moves), 'move')}"
              + (". Type help for help." if HUMAN in kinds else ""), markup=False, soft_wrap=False)
    raise typer.Exit(_run(Session(game, kinds, _reader(), journal, movers, list(log.moves))))


def _reader() -> Reader:
    return _Terminal() if sys.stdin.isatty() and sys.stdout.isatty() else _Pipe()


def _not_over_a_game_in_play(path: Path, journal: outputs.Journal) -> None:
    """Refuse to start a new journal over the journal of an unfinished game: it would be lost."""
    try:
        previous = gamelog.read(path)
    except gamelog.LogError:
        return
    if previous.journal and previous.result is None and previous.moves:
        journal.close()
        raise fail(f"--log {path} holds a game that is not finished ({plural(len(previous.moves), 'move')})",
                   f"`cardrules resume {path}` goes on with it; for a new game give another file, or delete it",
                   EXIT_USAGE)


def _open_journal(path: Path, create: bool = True) -> outputs.Journal:
    try:
        return outputs.Journal(path, create)
    except outputs.WriteRefused as e:
        raise fail(e.message, e.hint) from None
    except OSError as e:
        raise fail(f"cannot write the log '{path}': {e.strerror or e}") from None


def _run(session: Session) -> int:
    """Play the session's match until it ends or is stopped, and return the exit code; SIGTERM
    and SIGHUP stop it as `quit` does. The journal, if any, is closed (and its lock let go)
    whatever happens."""
    stops = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]
    before = {s: signal.signal(s, _stop_on) for s in stops}
    code = 0
    try:
        session.run()
    except Quit as q:
        out.print(_("game stopped ({why}) after {moves}").format(why=q.why, moves=plural(len(session.moves), "move")),
                  markup=False)
        code = q.code
    except KeyboardInterrupt:
        out.print("\n" + _("game stopped ({why}) after {moves}").format(
            why=_("interrupted"), moves=plural(len(session.moves), "move")), markup=False)
        code = 130
    except EngineError as e:
        err.print(f"error: the ruleset cannot go on: {e}", markup=False)
        if e.hint:
            err.print(f"  hint: {e.hint}", markup=False)
        code = EXIT_FINDINGS
    finally:  # also when the output pipe closes (rich exits then)
        for s, handler in before.items():
            signal.signal(s, handler)
        if session.journal is not None:
            session.journal.close()
            path = session.journal.path
            out.print(_("log written to {path}").format(path=path) if session.game.over else
                      _("the game's journal is {path}: `cardrules resume {path}` goes on with it").format(path=path),
                      markup=False)
    return code


def replay(
    log_file: Annotated[str, typer.Argument(metavar="LOG", help="A game log written by `cardrules play --log`, "
                                            "or a file of them from `cardrules selfplay --log`.",
                                            show_default=False)],
    game: Annotated[int, typer.Option("--game", "-g", metavar="K",
                                      help="Which log of a file of many (selfplay --log), from 1.")] = 1,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every move, what it did, and the table "
                                                                 "after it (the public zones).")] = False,
) -> None:
    """Play a game log again and check that it gives the result it records."""
    log = read_or_exit(log_file, game)
    for note in log.notes:
        err.print(f"note: {note}", markup=False)
    compiled = compile_log_ruleset(log, log_file)
    rounds_shown = 0
    words = round_words(compiled.model)
    scorer = Scorer(compiled)
    before: narration.Snapshot | None = None
    plays: tuple[str, ...] = ()  # the plays open before the move to come: how its text reads

    def start(game: Game) -> None:
        nonlocal before, plays
        before, plays = snapshot(game), game.open_plays()
        out.print(view_of(game.view(-1), compiled.model, list(log.seats), scorer.scores(game, -1)))

    def show(number: int, seat: int, text: str, game: Game) -> None:
        """A move, what it did as a watcher sees it (public zones), and the table after it."""
        nonlocal rounds_shown, before, plays
        assert before is not None  # `start` took it
        out.print(f"{number:>4}. seat {seat} ({log.seats[seat]}): {text}", markup=False)
        for event in narrate(before, game, -1, parse_move(text, plays), seat, words):
            if not isinstance(event, RoundOver):
                out.print("      " + event_text(event, -1), markup=False)
        for result in game.state.results[rounds_shown:]:
            print_round(result, list(log.seats), words)
        rounds_shown = len(game.state.results)
        if not game.over:
            out.print(view_of(game.view(-1), compiled.model, list(log.seats), scorer.scores(game, -1)))
        before, plays = snapshot(game), game.open_plays()

    try:
        played = gamelog.replay(log, compiled, on_move=show if verbose else None, on_start=start if verbose else None)
    except gamelog.ReplayError as e:
        raise fail(f"{log_file}: {e}", f"{'the move' if e.move else 'the result'} is at "
                   f"{gamelog.where_move(log_file, game, e.move)}; " + ("the log was written with another ruleset or "
                   "edited by hand" if e.move else "the log's result was edited, or the ruleset changed")) from None
    out.print(f"{compiled.model.title}: {log.players} players ({', '.join(log.seats)}), seed {log.seed}: "
              f"{plural(len(log.moves), 'move')} replayed", markup=False)
    if not verbose and played.state.results:
        print_totals(played, list(log.seats))
    if played.over:
        print_winners(played, list(log.seats))
        out.print("the result matches the log", markup=False)
    else:
        out.print(f"the match is unfinished, as logged: round {played.state.round + 1}, seat {played.to_move} to move"
                  + (f"; `cardrules resume {log_file}` goes on with it" if log.journal else ""), markup=False)
