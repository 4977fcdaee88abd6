"""The engine: plain-data state, the distinct legal moves, apply, and what each seat may see.

One seeded `random.Random` owns all chance, so a seed and a list of moves replay a game
exactly. The engine runs the compiled turn program: automatic steps (draws) run by themselves;
a play step waits for its seat's decision, or passes it where the step says so. After every
step the round's end conditions are checked and the response window, if the rules have one,
asks every seat in turn; a final round gives each seat one last turn. A round's end scores
it, and the match goes on until its `until` holds.

The hot path works on *actions*, tuples `(play, face, seat, pile)` (`Action` says what each
holds) with pile -1 for a new pile (or a zone of plain cards), seat -1 for a shared zone;
`Move`s are their readable form for people, logs and scenarios.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Self, TypeAlias, cast

from . import model as m
from .compile import (
    CARD,
    CHOICE,
    CHOSEN,
    ENV_SIZE,
    MATE,
    MELD,
    OWNER,
    PASSED,
    PASSES,
    PILE,
    RNG,
    ROUND,
    SELF,
    STATE,
    TARGET,
    TOTALS,
    ZONES,
    CChoice,
    CChoose,
    CLet,
    CMate,
    CMeld,
    Compiled,
    CPlay,
    CShuffle,
    CStep,
    Fn,
    team_total,
)
from .errors import CardrulesError
from .melds import meld_actions
from .notation import IllegalMoveError, Move, parse_move
from .progress import idle_round, idle_state, stalled_match
from .unparse import unparse

MAX_ROUNDS = 10_000
SEATS_TEXT = {"any": "any seat", "other": "any other seat", "self": "self"}  # as a rules file writes them
# An action, the hot path's unit: (the play, None for a pass; what is played: a face index, the
# pair of faces of a compound play, a meld's faces ascending, or the value a play of no card
# names; the seat whose zone takes the card or that the play chooses, -1 for a shared zone;
# the pile it goes onto or chooses, -1 for a new pile or a zone of plain cards). What is played
# depends on the play's kind, so that position is `Any`.
Action: TypeAlias = tuple[CPlay | None, Any, int, int]
PASS: Action = (None, -1, -1, -1)  # the action of passing: in a response window, or at a `may play` step
# What a seat sees (`Game.view`): a JSON-like dict of the seat, the totals and the zones as shown;
# untyped values until the view gets a TypedDict of its own.
View: TypeAlias = dict[str, Any]


class EngineError(CardrulesError):
    """A ruleset that cannot go on: a round that cannot end, a match that never ends. `hint`
    says what to look at in the ruleset."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message, hint)


class PositionError(CardrulesError, ValueError):
    """A position that the deck cannot make: an unknown zone or face, too many copies."""


@dataclass(frozen=True)
class RoundResult:
    round: int
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    plays: int


@dataclass
class State:
    """Everything that changes during a match, as plain lists and numbers."""

    zones: list[Any]  # per zone: a list (shared) or a list of lists, one per seat; a pile is a list too
    totals: list[int]
    round: int = 0
    active: int = 0  # the seat whose turn it is
    step: int = 0  # the index of the turn step under way
    over: bool = False
    plays: int = 0  # plays in the whole match
    round_plays: int = 0
    idle_turns: int = 0  # passes in a row since the last play: the rules' `passes`
    passed: bool = False  # the seat whose turn it is has passed in this turn: the rules' `passed`
    direction: int = 1  # +1 or -1: the way turns go round
    next_turns: list[int] = field(default_factory=list)  # seats given the next turns, in order
    window: list[int] | None = None  # an open response window: [seat asked now, passes in a row]
    final_turns: int = -1  # in the final round: the final turns left, this one included; -1 before it
    results: list[RoundResult] = field(default_factory=list)
    silent: set[int] = field(default_factory=set)  # seats that may not answer in the window under way
    values: list[Any] = field(default_factory=list)  # the named values, as the model lists them
    # per card (and "no card" last): the seat that played it this round, or -1
    played: list[int] = field(default_factory=list)

    def copy(self) -> State:
        return State(_deep(self.zones), list(self.totals), self.round, self.active, self.step, self.over, self.plays,
                     self.round_plays, self.idle_turns, self.passed, self.direction, list(self.next_turns),
                     None if self.window is None else list(self.window), self.final_turns, list(self.results),
                     set(self.silent), list(self.values), list(self.played))


def _deep(x: Any) -> Any:
    return [_deep(y) for y in x] if isinstance(x, list) else x


def empty_zones(compiled: Compiled) -> list[Any]:
    """Every zone with no card in it: a list per zone, a list of lists for a zone per seat."""
    return [[[] for _ in range(compiled.players)] if z.per_seat else [] for z in compiled.model.zones]


def move_of(compiled: Compiled, action: Action) -> Move:
    """The readable form of an action: the same in every match of `compiled`."""
    play, face, seat, pile = action
    if play is None:
        return Move("pass", "")
    if play.value is not None:  # a play of no card names its value where a card's face stands
        return Move(play.name, str(face), None if seat < 0 else seat)
    if play.meld is not None:  # a meld's faces, ascending
        return Move(play.name, "+".join(compiled.faces[f] for f in face), None if seat < 0 else seat)
    card = "+".join(compiled.faces[f] for f in face) if play.mate else compiled.faces[face]
    return Move(play.name, card, None if seat < 0 else seat, None if pile < 0 else pile)


ENGINES = ("fast", "reference")


def new_game(compiled: Compiled, seed: int = 0, *, deal: bool = True, engine: str | None = None) -> Game:
    """A match on the engine asked for: `fast` (the generated one, `fast.FastGame`, the
    default) or `reference` (this module's `Game`, the plain closures it is checked against).
    Without `engine`, the environment variable CARDRULES_ENGINE chooses."""
    engine = engine or os.environ.get("CARDRULES_ENGINE") or "fast"
    if engine == "reference":
        return Game(compiled, seed, deal=deal)
    if engine != "fast":
        raise ValueError(f"no engine '{engine}': the engines are {', '.join(ENGINES)}")
    from .fast import FastGame  # it builds on Game
    return FastGame(compiled, seed, deal=deal)


def team_totals(compiled: Compiled, totals: Sequence[int]) -> list[int]:
    """Each seat's team total: the sum of its team's totals (its own total without teams)."""
    return [team_total(compiled.team_of, totals, s) for s in range(len(totals))] if compiled.team_of else list(totals)


def cite(provenance: m.Provenance) -> str:
    """A clause's provenance in one line: its sources, rulings and assumptions."""
    parts = [*provenance.sources, *(f"ruling: {r}" for r in provenance.rulings),
             *(f"assumed: {a}" for a in provenance.assumptions)]
    return "; ".join(parts)


class Game:
    """One match of a compiled ruleset."""

    def __init__(self, compiled: Compiled, seed: int = 0, *, deal: bool = True):
        self.c = compiled
        self.n = compiled.players
        self.seed = seed
        self.rng = random.Random(seed)
        self.env: list[Any] = [None] * ENV_SIZE
        self.state = State(empty_zones(self.c), [0] * self.n, values=[None] * len(compiled.values),
                           played=[-1] * (compiled.deck_size + 1))
        self.env[STATE], self.env[RNG] = self.state, self.rng
        self.env[ZONES], self.env[ROUND], self.env[TOTALS] = self.state.zones, 0, self.state.totals
        self._match_values()
        self._actions: list[Action] = []
        others = [tuple(s for s in range(self.n) if s != seat) for seat in range(self.n)]
        self._dest: dict[str, list[tuple[int, ...]]] = {"any": [tuple(range(self.n))] * self.n, "other": others,
                      "self": [(seat,) for seat in range(self.n)], "": [(-1,)] * self.n}
        if deal:
            self._start_round()
            self._advance()

    @classmethod
    def resume(cls, compiled: Compiled, state: State, seed: int) -> Self:
        """A match going on from `state` (taken as it is, not copied), its chance drawn from
        `seed`: the worlds a bot samples and searches."""
        game = cls(compiled, seed, deal=False)
        game._go_on_from(state)
        game._advance()
        return game

    def _go_on_from(self, state: State) -> None:
        """Go on from `state`, as it is: the environment's slots that mirror it point at it."""
        self.state = self.env[STATE] = state
        self.env[ZONES], self.env[ROUND], self.env[TOTALS], self.env[PASSES], self.env[PASSED] = (
            state.zones, state.round, state.totals, state.idle_turns, state.passed)

    # ---------------------------------------------------------------- reading

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def to_move(self) -> int | None:
        """The seat whose decision the game waits for (in a window, the seat asked), or None
        when the match is over."""
        return None if self.state.over else self._mover()

    def _mover(self) -> int:
        st = self.state
        return st.active if st.window is None else st.window[0]

    def actions(self) -> list[Action]:
        """The distinct actions open to the seat to move."""
        return self._actions

    def legal_moves(self, seat: int) -> list[Move]:
        if seat != self.to_move:
            return []
        return [self.move_of(a) for a in self._actions]

    def move_of(self, action: Action) -> Move:
        return move_of(self.c, action)

    def open_plays(self) -> tuple[str, ...]:
        """The plays the seat to move may make now (and `pass` in a window)."""
        st = self.state
        if st.over:
            return ()
        if st.window is not None and self.c.window is not None:
            return (*(p.name for p in self.c.window.plays), "pass")
        step = self._program()[st.step]
        if step.kind != "play":
            return ()
        return tuple(p.name for p in step.plays) + (("pass",) if step.optional else ())

    def winners(self) -> list[int]:
        """The seats of the best team (each seat is a team of its own without `teams`)."""
        totals = team_totals(self.c, self.state.totals)
        best = (min if self.c.model.match.winner == "lowest" else max)(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def view(self, seat: int) -> View:
        """What `seat` may see: public zones, its own owner-only zones, counts of the rest."""
        st = self.state
        zones: dict[str, Any] = {}
        for zone, content in zip(self.c.model.zones, st.zones, strict=True):
            if zone.per_seat:
                zones[zone.name] = [self._show(zone, content[s], zone.visibility == "public" or
                                               (zone.visibility == "owner" and s == seat)) for s in range(self.n)]
            else:
                zones[zone.name] = self._show(zone, content, zone.visibility == "public")
        last = st.results[-1] if st.results else None
        return {
            "seat": seat, "players": self.n, "round": st.round, "to_move": self.to_move, "active": st.active,
            "window": st.window is not None, "direction": st.direction,
            "totals": list(st.totals), "over": st.over, "zones": zones, "values": self.values(seat),
            "last_round": None if last is None else
            {"round": last.round, "reason": last.reason, "scores": list(last.scores)},
        }

    def values(self, seat: int | None = None) -> dict[str, Any]:
        """The named values as people read them: numbers, truth values, seat numbers, enum
        values and card faces (None for no card). For `seat`, a card that lies where the seat
        cannot see it reads "hidden": a value never tells what a view would not."""
        shown: dict[str, Any] = {}
        for value, now in zip(self.c.model.values, self.state.values, strict=True):
            if value.type == "card":
                if now is None or now >= self.c.deck_size:
                    now = None
                elif seat is not None and not self._sees(seat, now):
                    now = "hidden"
                else:
                    now = self.c.faces[self.c.face_of[now]]
            shown[value.name] = now
        return shown

    def _sees(self, seat: int, card: int) -> bool:
        """Whether `card` lies in a zone `seat` sees (a card in no zone is seen: it left play)."""
        for zone, content in zip(self.c.model.zones, self.state.zones, strict=True):
            for s, part in (enumerate(content) if zone.per_seat else ((None, content),)):
                if card in (c for pile in part for c in pile) if zone.piles else card in part:
                    return zone.visibility == "public" or (zone.visibility == "owner" and s == seat)
        return True

    def _match_values(self) -> None:
        """The values of the match, set once, before its first round."""
        for k, value in enumerate(self.c.values):
            if value.per_match:
                self.state.values[k] = value.init(self.env)

    def _show(self, zone: m.Zone, content: list[Any], visible: bool) -> dict[str, int] | list[Any]:
        faces, face_of = self.c.faces, self.c.face_of
        if not visible:
            cards = sum(len(p) for p in content) if zone.piles else len(content)
            return {"count": cards, "piles": len(content)} if zone.piles else {"count": cards}
        if zone.piles:
            return [[faces[face_of[c]] for c in pile] for pile in content]
        return [faces[face_of[c]] for c in content]

    # ---------------------------------------------------------------- moving

    def apply(self, move: Move | str) -> None:
        """Play a move given as a `Move` or as text; raise a `MoveError` saying why not."""
        if isinstance(move, str):
            move = parse_move(move, self.open_plays())
        action = self.action_of(move)
        self.play(action)

    def action_of(self, move: Move) -> Action:
        """The action a move names, or an `IllegalMoveError` that says which rule forbids it."""
        if self.state.over:
            raise IllegalMoveError("the match is over")
        if move.play == "pass" and not move.card:
            if PASS in self._actions:
                return PASS
            raise IllegalMoveError(self.why_illegal(move), str(move))
        index = self.c.face_index
        face = index.get(move.card.lower(), -1) if "+" not in move.card else tuple(
            index.get(part.lower(), -1) for part in move.card.split("+"))
        for action in self._actions:
            play, f, seat, pile = action
            if play is not None and play.meld is not None:  # a meld, its faces in any order
                laid = tuple(sorted(face)) if isinstance(face, tuple) else (face,)
                if play.name == move.play and f == laid and seat == (-1 if move.seat is None else move.seat) \
                        and move.pile is None:
                    return action
                continue
            if play is not None and play.value is not None:  # a chosen value, written as the rules write it
                if play.name == move.play and str(f).lower() == move.card.lower() and seat == (
                        -1 if move.seat is None else move.seat) and move.pile is None:
                    return action
                continue
            if play is not None and play.name == move.play and f == face and seat == (
                    -1 if move.seat is None else move.seat) and pile == (
                    -1 if move.pile is None else move.pile):
                return action
        raise IllegalMoveError(self.why_illegal(move), str(move))

    def play(self, action: Action) -> None:
        """Apply one of `actions()` as it is: the fast path for bots; no check beyond that."""
        play, face, target_seat, pile_index = action
        st, env = self.state, self.env
        window = st.window
        seat = st.active if window is None else window[0]
        if play is None:  # a pass: in a response window, or at a `may play` step
            if window is not None:
                window[0], window[1] = self._next_seat(seat), window[1] + 1
            else:
                self._pass_step()
            self._advance()
            return
        if play.value is not None:
            self._play_value(play, face, target_seat, seat)
            return
        if play.meld is not None:
            self._play_meld(play, face, target_seat, seat)
            return
        if play.mate is not None:
            face, mate_face = face
            mate = self._take_face(st.zones[play.mate.zone][seat], mate_face, seat)
            env[MATE] = mate
            st.played[mate] = seat
        card = self._take_face(st.zones[play.card_zone][seat], face, seat)
        st.played[card] = seat
        zone = st.zones[play.dest_zone]
        if play.choose is not None:  # the card goes to a shared zone; @SEAT[/PILE] named the target
            choose = play.choose
            env[CHOSEN] = target_seat if choose.kind == "seat" else st.zones[choose.piles_zone][target_seat][pile_index]
            target_seat = pile_index = -1
        elif target_seat >= 0:
            zone = zone[target_seat]
        env[SELF], env[CARD], env[TARGET], env[OWNER] = seat, card, zone, target_seat
        cards = [card] if play.mate is None else [card, mate]  # the mate lies on the first card
        if play.new_pile is None and play.onto_pile is None:
            zone.extend(cards)
        elif pile_index < 0:
            zone.append(cards)
            env[PILE] = cards
        else:
            pile = zone[pile_index]
            pile.extend(cards)
            env[PILE] = pile
        repeat = window is None and self._program()[st.step].repeat  # read before `then end turn` moves the step
        for effect in play.effects:
            effect(env)
        self._played(window, seat, repeat)

    def _play_value(self, play: CPlay, value: str | int, target_seat: int, seat: int) -> None:
        """A play of no card: the seat names a value (and a seat, if the play chooses one), and
        the play's effects run."""
        st, env = self.state, self.env
        window = st.window
        env[SELF], env[CHOICE], env[CHOSEN] = seat, value, target_seat
        repeat = window is None and self._program()[st.step].repeat
        for effect in play.effects:
            effect(env)
        self._played(window, seat, repeat)

    def _play_meld(self, play: CPlay, faces: tuple[int, ...], target_seat: int, seat: int) -> None:
        """A meld: its cards leave the seat's zone together, onto the destination (a new pile
        in a zone of piles), and the play's effects run with the set as its name."""
        st, env = self.state, self.env
        window = st.window
        hand = st.zones[play.card_zone][seat]
        cards = [self._take_face(hand, f, seat) for f in faces]
        for card in cards:
            st.played[card] = seat
        zone = st.zones[play.dest_zone]
        if target_seat >= 0:
            zone = zone[target_seat]
        env[SELF], env[MELD], env[TARGET], env[OWNER] = seat, cards, zone, target_seat
        if self.c.model.zones[play.dest_zone].piles:
            pile = list(cards)
            zone.append(pile)
            env[PILE] = pile
        else:
            zone.extend(cards)
        repeat = window is None and self._program()[st.step].repeat
        self._meld_effects(play)
        self._played(window, seat, repeat)

    def _meld_effects(self, play: CPlay) -> None:
        for effect in play.effects:
            effect(self.env)

    def _played(self, window: list[int] | None, seat: int, repeat: bool) -> None:
        """A play is made: it counts, the turn (or the window) goes on, the round may end."""
        st, env = self.state, self.env
        st.plays += 1
        st.round_plays += 1
        st.idle_turns = env[PASSES] = 0
        if window is not None:  # the window goes on from the next seat, its count of passes begun again
            window[0], window[1] = self._next_seat(seat), 0
        elif not repeat:  # `may play any of` stays on its step until a pass
            st.step += 1
        reason = self._round_end()
        if reason is not None:
            self._end_round(reason)
        elif window is None:
            self._open_window()
        if st.silent and st.window is None:
            st.silent.clear()
        self._advance()

    def _pass_step(self) -> None:
        """The seat passes at its play step: it counts, and the turn goes on like after a play."""
        st, env = self.state, self.env
        st.idle_turns = env[PASSES] = st.idle_turns + 1
        st.passed = env[PASSED] = True
        st.step += 1
        reason = self._round_end()
        if reason is not None:
            self._end_round(reason)
        else:
            self._open_window()

    def _program(self) -> tuple[CStep, ...]:
        """The steps of the turn under way: the final round's, once it has begun."""
        final = self.c.final
        return final.steps if final is not None and self.state.final_turns >= 0 else self.c.turn

    def _budget(self) -> int:
        longest = max(len(self.c.turn), len(self.c.final.steps) if self.c.final else 0)
        return (longest + 1) * self.n * (self.c.deck_size + 2)

    def _turn_over(self) -> str | None:
        """A turn has run its last step: the next seat's turn begins, or the final round, or,
        after the last final turn, the round ends (its name is returned)."""
        st, env = self.state, self.env
        st.step = 0
        st.passed = env[PASSED] = False
        final = self.c.final
        if final is None:
            pass
        elif st.final_turns > 0:
            st.final_turns -= 1
            if st.final_turns == 0:
                return final.name
            st.active = self._next_seat(st.active)
            return None
        elif st.final_turns < 0 and final.when(env):
            st.final_turns = self.n  # every seat, from the next one on, takes one final turn
            st.next_turns.clear()
            if final.seat_order:  # in seat order: by number, whatever the direction of play
                st.direction = 1
            st.active = self._next_seat(st.active)
            return None
        st.active = st.next_turns.pop(0) if st.next_turns else self._next_seat(st.active)
        return None

    def _take_face(self, hand: list[int], face: int, seat: int) -> int:
        """Take a card of this face out of the hand (the first one: copies are alike)."""
        face_of = self.c.face_of
        for k, card in enumerate(hand):
            if face_of[card] == face:
                del hand[k]
                return card
        raise IllegalMoveError(f"seat {seat} holds no {self.c.faces[face]}")

    def _next_seat(self, seat: int) -> int:
        return (seat + self.state.direction) % self.n

    def _open_window(self) -> None:
        """After a completed step, the response window opens, if the rules have one and its
        condition holds; it asks the seat whose turn it is first."""
        window = self.c.window
        if window is not None and self.state.final_turns < 0:
            env = self.env
            env[SELF] = self.state.active
            if window.when is None or window.when(env):
                self.state.window = [self.state.active, 0]

    # ---------------------------------------------------------------- the turn program

    def _advance(self) -> None:
        """Run automatic steps until a seat must decide or the match is over. Steps run with
        no decision are counted: enough of them to empty the deck at every seat and still no
        decision means the round can no longer end, whatever the rules say."""
        st, env, n = self.state, self.env, self.n
        budget = self._budget()
        passes, seen = 0, None  # passes with no decision, and the state after the last whole cycle of them
        while not st.over:
            budget -= 1
            if budget < 0:
                raise EngineError(f"round {st.round + 1} cannot end: the seats pass or skip every step and "
                                  "no 'end round' condition holds",
                                  "every round needs an `end round` condition that the play can reach")
            window = st.window
            if window is not None:
                seat, passes = window
                if passes >= n:  # a full round of passes closes it
                    st.window = None
                    st.silent.clear()
                    continue
                # a window is open only in rules that have one
                actions = self._generate(seat, cast(CStep, self.c.window)) if seat not in st.silent else None
                if actions:
                    actions.append(PASS)
                    self._actions = actions
                    return
                window[0], window[1] = self._next_seat(seat), passes + 1  # nothing to play: a pass
                continue
            turn = self._program()
            if st.step >= len(turn):
                reason = self._turn_over()
                if reason is not None:
                    self._end_round(reason)
                    budget = self._budget()
                continue
            step = turn[st.step]
            if step.when is not None:
                env[SELF] = st.active
                if not step.when(env):
                    st.step += 1
                    continue
            if step.kind == "play":
                actions = self._generate(st.active, step)
                if actions:
                    if step.optional:
                        actions.append(PASS)
                    self._actions = actions
                    return
                if not step.or_pass:
                    names = ", ".join(p.name for p in step.plays)
                    raise EngineError(f"seat {st.active} has no legal {names} and this step allows no pass: "
                                      f"write `play one of {names} or pass` if a seat with none passes")
                self._pass_step()
                passes += 1
                if passes % n == 0:  # progress.py: a whole cycle of seats passed; the same state again repeats for ever
                    now = idle_state(self)
                    if now is not None and now == seen:
                        raise EngineError(*idle_round(self))
                    seen = now
                continue
            elif step.kind == "effect":
                env[SELF] = st.active
                cast(Fn, step.effect)(env)  # an effect step has its effect (compile._steps)
            else:
                source = st.zones[step.source]
                hand = st.zones[step.dest][st.active]
                env[SELF] = st.active
                for _ in range(min(cast(Fn, step.count)(env), len(source))):  # a draw step has its count
                    hand.append(source.pop())
            st.step += 1
            reason = self._round_end()
            if reason is not None:
                self._end_round(reason)
                budget = self._budget()
            else:
                self._open_window()
        self._actions = []

    def _generate(self, seat: int, step: CStep) -> list[Action]:
        env, zones, face_of = self.env, self.state.zones, self.c.face_of
        env[SELF] = seat
        out: list[Action] = []
        add = out.append
        by_zone: dict[int, dict[int, int]] = {}  # a hand's distinct faces, once for all the plays from it
        for play in step.plays:
            if play.value is not None:
                self._values_open(play, play.value, seat, add)
                continue
            if play.meld is not None:
                seats = (-1,) if not play.dest_seats else self._dest_seats(play, seat)
                meld_actions(play, play.meld.where, env, zones[play.card_zone][seat], face_of, seats, add, MELD)
                continue
            hand = zones[play.card_zone][seat]
            if not hand:
                continue
            distinct = by_zone.get(play.card_zone)
            if distinct is None:
                distinct = by_zone[play.card_zone] = {}
                for card in hand:
                    distinct.setdefault(face_of[card], card)
            faces = play.faces
            if faces is not None and faces.isdisjoint(distinct):
                continue
            dest = zones[play.dest_zone]
            if not play.dest_seats:
                targets = [(-1, dest)]
            else:
                seats = self._dest[play.dest_seats][seat] if play.dest_seat is None else self._dest_seats(play, seat)
                targets = [(t, dest[t]) for t in seats]
            new, onto, keep = play.new_pile, play.onto_pile, play.card_filter
            plain = new is None and onto is None
            for face, card in distinct.items():
                if faces is not None and face not in faces:
                    continue
                env[CARD] = card
                if keep is not None and not keep(env):
                    continue
                for key in ((face,) if play.mate is None else self._mates(play.mate, seat, face, card)):
                    if play.choose is not None:
                        env[TARGET] = dest
                        self._chosen_targets(play, play.choose, key, seat, add)
                        continue
                    for t, zone in targets:
                        env[TARGET], env[OWNER] = zone, t
                        if plain or (new is not None and new(env)):
                            add((play, key, t, -1))
                        if onto is not None:
                            for i, pile in enumerate(zone):
                                env[PILE] = pile
                                if onto(env):
                                    add((play, key, t, i))
        return out

    def _values_open(self, play: CPlay, choice: CChoice, seat: int, add: Callable[[Action], None]) -> None:
        """The actions of a play of no card: each value its condition keeps, for each seat it
        may choose (or none), in the attribute's order."""
        env = self.env
        values, keep = choice.values, choice.where
        chosen: list[int] = []
        if play.choose is None:
            chosen.append(-1)
        else:
            where = play.choose.where
            for t in self._dest[play.choose.seats][seat]:
                env[CHOSEN] = t
                if where is None or where(env):
                    chosen.append(t)
        for t in chosen:
            env[CHOSEN] = t
            for value in values:
                env[CHOICE] = value
                if keep is None or keep(env):
                    add((play, value, t, -1))

    def _dest_seats(self, play: CPlay, seat: int) -> tuple[int, ...]:
        """The seats whose zone a play may put its card in, for the seat playing it."""
        if play.dest_seat is not None:
            self.env[SELF] = seat
            return (play.dest_seat(self.env),)
        return self._dest[play.dest_seats][seat]

    def _mates(self, mate: CMate, seat: int, face: int, card: int) -> Iterator[tuple[int, int]]:
        """The second cards a compound play may take with `card`: one per face that its
        condition keeps, never `card` itself; each yields the pair of faces, with env[MATE] set."""
        env, face_of = self.env, self.c.face_of
        zone, keep = mate.zone, mate.where
        distinct: dict[int, int] = {}
        for other in self.state.zones[zone][seat]:
            if other != card:
                distinct.setdefault(face_of[other], other)
        for mate_face, mate_card in distinct.items():
            env[MATE] = mate_card
            if keep is None or keep(env):
                yield (face, mate_face)

    def _chosen_targets(self, play: CPlay, choose: CChoose, face: int | tuple[int, int], seat: int,
                        add: Callable[[Action], None]) -> None:
        """The actions of a play that names a seat or a pile besides its card."""
        env, zones = self.env, self.state.zones
        kind, piles_zone, seats, keep = choose.kind, choose.piles_zone, choose.seats, choose.where
        for t in self._dest[seats][seat]:
            if kind == "seat":
                env[CHOSEN] = t
                if keep is None or keep(env):
                    add((play, face, t, -1))
                continue
            for i, pile in enumerate(zones[piles_zone][t]):
                env[CHOSEN] = pile
                if keep is None or keep(env):
                    add((play, face, t, i))

    def _round_end(self) -> str | None:
        env = self.env
        for name, cond in self.c.round_ends:
            if cond(env):
                return name
        return None

    def round_scores(self) -> list[int]:
        """What each seat's round would score if it ended now."""
        c, env = self.c, self.env
        slot = c.score_slot
        saved, scores = env[slot], []
        for seat in range(self.n):
            env[slot] = seat
            scores.append(c.score(env))
        env[slot] = saved
        return scores

    def _end_round(self, reason: str) -> None:
        st, env = self.state, self.env
        self._cleanup()
        scores = self.round_scores()
        st.totals = [a + b for a, b in zip(st.totals, scores, strict=True)]
        st.results.append(RoundResult(st.round, reason, tuple(scores), tuple(st.totals), st.round_plays))
        env[TOTALS], env[ROUND] = st.totals, st.round + 1
        if self.c.until(env):
            st.over = True
            return
        stalled = stalled_match(self)  # progress.py: the one place that judges a match stuck
        if stalled is not None:
            raise EngineError(*stalled)
        if st.round + 1 >= MAX_ROUNDS:
            raise EngineError(f"the match has not ended after {MAX_ROUNDS:,} rounds: its 'until' never holds",
                              f"check `until {unparse(self.c.model.match.until)}` against the totals, "
                              f"now {list(st.totals)}")
        st.round += 1
        self._start_round()

    def _cleanup(self) -> None:
        """The round is over: cleanup moves cards, from a shared zone or from every seat's (seat 0
        first), before the round is scored."""
        zones, env = self.state.zones, self.env
        for move in self.c.cleanup:
            source = zones[move.source]
            per_seat = self.c.model.zones[move.source].per_seat
            for seat in range(self.n) if per_seat else (None,):
                env[SELF] = seat
                zones[move.dest].extend(self._take(source if seat is None else source[seat], move.count, move.where))

    def _start_round(self) -> None:
        st, env = self.state, self.env
        st.zones = empty_zones(self.c)
        env[ZONES], env[ROUND], env[TOTALS] = st.zones, st.round, st.totals
        st.active = self.c.starter(env) % self.n
        st.step, st.round_plays, st.idle_turns, st.passed = 0, 0, 0, False
        st.direction, st.next_turns, st.window, st.final_turns = 1, [], None, -1
        st.silent.clear()
        env[PASSES], env[PASSED] = 0, False
        st.played = [-1] * (self.c.deck_size + 1)
        order = [(st.active + k) % self.n for k in range(self.n)]
        for op in self.c.setup:
            if isinstance(op, CShuffle):
                deck = list(range(self.c.deck_size))
                self.rng.shuffle(deck)
                st.zones[op.zone] = deck
            elif isinstance(op, CLet):
                env[ZONES] = st.zones
                st.values[op.value] = op.init(env)
            else:
                env[ZONES] = st.zones
                zones, source, dest = self.c.model.zones, op.source, op.dest
                mine = not op.deal and zones[source].per_seat  # every seat's cards, each to its own zone
                for seat in order if op.deal or mine else (None,):
                    env[SELF] = seat
                    into = st.zones[dest][seat] if zones[dest].per_seat else st.zones[dest]
                    take = st.zones[source][seat] if mine else st.zones[source]
                    into.extend(self._take(take, op.count, op.where))
        env[ZONES] = st.zones

    def _take(self, source: list[int], count: int | None, keep: Fn | None) -> list[int]:
        """Up to `count` cards (all, for None) from the top of `source` down, only those for
        which `keep` holds when it is given; they leave `source` and come back top first."""
        if keep is None:
            return [source.pop() for _ in range(len(source) if count is None else min(count, len(source)))]
        env = self.env
        taken: list[int] = []
        for i in range(len(source) - 1, -1, -1):
            if count is not None and len(taken) >= count:
                break
            env[CARD] = source[i]
            if keep(env):
                taken.append(source.pop(i))
        return taken

    # ---------------------------------------------------------------- positions

    def setup_round(self) -> None:
        """Lay out the round as its setup does and stop there, before any step runs: for
        summaries of what a setup deals, and for tests."""
        self._start_round()

    def set_position(self, zones: dict[str, Any], *, active: int = 0, round: int = 0, totals: list[int] | None = None,
                     rest: str | None = None, values: dict[str, Any] | None = None) -> None:
        """Put the match in a given position, for scenarios and tests, then run on to the first
        decision. `zones` maps a zone's name to its faces (top last): a list for a shared zone,
        a list per seat (or a dict seat -> list) for a per-seat zone, piles as lists of faces.
        Cards not named go to the zone `rest` (shuffled), or nowhere when `rest` is None.
        `values` maps a named value to what it holds (a card by its face); the others are set
        as the match and the round's setup would set them on this table.
        Raises `PositionError` for an unknown zone, face or value, or more copies than the deck has."""
        free: dict[int, list[int]] = {}
        for card in range(self.c.deck_size - 1, -1, -1):
            free.setdefault(self.c.face_of[card], []).append(card)

        def take(face: object) -> int:
            index = self.c.face_index.get(str(face).lower())
            if index is None:
                raise PositionError(f"no card is called '{face}'")
            if not free.get(index):
                raise PositionError(f"the deck has no more copies of '{face}'")
            return free[index].pop()

        def fill(zone: m.Zone, content: list[Any]) -> list[Any]:
            if zone.piles:
                if any(not pile for pile in content):
                    raise PositionError(f"zone '{zone.name}' holds an empty pile; a pile holds one card at least")
                return [[take(f) for f in pile] for pile in content]
            return [take(f) for f in content]

        st = self.state
        st.zones = empty_zones(self.c)
        by_name = {z.name: (i, z) for i, z in enumerate(self.c.model.zones)}
        for name, content in zones.items():
            if name not in by_name:
                raise PositionError(f"no zone '{name}'; zones: {', '.join(by_name)}")
            index, zone = by_name[name]
            if zone.per_seat:
                seats = dict(enumerate(content)) if isinstance(content, list) else content
                for seat, cards in seats.items():
                    if not 0 <= int(seat) < self.n:
                        raise PositionError(f"zone '{name}' names seat {seat}; seats are 0 to {self.n - 1}")
                    st.zones[index][int(seat)] = fill(zone, cards)
            else:
                st.zones[index] = fill(zone, content)
        if rest is not None:
            if rest not in by_name or by_name[rest][1].per_seat or by_name[rest][1].piles:
                raise PositionError(f"'rest' must name a shared zone of cards, not '{rest}'")
            leftover = sorted(c for cards in free.values() for c in cards)
            self.rng.shuffle(leftover)
            st.zones[by_name[rest][0]][:0] = leftover
        if not 0 <= active < self.n:
            raise PositionError(f"seat {active} does not exist; seats are 0 to {self.n - 1}")
        st.active, st.round, st.step, st.over = active, round, 0, False
        st.totals = list(totals) if totals is not None else [0] * self.n
        st.round_plays = st.idle_turns = 0
        st.passed = False
        st.direction, st.next_turns, st.window, st.final_turns = 1, [], None, -1
        st.silent.clear()
        st.played = [-1] * (self.c.deck_size + 1)
        env = self.env
        env[ZONES], env[ROUND], env[TOTALS], env[PASSES], env[PASSED] = st.zones, round, st.totals, 0, False
        self._match_values()
        for op in self.c.setup:  # the round's values, as its setup would set them on this table
            if isinstance(op, CLet):
                st.values[op.value] = op.init(env)
        by_value = {v.name: k for k, v in enumerate(self.c.model.values)}
        for name, given in (values or {}).items():
            if name not in by_value:
                raise PositionError(f"no value '{name}'; values: {', '.join(by_value) or 'none'}")
            st.values[by_value[name]] = self._value_of(self.c.model.values[by_value[name]], given)
        self._advance()

    def _value_of(self, value: m.Value, given: object) -> object:
        """A value given in a position, in the type the ruleset gives it."""
        t = value.type
        if t == "card":
            index = self.c.face_index.get(str(given).lower())
            if index is None:
                raise PositionError(f"value '{value.name}' holds a card; no card is called '{given}'")
            return next(c for c, f in enumerate(self.c.face_of) if f == index)
        if t.startswith("enum:"):
            names = [x.name for a in self.c.model.attributes if a.name == t[5:] for x in a.values]
            if given not in names:
                raise PositionError(f"value '{value.name}' holds one of {', '.join(names)}, not '{given}'")
            return given
        if t == "bool":
            if not isinstance(given, bool):
                raise PositionError(f"value '{value.name}' holds true or false, not '{given}'")
            return given
        if not isinstance(given, int) or isinstance(given, bool) or (t == "seat" and not 0 <= given < self.n):
            raise PositionError(f"value '{value.name}' holds {'a seat' if t == 'seat' else 'a number'}, not '{given}'")
        return given

    # ---------------------------------------------------------------- explaining

    def why_illegal(self, move: Move) -> str:
        """Which rule forbids `move` now, with that rule's provenance."""
        if self.state.over:
            return "the match is over"
        open_plays = self.open_plays()
        if move.play == "pass" and not move.card:
            return f"no pass is open now: seat {self.to_move} must make one of {', '.join(open_plays)}" + (
                "" if "pass" in open_plays else " (a pass is open in a response window, and passes happen by "
                "themselves where the rules say `or pass`)")
        play = next((p for p in self.c.plays if p.name == move.play), None)
        if play is None:
            return f"there is no play '{move.play}'; the plays open now: {', '.join(open_plays) or 'none'}"
        if play.name not in open_plays:
            return f"'{play.name}' is not open now; open: {', '.join(open_plays) or 'none'}"
        seat = self._mover()
        model = play.model
        if play.value is not None and model.value is not None:
            return self._why_not_value(play, play.value, model.value, move, seat)
        if play.meld is not None and model.meld is not None:
            return self._why_not_meld(play, play.meld, model.meld, move, seat)
        parts = move.card.split("+")
        if (len(parts) == 2) != (play.mate is not None):
            return (f"'{play.name}' plays two cards: write them FIRST+SECOND, e.g. {play.name} A+B" if play.mate
                    else f"'{play.name}' plays one card")
        unknown = next((p for p in parts if p.lower() not in self.c.face_index), None)
        if unknown is not None:
            return f"no card is called '{unknown}'"
        face = self.c.face_index[parts[0].lower()]
        env, zones = self.env, self.state.zones
        card = next((c for c in zones[play.card_zone][seat] if self.c.face_of[c] == face), None)
        if card is None:
            return f"seat {seat} holds no {self.c.faces[face]} in {model.card_zone}"
        env[SELF], env[CARD] = seat, card
        if (play.faces is not None and face not in play.faces) or (
                play.card_filter is not None and not play.card_filter(env)):
            return self._because(f"{self.c.faces[face]} may not be played", model.card_filter, model.card_provenance)
        if play.mate is not None and model.mate is not None:
            mate_face = self.c.face_index[parts[1].lower()]
            mate = next((c for c in zones[play.mate.zone][seat] if self.c.face_of[c] == mate_face and c != card), None)
            if mate is None:
                return f"seat {seat} holds no other {self.c.faces[mate_face]} in {model.mate.zone}"
            env[MATE] = mate
            if play.mate.where is not None and not play.mate.where(env):
                return self._because(f"{self.c.faces[mate_face]} may not go with {self.c.faces[face]}",
                                     model.mate.where, model.mate.provenance)
        if play.choose is not None and model.choose is not None:
            return self._why_not_chosen(play.name, play.choose, model.choose, move, seat)
        if not model.dest_seats:
            if move.seat is not None:
                return f"'{play.name}' goes to the shared {model.dest_zone}: leave out @{move.seat}"
            zone, where, at = zones[play.dest_zone], f"the {model.dest_zone}", ""
        else:
            if move.seat is None:
                return f"'{play.name}' goes to a seat's {model.dest_zone}: add @SEAT, e.g. @{seat}"
            if not 0 <= move.seat < self.n:
                return f"there is no seat {move.seat}; seats are 0 to {self.n - 1}"
            if move.seat not in self._dest_seats(play, seat):
                whose = SEATS_TEXT.get(model.dest_seats) or unparse(model.dest_seat)
                return self._because(f"'{play.name}' may not go to seat {move.seat}",
                                     f"to {model.dest_zone} of {whose}", model.dest_provenance)
            zone, where, at = zones[play.dest_zone][move.seat], f"seat {move.seat}'s {model.dest_zone}", f"@{move.seat}"
        env[TARGET], env[OWNER] = zone, -1 if move.seat is None else move.seat
        if play.new_pile is None and play.onto_pile is None:
            if move.pile is not None:
                return f"{where} holds cards, not piles: leave out /{move.pile}"
            return f"'{play.name}' with {self.c.faces[face]} is not open now"
        if move.pile is None:
            if model.new_pile is None:
                return f"'{play.name}' makes no new pile: name a pile, e.g. {at}/0"
            return self._because("a new pile is not allowed here", model.new_pile.expr, model.new_pile.provenance)
        if model.onto_pile is None:
            return f"'{play.name}' does not go onto a pile: leave out /{move.pile}"
        if not 0 <= move.pile < len(zone):
            return f"{where} has {len(zone)} piles" + (f", numbered 0 to {len(zone) - 1}" if zone else "")
        return self._because(f"{self.c.faces[face]} may not go onto pile {move.pile}", model.onto_pile.expr,
                             model.onto_pile.provenance)

    def _why_not_value(self, play: CPlay, choice: CChoice, rule: m.Choose, move: Move, seat: int) -> str:
        """Why a play of no card may not name this value (and seat) now."""
        model, env = play.model, self.env
        values = choice.values
        example = f"{play.name} {values[0]}" + (" @1" if play.choose else "")
        if move.pile is not None or (move.seat is None) != (play.choose is None):
            return f"'{play.name}' names a value{' and a seat' if play.choose else ''}: write e.g. {example}"
        env[SELF] = seat
        if play.choose is not None and model.choose is not None and move.seat is not None:
            if not 0 <= move.seat < self.n:
                return f"there is no seat {move.seat}; seats are 0 to {self.n - 1}"
            seats, where = play.choose.seats, play.choose.where
            env[CHOSEN] = move.seat
            if move.seat not in self._dest[seats][seat] or (where is not None and not where(env)):
                return self._because(f"'{play.name}' may not choose seat {move.seat}", model.choose.where or
                                     f"choose seat {model.choose.name} of {SEATS_TEXT[seats]}",
                                     model.choose.provenance)
        value = next((v for v in values if str(v).lower() == move.card.lower()), None)
        if value is None:
            return (f"'{move.card}' is not a value of {rule.zone}: its values are "
                    f"{', '.join(map(str, values))}")
        env[CHOICE] = value
        if rule.where is None:
            return f"'{play.name}' {value} is not open now"
        return self._because(f"'{play.name}' may not name {value}", rule.where, rule.provenance)

    def _why_not_meld(self, play: CPlay, meld: CMeld, rule: m.Meld, move: Move, seat: int) -> str:
        """Why a meld may not be laid: its size, a card not held, its condition, its seat."""
        model, env, zones = play.model, self.env, self.state.zones
        low, high, keep = meld.low, meld.high, meld.where
        parts = move.card.split("+")
        if not low <= len(parts) <= high:
            return f"'{play.name}' lays {low} to {high} cards: write them A+B+C, e.g. {play.name} " + "+".join(
                ["A", "B", "C"][:max(1, min(low, 3))])
        unknown = next((p for p in parts if p.lower() not in self.c.face_index), None)
        if unknown is not None:
            return f"no card is called '{unknown}'"
        cards: list[int] = []
        for part in parts:
            face = self.c.face_index[part.lower()]
            card = next((c for c in zones[play.card_zone][seat] if self.c.face_of[c] == face and c not in cards), None)
            if card is None:
                return f"seat {seat} holds no {'other ' if cards else ''}{self.c.faces[face]} in {model.card_zone}"
            cards.append(card)
        env[SELF], env[MELD] = seat, cards
        if keep is not None and not keep(env):
            return self._because(f"{move.card} is not a meld '{play.name}' lays", rule.where, rule.provenance)
        if not model.dest_seats and move.seat is not None:
            return f"'{play.name}' goes to the shared {model.dest_zone}: leave out @{move.seat}"
        if model.dest_seats and (move.seat is None or move.seat not in self._dest_seats(play, seat)):
            return f"'{play.name}' goes to a seat's {model.dest_zone}: add @SEAT, e.g. @{seat}"
        return f"'{play.name}' {move.card} is not open now"

    def _why_not_chosen(self, name: str, chosen: CChoose, choose: m.Choose, move: Move, seat: int) -> str:
        kind, piles_zone, seats = chosen.kind, chosen.piles_zone, chosen.seats
        example = "@1" if kind == "seat" else "@1/0"
        if move.seat is None or (kind == "seat") != (move.pile is None):
            return f"'{name}' names a {kind} it chooses: write e.g. {example}"
        if not 0 <= move.seat < self.n:
            return f"there is no seat {move.seat}; seats are 0 to {self.n - 1}"
        if move.seat not in self._dest[seats][seat]:
            return self._because(f"'{name}' may not choose seat {move.seat}",
                                 f"choose {kind} {choose.name} of {choose.zone + ' of ' if choose.zone else ''}"
                                 f"{SEATS_TEXT[seats]}", choose.provenance)
        if kind == "pile" and move.pile is not None:  # checked above: a pile kind names a pile
            zone = self.state.zones[piles_zone][move.seat]
            if not 0 <= move.pile < len(zone):
                return f"seat {move.seat}'s {choose.zone} has {len(zone)} piles" + (
                    f", numbered 0 to {len(zone) - 1}" if zone else "")
        return self._because(f"'{name}' may not choose that {kind}", choose.where, choose.provenance)

    @staticmethod
    def _because(what: str, condition: object, provenance: m.Provenance) -> str:
        rule = condition if isinstance(condition, str) else unparse(condition)
        where = cite(provenance)
        return f"{what}: the rule is `{rule}`" + (f" ({where})" if where else "") + (
            f" [line {provenance.line}]" if provenance.line else "")
