"""Bots: seats that choose their own moves, from what their seat may know and nothing else.

    class Bot(Protocol):
        kind: str                                  # "random", "greedy", "ismcts:400", ...
        observes: bool                             # whether it needs the moves as its seat saw them
        def choose(self, seen: SeatView) -> Action  # one of seen.actions()

A `Table` runs a match and hands the bot to move a `SeatView`: its seat's view, the public flow
of the game (whose turn, the window, the totals), the legal actions, and, for a bot that
observes, the view after the deal and every move as its seat saw it (`redact.as_seen`) with its
view after. Never the state, the deck's order or the seed: a bot that wants to look further
samples worlds from that (`worlds`). A bot draws on its own random source, never on the game's,
so a game's seed and its list of moves replay it whoever chose them.

A bot that does not observe (random) is given `Choices`, the legal actions alone, which cost the
self-play loop nothing; `RandomBot.choose` takes anything with `actions()`, a `Game` too, as
tests of the engine do.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .compile import Compiled
from .engine import Action, EngineError, Game, View, move_of
from .ismcts import IsmctsBot
from .notation import Move
from .outcome import margin_after
from .progress import endless_round, round_bound
from .redact import as_seen
from .seats import GREEDY_SAMPLES, Seat
from .worlds import Flow, Memory, public_flow


@dataclass(frozen=True)
class Seen:
    """One move as a seat saw it, and the seat's view after it."""

    mover: int
    move: Move
    view: View


@dataclass(frozen=True)
class SeatView:
    """All a bot may know when its seat is to move."""

    compiled: Compiled
    seat: int
    view: View  # `Game.view(seat)` now
    flow: Flow  # the public flow: the state without its cards, and who played which, by where it lies
    legal: tuple[Action, ...]  # the actions open to the seat
    start: View | None = None  # the seat's view once dealt (for bots that observe)
    history: tuple[Seen, ...] = ()  # every move since, as the seat saw it

    def actions(self) -> tuple[Action, ...]:
        return self.legal

    def move_of(self, action: Action) -> Move:
        return move_of(self.compiled, action)


class Choices:
    """What a bot that reads only the legal actions is given (`observes` False): those, and
    their notation; one per table, refilled at each decision, as it costs the hot loop nothing."""

    __slots__ = ("compiled", "legal")
    compiled: Compiled
    legal: list[Action]

    def __init__(self, compiled: Compiled):
        self.compiled, self.legal = compiled, []

    def actions(self) -> list[Action]:
        return self.legal

    def move_of(self, action: Action) -> Move:
        return move_of(self.compiled, action)


class Bot(Protocol):
    kind: str
    observes: bool  # False: it is given `Choices`, the legal actions alone

    def choose(self, seen: SeatView) -> Action: ...


class Decision(Protocol):
    """All a bot that does not observe reads: `Choices`, a `SeatView` or a `Game`."""

    def actions(self) -> Sequence[Action]: ...


class Table:
    """A match and the bots at its seats: asks the bot to move with what its seat may know, and
    keeps, for each seat that observes (bots that do, and `watch`, e.g. a person asking for
    hints), the moves as that seat saw them."""

    def __init__(self, game: Game, bots: Sequence[Bot | None], watch: tuple[int, ...] = ()):
        self.game, self.bots = game, bots
        self.compiled: Compiled = getattr(game, "reference", game.c)  # the ruleset as compiled, on either engine
        self.choices = Choices(game.c)
        seats = {s for s, bot in enumerate(bots) if getattr(bot, "observes", False)} | set(watch)
        self.start = {s: game.view(s) for s in sorted(seats)}
        self.history: dict[int, list[Seen]] = {s: [] for s in self.start}

    def seat_view(self, seat: int) -> SeatView:
        game = self.game
        legal = tuple(game.actions()) if game.to_move == seat else ()
        return SeatView(self.compiled, seat, game.view(seat), public_flow(self.compiled, game.state), legal,
                        self.start.get(seat), tuple(self.history.get(seat, ())))

    def choose(self, bot: Bot | None = None) -> Action:
        """The action of the bot whose seat is to move (or of `bot`, playing that seat)."""
        game = self.game
        seat: int = game.to_move  # type: ignore[assignment]  # a bot is asked while the match goes on
        # None at a seat no bot plays (a person's): asked only for a bot's seat, or with the bot
        chooser: Bot = self.bots[seat] if bot is None else bot  # type: ignore[assignment]
        if getattr(chooser, "observes", False):
            return chooser.choose(self.seat_view(seat))
        self.choices.legal = game.actions()
        return chooser.choose(self.choices)  # type: ignore[arg-type]  # a bot that does not observe reads a `Decision`

    def play(self, action: Action) -> None:
        """Play `action` for the seat to move, and show it to the seats that observe."""
        game = self.game
        if not self.history:
            game.play(action)
            return
        mover: int = game.to_move  # type: ignore[assignment]  # a move is played while the match goes on
        move = game.move_of(action)
        game.play(action)
        for seat, seen in self.history.items():
            seen.append(Seen(mover, as_seen(move, mover, seat, game.c.model), game.view(seat)))


class RandomBot:
    """Chooses uniformly among the distinct legal moves open to its seat."""

    kind = "random"
    observes = False

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, seen: Decision) -> Action:
        return self.rng.choice(seen.actions())


class GreedyBot:
    """One ply: each legal action is played in a few sampled worlds, and the one whose positions
    stand best for the seat on average (`outcome.margin`) is chosen; ties at random."""

    kind = "greedy"
    observes = True

    def __init__(self, rng: random.Random, samples: int = GREEDY_SAMPLES):
        self.rng, self.samples = rng, samples
        self.memory = Memory()
        if samples != GREEDY_SAMPLES:
            self.kind = f"greedy:{samples}"

    def choose(self, seen: SeatView) -> Action:
        actions = seen.actions()
        if len(actions) == 1:
            return actions[0]
        sampler = self.memory.sampler(seen)
        rng = self.rng
        totals = [0.0] * len(actions)
        for _ in range(self.samples if sampler.uncertain else 1):
            world = sampler.sample(rng)
            if world.to_move != seen.seat:  # a world whose flow went otherwise: it cannot answer this decision
                continue
            for i, action in enumerate(actions):
                totals[i] += margin_after(world, action, seen.seat)  # -inf where the ruleset cannot go on
        best = max(totals)
        return rng.choice([a for a, t in zip(actions, totals, strict=True) if t == best])


# kind -> its class, made with (rng, ...): the settings after rng differ by kind
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": IsmctsBot}


def make_bot(seat: Seat, rng: random.Random) -> Bot:
    """The bot a seat kind names, with its settings, drawing on `rng`."""
    if not seat.is_bot:
        raise ValueError(f"'{seat}' is not a bot")
    if seat.iterations is None and seat.seconds is None:
        return BOTS[seat.kind](rng)
    if seat.kind == "greedy":
        return BOTS[seat.kind](rng, seat.iterations)
    return BOTS[seat.kind](rng, seat.iterations, seat.seconds)


def play_out(game: Game, bots: Sequence[Bot]) -> None:
    """Let the bots play the match to its end (every seat must be a bot); an `EngineError` when it
    cannot end (see progress.py)."""
    if type(bots[0]) is RandomBot and all(bot is bots[0] for bot in bots) and hasattr(game, "play_random"):
        game.play_random(bots[0].rng.choice, round_bound(game))  # the fast engine's match loop: the same match
        return
    table, st, bound = Table(game, bots), game.state, round_bound(game)
    while not st.over:
        table.play(table.choose())
        if st.round_plays > bound:
            raise EngineError(*endless_round(game))
