"""`cardrules play`: a match at the terminal, people and bots at the seats; `cardrules replay`:
a game log played again, move by move.

At a terminal the prompt has completion and history (prompt_toolkit); from a pipe, lines are
read plainly and echoed after the prompt, so the output reads as the session it was.
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..interpreter import gamelog
from ..interpreter.bots import Table as Seating, make_bot
from ..interpreter.cards import FINAL, TURN, WINDOW, CardInfo, UnknownCard, describe, faces_by_kind
from ..interpreter.compile import Compiled
from ..interpreter.engine import EngineError, Game, RoundResult
from ..interpreter.ismcts import search
from ..interpreter.load import resolve, split_selection
from ..interpreter.model import Ruleset
from ..interpreter.notation import HELP, MoveError, parse_move
from ..interpreter.redact import as_seen
from ..interpreter.seats import HUMAN, Seat
from ..interpreter.worlds import Memory
from .common import (EXIT_FINDINGS, EXIT_USAGE, Edition, House, Lang, Variants, compile_log_ruleset, compile_or_exit, err, fail,
                     load_or_exit, out,
                     parse_params, seats_or_exit)
from .render import moves_of, plural, view_of

COMMANDS = ("help", "moves", "view", "hint", "why ", "card ", "quit")
HINT_SECONDS = 0.9  # the search behind `hint`: about a second
HINTS = 3  # moves shown
HELP_TEXT = f"""\
Type a move's number from the list, or the move itself: {HELP}.
The play's name may be left out when only one play is open. Seats and piles count from 0;
piles read bottom to top, the top card last.
  moves      list the legal moves again      view   show the table again
  hint       what the ismcts bot would play here: its top moves, how often it tried
             each and how often that won, from what your seat knows
  why MOVE   which rule forbids MOVE         quit   stop the game (also Ctrl-D)
  card NAME  what a card does, and which rules say so; `card` alone lists the kinds"""


class Quit(Exception):
    """The person at the keyboard stopped the game; `why` says how."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


# ------------------------------------------------------------------ reading lines


class _Pipe:
    """Lines from a pipe or file; each is echoed after its prompt."""

    def read(self, prompt: str, words: list[str]) -> str:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        out.print(f"{prompt}{line}", markup=False)
        return line


class _Terminal:
    """A prompt with completion of the legal moves and commands, and history."""

    def __init__(self):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self.session = PromptSession(history=InMemoryHistory())

    def read(self, prompt: str, words: list[str]) -> str:
        from prompt_toolkit.completion import WordCompleter

        return self.session.prompt(prompt, completer=WordCompleter(words, sentence=True))


# ------------------------------------------------------------------ a match


class Session:
    """One match: asks the people, lets the bots choose, prints what happens, keeps the moves."""

    def __init__(self, game: Game, seats: list[Seat], reader):
        self.game, self.reader = game, reader
        self.kinds = [str(seat) for seat in seats]
        self.bots = [make_bot(seat, random.Random(f"{game.seed}:{s}")) if seat.is_bot else None
                     for s, seat in enumerate(seats)]
        people = tuple(s for s, seat in enumerate(seats) if not seat.is_bot)
        self.table = Seating(game, self.bots, watch=people)  # a person's seat is watched for `hint`
        self.moves: list[str] = []
        self.rounds_shown = 0
        self.hot_seat = len(people) > 1
        # whose eyes the table is printed for: the one person, else anyone (public zones only)
        self.viewer = people[0] if len(people) == 1 else -1

    def run(self) -> None:
        """Play to the end of the match; raise `Quit` if a person stops it."""
        game = self.game
        self._report_rounds()
        while not game.over:
            seat = game.to_move
            if self.bots[seat] is None:
                action = self._ask(seat)
            else:
                action = self.table.choose()
            move = game.move_of(action)
            self.table.play(action)
            self.moves.append(str(move))
            shown = move if seat == self.viewer else as_seen(move, seat, self.viewer, game.c.model)
            out.print(f"seat {seat} ({self.kinds[seat]}): {shown}", markup=False,
                      style="" if self.bots[seat] is None else "dim")
            self._report_rounds()

    def _ask(self, seat: int) -> tuple:
        """A person's decision: commands are answered until a legal move is given."""
        game = self.game
        if self.hot_seat:
            out.rule(f"seat {seat}: your turn", style="bold")
        self._show(seat)
        prompt = f"seat {seat}> "
        while True:
            words = [str(m) for m in game.legal_moves(seat)] + list(COMMANDS)
            try:
                line = self.reader.read(prompt, words).strip()
            except EOFError:
                raise Quit("end of input") from None
            if not line:
                continue
            command, _, rest = line.partition(" ")
            if command in ("quit", "exit"):
                raise Quit("quit")
            if command in ("help", "?"):
                out.print(HELP_TEXT, markup=False, soft_wrap=False)
            elif command == "moves":
                out.print(moves_of(game.legal_moves(seat)))
            elif command == "view":
                self._show(seat, moves=False)
            elif command == "hint":
                self._hint(seat)
            elif command == "why":
                self._why(rest.strip(), seat)
            elif command == "card":
                self._card(rest.strip())
            else:
                try:
                    return self._action(line, seat)
                except MoveError as e:
                    err.print(e.render(), markup=False, soft_wrap=False)

    def _action(self, line: str, seat: int) -> tuple:
        """The action a typed number or move names; a `MoveError` says why there is none."""
        moves = self.game.legal_moves(seat)
        if line.isdigit():
            if not 1 <= int(line) <= len(moves):
                raise MoveError(f"there is no move {line}: the moves are numbered 1 to {len(moves)}", line, 1,
                                "type 'moves' to list them")
            line = str(moves[int(line) - 1])
        return self.game.action_of(parse_move(line, self.game.open_plays()))

    def _why(self, text: str, seat: int) -> None:
        if not text:
            err.print(f"why what? e.g. why {self.game.legal_moves(seat)[0]}", markup=False)
            return
        try:
            move = self.game.move_of(self._action(text, seat)) if text.isdigit() else parse_move(
                text, self.game.open_plays())
        except MoveError as e:
            err.print(e.render(), markup=False, soft_wrap=False)
            return
        try:  # a card may be named in any of the ruleset's languages: the engine reads the move
            legal = self.game.move_of(self.game.action_of(move))
        except MoveError:
            out.print(f"{move}: {self.game.why_illegal(move)}", markup=False, soft_wrap=False)
        else:
            out.print(f"{legal} is legal now", markup=False)

    def _hint(self, seat: int) -> None:
        """The ismcts search of the seat's position, from what the seat knows: its top moves."""
        seen = self.table.seat_view(seat)
        sampler = Memory().sampler(seen)
        edges = search(sampler, seat, seen.actions(), random.Random(), seconds=HINT_SECONDS)
        if not edges:
            out.print("no hint: the search found no move to try", markup=False)
            return
        tried = sum(e.visits for e in edges)
        out.print(f"hint ({tried} searches from what seat {seat} knows):", markup=False)
        for rank, e in enumerate(edges[:HINTS], 1):
            out.print(f"  {rank}. {self.game.move_of(e.action)}  tried {e.visits} times, "
                      f"won {e.win_rate:.0%}", markup=False)

    def _card(self, name: str) -> None:
        if not name:
            out.print(kinds_of(self.game.c.model))
            return
        try:
            out.print(card_of(describe(self.game.c, name)), soft_wrap=False)
        except UnknownCard as e:
            err.print(f"{e}\n  hint: {e.hint + ' ' if e.hint else ''}`card` alone lists the card kinds", markup=False)

    def _show(self, seat: int, moves: bool = True) -> None:
        out.print(view_of(self.game.view(seat), self.game.c.model, self.kinds))
        if moves:
            out.print(moves_of(self.game.legal_moves(seat)))

    def _report_rounds(self) -> None:
        """Print the rounds that ended since the last report, and announce the next one."""
        results = self.game.state.results
        for result in results[self.rounds_shown:]:
            print_round(result, self.kinds)
        if self.rounds_shown == len(results) and self.moves:
            return
        self.rounds_shown = len(results)
        if self.game.over:
            print_winners(self.game, self.kinds)
        else:
            out.rule(f"round {self.game.state.round + 1}: seat {self.game.to_move} starts", style="dim")


_TIMING = {TURN: "on a turn", WINDOW: "out of turn", FINAL: "in the final round"}


def card_of(info: CardInfo) -> RenderableType:
    """`card NAME`: the card's values and copies, then each play it is used in, item by item,
    each item's provenance dim beneath it and the item that takes the card in bold."""
    copies = f"{info.copies} cop{'y' if info.copies == 1 else 'ies'}"
    head = Text(info.name, style="bold")
    if len(info.faces) > 1:
        head.append(f" · a kind of {len(info.faces)} faces: {_some(info.faces)} · {copies} each")
    else:
        head.append((f" · kind {info.kind}" if info.kind != info.name else "") + f" · {copies}")
    head.append(" · " + ", ".join(f"{attr} {value}" for attr, value in info.attributes))
    cited = (info.provenance, info.copies_provenance and f"copies: {info.copies_provenance}")
    lines: list[RenderableType] = [head, *(_dim(p, 2) for p in cited if p)]
    lines.append(Text(f"used in {plural(len(info.uses), 'play')}" + (":" if info.uses else ""), style="bold dim"))
    for use in info.uses:
        line = Text(f"play {use.play}", style="bold")
        line.append(" · as its second card (with)" if use.second else "")
        line.append(" · " + (", ".join(_TIMING[t] for t in use.timing) or "in no turn step: never made"))
        line.append(f" · if {use.condition}" if use.condition else "")
        items = Table.grid()  # wrapped lines hang under an item's text, its provenance further in
        items.add_column(no_wrap=True)
        items.add_column()
        if use.provenance:
            items.add_row("", _dim(use.provenance, 2))
        own = use.items[1 if use.second else 0]
        for item in use.items:
            items.add_row("  • ", Text(item.text, style="bold" if item is own else ""))
            if item.provenance:
                items.add_row("", _dim(item.provenance, 2))
        lines += [line, items]
    return Group(*lines)


def _dim(text: str, indent: int) -> RenderableType:
    return Padding(Text(text, style="dim"), (0, 0, 0, indent), expand=False)


def kinds_of(model: Ruleset) -> RenderableType:
    """`card` alone: the card kinds, their faces and how many cards each puts in the deck."""
    grid = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    grid.add_column("kind", no_wrap=True)
    grid.add_column("faces", overflow="fold")
    grid.add_column("cards", justify="right")
    for kind, faces in faces_by_kind(model).items():
        grid.add_row(kind, _some([c.face for c in faces]), str(sum(c.copies for c in faces)))
    return Group(grid, Text("card NAME (a face or a kind) tells what it does", style="dim"))


def _some(faces) -> str:
    return " ".join(faces) if len(faces) <= 5 else f"{' '.join(faces[:3])} … {faces[-1]}"


def print_round(result: RoundResult, kinds: list[str]) -> None:
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    for name in ("seat", "score", "total"):
        table.add_column(name, justify="left" if name == "seat" else "right")
    for seat, (score, total) in enumerate(zip(result.scores, result.totals)):
        table.add_row(f"{seat} {kinds[seat]}", f"{score:+d}", str(total))
    out.print(f"round {result.round + 1} over ({result.reason}) after {plural(result.plays, 'play')}:", style="bold",
              markup=False)
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
    names = " and ".join(f"seat {s} ({kinds[s]})" for s in winners)
    total = game.state.totals[winners[0]]
    verb = "wins" if len(winners) == 1 else "share the win"
    out.print(f"match over after {plural(len(game.state.results), 'round')}: {names} {verb} with {total}",
              style="bold", markup=False)


# ------------------------------------------------------------------ commands


def play(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A .rules file, or the name of a shipped ruleset.",
                                        show_default=False)],
    players: Annotated[Optional[int], typer.Option("--players", "-p", metavar="N",
                                                   help="Number of players.")] = None,
    seats: Annotated[Optional[str], typer.Option(
        metavar="KIND,...", help="Who plays each seat, comma-separated: human, or a bot: random, greedy, "
                                 "ismcts (ismcts:400 iterations, ismcts:0.5s a decision). Default: human, then "
                                 "random bots.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="S", help="Seed of the shuffles; default: a random one, printed.")] = None,
    param: Annotated[Optional[list[str]], typer.Option(
        metavar="NAME=V", help="Set a ruleset param: NAME=VALUE (repeatable).")] = None,
    log: Annotated[Optional[Path], typer.Option(
        metavar="FILE", help="Write the game log to this file at the end.")] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
    lang: Lang = None,
) -> None:
    """Play a match at the terminal against bots or friends (hot-seat)."""
    kinds = seats_or_exit(seats, players)
    if log is not None and (log.is_dir() or not log.parent.is_dir()):
        raise fail(f"--log: '{log}' is a folder" if log.is_dir() else f"--log: no folder '{log.parent}'",
                   "give a file in an existing folder", EXIT_USAGE)
    loaded = load_or_exit(file, edition, variant, house)
    compiled = compile_or_exit(loaded, players if kinds is None else len(kinds), parse_params(param), lang)
    kinds = kinds or [Seat(HUMAN)] + [Seat("random")] * (compiled.players - 1)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    humans = any(not kind.is_bot for kind in kinds)
    out.print(f"{loaded.model.title}{loaded.model.selection}: {compiled.players} players "
              f"({', '.join(map(str, kinds))}), seed {seed}; "
              f"play it again with --seed {seed}" + (". Type help for help." if humans else ""),
              markup=False, soft_wrap=False)
    try:
        game = Game(compiled, seed)
    except EngineError as e:
        raise fail(f"the match cannot start: {e}", "the ruleset's round end conditions never hold") from None
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    session = Session(game, kinds, _Terminal() if interactive else _Pipe())
    code = 0
    try:
        session.run()
    except Quit as q:
        out.print(f"game stopped ({q.why}) after {plural(len(session.moves), 'move')}", markup=False)
    except KeyboardInterrupt:
        out.print(f"\ngame stopped (interrupted) after {plural(len(session.moves), 'move')}", markup=False)
        code = 130
    except EngineError as e:
        err.print(f"error: the ruleset cannot go on: {e}", markup=False)
        code = EXIT_FINDINGS
    finally:  # also when the output pipe closes (rich exits then)
        if log is not None:
            _write_log(log, file, compiled, seed, session.kinds, session)
    raise typer.Exit(code)


def _write_log(path: Path, file: str, compiled: Compiled, seed: int, kinds: list[str], session: Session) -> None:
    file = split_selection(file).path
    record = gamelog.GameLog(file + compiled.model.selection, gamelog.sha256_of(resolve(file)), compiled.players,
                             dict(compiled.params), seed,
                             tuple(kinds), tuple(session.moves), gamelog.result_of(session.game))
    try:
        gamelog.write(record, path)
    except OSError as e:
        raise fail(f"cannot write the log '{path}': {e.strerror or e}") from None
    out.print(f"log written to {path}", markup=False)


def replay(
    log_file: Annotated[str, typer.Argument(metavar="LOG", help="A game log written by `cardrules play --log`, "
                                            "or a file of them from `cardrules selfplay --log`.",
                                            show_default=False)],
    game: Annotated[int, typer.Option("--game", "-g", metavar="K",
                                      help="Which log of a file of many (selfplay --log), from 1.")] = 1,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every move.")] = False,
) -> None:
    """Play a game log again and check that it gives the result it records."""
    try:
        log = gamelog.read(log_file, game)
    except gamelog.NoSuchGame as e:
        raise fail(str(e), "count the lines of the file: one match a line", EXIT_USAGE) from None
    except gamelog.LogError as e:
        raise fail(str(e), "a game log is the JSON file `cardrules play --log FILE` writes") from None
    compiled = compile_log_ruleset(log, log_file)
    rounds_shown = 0

    def show(number: int, seat: int, text: str, game: Game) -> None:
        nonlocal rounds_shown
        out.print(f"{number:>4}. seat {seat} ({log.seats[seat]}): {text}", markup=False)
        for result in game.state.results[rounds_shown:]:
            print_round(result, list(log.seats))
        rounds_shown = len(game.state.results)

    try:
        game = gamelog.replay(log, compiled, on_move=show if verbose else None)
    except gamelog.ReplayError as e:
        raise fail(f"{log_file}: {e}", "the log was written with another ruleset or edited by hand"
                   if e.move else "the log's result was edited, or the ruleset changed") from None
    out.print(f"{compiled.model.title}: {log.players} players ({', '.join(log.seats)}), seed {log.seed}: "
              f"{plural(len(log.moves), 'move')} replayed", markup=False)
    if not verbose and game.state.results:
        print_totals(game, list(log.seats))
    if game.over:
        print_winners(game, list(log.seats))
        out.print("the result matches the log", markup=False)
    else:
        out.print(f"the match is unfinished, as logged: round {game.state.round + 1}, seat {game.to_move} to move",
                  markup=False)
