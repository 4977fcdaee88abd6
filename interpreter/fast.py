"""The fast engine: `engine.Game` running the generated module of `codegen.py` in place of
the closures, with the answers that cost nothing when nothing changed.

It keeps the reference's state, actions and public interface, so bots, self-play, scenarios
and invariants run on either; `tests/test_codegen.py` and `bench/engine_equivalence.py` hold
the two equal move by move. What it adds:

- each seat's response-window answer is kept until a zone its plays read changes (the
  generator knows which zones those are); a window where no seat can answer closes at once;
- an end-round condition is tested again only after a zone it reads has changed;
- `play_random`, the whole match played by the generated match loop (`codegen`'s `playout`);
- `clone()`, a copy of the match for search, that shares nothing that changes;
- `trial()`, a look one ply ahead, which may stop right after its move where the steps the match
  then runs by itself change no standing (`Plan.scored_early`).

Every change to a zone goes through `_wrote` (a play's card, its destination, a draw, the zones
an effect names) or forgets everything (an effect that may change any zone, a new round, a
position set by hand); the match loop writes `_wrote` out for each zone it changes. `_live`
lists, per window play, the seats whose share of it is a list: a change of a zone that play
reads at any seat drops the share there only.
"""
from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from . import codegen
from . import model as m
from .codegen import (
    NO_CARD,
    NO_MATE,
    CopyZones,
    FaceTable,
    Playout,
    RoundEnd,
    Shallow,
    Share,
    StartRound,
    StepActions,
    WindowActions,
    turn_steps,
)
from .compile import (
    CARD,
    CHOICE,
    CHOSEN,
    ENV_SIZE,
    MATE,
    OWNER,
    PASSES,
    PILE,
    RNG,
    SELF,
    STATE,
    TARGET,
    TOTALS,
    ZONES,
    CLet,
    CMove,
    Compiled,
    CPlay,
    CShuffle,
    CStep,
    Fn,
)
from .engine import PASS, Action, EngineError, Game, State, empty_zones
from .progress import idle_round, idle_state

_ALL = -2  # `_wrote`'s seat for "every seat's part of the zone"

# A step's parts, unpacked once: (is play, when, generate, optional, or pass, count, source, dest, step)
StepPlan: TypeAlias = tuple[bool, Fn | None, StepActions | None, bool, bool, Fn | None, int, int, CStep]
# A zone, as `_wrote` reads it: (the end-round conditions that read it, the window shares that
# read it at any seat, those that read it at the seat asked, {face: ((share, as a mate), ...)}
# for those that go through it for some faces only, those that go through it for any face, and
# which kept scores it makes stale: _NO_SCORE, _OWN_SCORE (the seat's whose part changed) or _EVERY_SCORE)
ZonePlan: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], FaceTable, tuple[int, ...], int]
_NO_SCORE, _OWN_SCORE, _EVERY_SCORE = 0, 1, 2


def fast_compiled(c: Compiled, gen: codegen.Generated) -> Compiled:
    """`c` with its closures replaced by the generated functions; its plays stay the same
    objects, so actions are equal on both engines."""
    def step(s: CStep) -> CStep:
        return replace(s, when=gen.when.get(id(s), s.when), count=gen.count.get(id(s), s.count),
                       effect=gen.effect_steps.get(id(s), s.effect))

    final = None
    if c.final is not None:
        assert gen.final_when is not None  # written for every final round
        final = replace(c.final, when=gen.final_when, steps=tuple(step(s) for s in c.final.steps))
    setup = tuple(replace(op, where=gen.setup_where[k] or op.where) if isinstance(op, CMove)
                  else replace(op, init=gen.setup_where[k] or op.init) if isinstance(op, CLet) else op
                  for k, op in enumerate(c.setup))
    values = tuple(replace(v, init=gen.values.get(k, v.init)) for k, v in enumerate(c.values))
    return replace(c, turn=tuple(step(s) for s in c.turn), final=final, score=gen.score, until=gen.until,
                   starter=gen.starter, setup=setup, values=values)


@dataclass(frozen=True)
class Plan:
    """What the fast engine works out once per compiled ruleset: the compiled ruleset with the
    generated functions in place, each step's parts, and which end-round conditions and window
    shares read each zone."""

    fast: Compiled
    programs: tuple[tuple[StepPlan, ...], ...]  # (turn, final)
    window_gen: WindowActions | None
    round_end: RoundEnd
    shares: int  # the window's plays
    keep_answers: bool  # no window play reads what changes without a zone changing
    budget: int
    copy_zones: CopyZones
    zones: tuple[ZonePlan, ...]  # per zone, as `_wrote` reads them
    keep_scores: bool  # the score reads zones only (no counter): a seat's is kept until one changes at it
    scored_early: bool  # running on to the next decision never changes a standing: a look may score before it
    effects: tuple[tuple[Fn, ...], ...]  # per play: its effect functions
    effect_writes: tuple[tuple[int, ...] | None, ...]  # per play: the zones its effects change, or None for any
    at_target: tuple[bool, ...]  # per play: its effects change its destination at the target seat alone
    playout: Playout  # the generated match loop
    start_round: StartRound  # the generated `Game._start_round`
    step_writes: dict[int, tuple[int, ...] | None]  # id(CStep) of an effect step: the zones it changes, or None for any


_PLANS: dict[int, tuple[weakref.ref[Compiled], Plan]] = {}


def plan(compiled: Compiled) -> Plan:
    found = _PLANS.get(id(compiled))
    if found is not None and found[0]() is compiled:
        return found[1]
    gen = codegen.generated(compiled)
    fast = fast_compiled(compiled, gen)
    gens = {id(s): gen.generate[id(o)] for s, o in zip(turn_steps(fast), turn_steps(compiled), strict=True)
            if id(o) in gen.generate}
    reads = gen.window_reads or ()
    hand = codegen.face_tables(gen.zone_caches, gen.window_faces)
    step_writes = {id(s): codegen.effect_writes(compiled, None, (e.effect,))
                   for s, e in zip(turn_steps(fast), _model_steps(compiled.model), strict=True)
                   if isinstance(e, m.EffectStep)}
    result = Plan(
        fast=fast,
        programs=tuple(tuple((s.kind == "play", s.when, gens.get(id(s)), s.optional, s.or_pass, s.count,
                              s.source, s.dest, s) for s in steps)
                       for steps in (fast.turn, fast.final.steps if fast.final else ())),
        window_gen=gen.window_generate,
        round_end=gen.round_end, shares=len(reads), keep_answers=not any(r.counters for r in reads),
        budget=codegen.step_budget(compiled), copy_zones=gen.copy_zones, effects=gen.effects,
        zones=tuple((readers, coarse, own, faces, any_face, _scored(z, gen.score_reads))
                    for z, ((readers, coarse, own, _, any_face), faces)
                    in enumerate(zip(gen.zone_caches, hand, strict=True))),
        keep_scores=not gen.score_reads.counters,
        effect_writes=tuple(codegen.effect_writes(compiled, p) for p in compiled.plays), playout=gen.playout,
        at_target=tuple(codegen.merges_at_target(p) for p in compiled.plays),
        start_round=gen.start_round,
        step_writes=step_writes,
        scored_early=_standing_settled(fast, gen.score_reads, step_writes))
    cid = id(compiled)
    _PLANS[cid] = (weakref.ref(compiled, lambda _: _PLANS.pop(cid, None)), result)
    return result


def _scored(zone: int, reads: codegen.Reads) -> int:
    """Which kept scores a change of `zone` makes stale, by what the score reads (`_OWN_SCORE`:
    it reads the zone at the seat scored only)."""
    if zone in reads.zones:
        return _EVERY_SCORE
    return _OWN_SCORE if zone in reads.own else _NO_SCORE


def _standing_settled(fast: Compiled, reads: codegen.Reads, step_writes: dict[int, tuple[int, ...] | None]) -> bool:
    """Whether the steps a match runs by itself after a move, up to the next decision, leave every
    seat's standing (`outcome.standing`) as it was, whatever the position: then a one-ply look may
    score the move before the engine runs on (`FastGame.trial`), which spares a third of a look.

    So when the score reads zones only, which no draw, effect step or cleanup changes, and a new
    round's deal leaves them empty with every score at 0: a round that ends by itself then adds
    to the totals what the round scores stood at, and the new one stands at 0. Windows, passes,
    turns and a final round change no zone."""
    if reads.counters:
        return False
    scored = reads.zones | reads.own | reads.hand
    for step in turn_steps(fast):
        if step.kind == "effect":
            writes = step_writes[id(step)]
            if writes is None or scored.intersection(writes):
                return False
        elif step.kind == "draw" and {step.source, step.dest} & scored:
            return False
    for op in (*fast.setup, *fast.cleanup):
        if isinstance(op, CMove) and {op.source, op.dest} & scored or isinstance(op, CShuffle) and op.zone in scored:
            return False
    env: list[Any] = [None] * ENV_SIZE
    env[ZONES] = empty_zones(fast)
    for seat in range(fast.players):
        env[fast.score_slot] = seat
        try:
            if fast.score(env) != 0:
                return False
        except Exception:  # noqa: BLE001 - a score that cannot be worked out on an empty table settles nothing
            return False
    return True


class FastGame(Game):
    """One match on the generated engine; the same interface as `engine.Game`."""

    def __init__(self, compiled: Compiled, seed: int = 0, *, deal: bool = True):
        p = self._plan = plan(compiled)
        self.reference = compiled
        self._programs, self._window_gen, self._round_end_fn = p.programs, p.window_gen, p.round_end
        self._shares, self._keep_answers, self._budget_value = p.shares, p.keep_answers, p.budget
        self._zone_plans = p.zones
        self._keep_scores = p.keep_scores
        self._copy_zones, self._effects, self._effect_writes = p.copy_zones, p.effects, p.effect_writes
        self._at_target = p.at_target
        self._step_writes = p.step_writes
        self._playout, self._start_round_fn = p.playout, p.start_round
        self._face_of = compiled.face_of
        self._behind = False  # a look's copy, stopped right after its move (`trial`)
        self._fresh()
        super().__init__(p.fast, seed, deal=deal)

    def _fresh(self) -> None:
        """Nothing kept yet: every score, end-round test and window answer to work out."""
        n = self.reference.players
        self._scores: list[int | None] = [None] * n  # per seat: its round score now, None unknown
        self._dirty = [True] * len(self.reference.round_ends)
        self._answers: list[list[Action] | None] = [None] * n  # per seat: its window actions (no pass), None unknown
        self._parts: list[list[Share]] = [[None] * self._shares for _ in range(n)]  # per seat: each window play's share
        # per share: the seats where it is a list (may be stale)
        self._live: list[set[int]] = [set() for _ in range(self._shares)]
        # the random source's state, read for copies; None once it is drawn on
        self._rng_state: tuple[Any, ...] | None = None

    def resumed(self, state: State, seed: int) -> FastGame:
        """`resume(self.reference, state, seed)` from a match made with `deal=False`, at the cost
        of a copy of its settings rather than making them again: a search resumes a sampled world
        at every iteration (`worlds.Sampler`). `state` is taken as it is, not copied."""
        other = object.__new__(FastGame)
        other.__dict__.update(self.__dict__)
        rng = random.Random(seed)
        other.env, other.rng, other.seed, other._actions = list(self.env), rng, seed, []
        other.env[RNG] = rng
        other._go_on_from(state)
        other._fresh()
        other._advance()
        return other

    # ---------------------------------------------------------------- what changed

    def _wrote(self, zone: int, seat: int, cards: Sequence[int] | None = None, arrived: bool = False) -> None:
        """Zone `zone` changed (at `seat`, or at every seat for _ALL), by these cards coming
        (`arrived`) or going (None: unknown): the end-round conditions and the window shares
        that read it are worked out again when next needed; a hand share only if a card of a
        face it takes moved, and an empty one (`Shallow`) only if such a card came."""
        readers, coarse, own, hand, any_face, scored = self._zone_plans[zone]
        if scored:
            if scored == _EVERY_SCORE or seat < 0:
                self._scores = [None] * self.n
            else:
                self._scores[seat] = None
        if readers:
            dirty = self._dirty
            for k in readers:
                dirty[k] = True
        if coarse:
            answers = self._answers
            for s, parts in enumerate(self._parts):
                for k in coarse:
                    part = parts[k]
                    if part is not None and part.__class__ is not Shallow:
                        parts[k] = None
                        answers[s] = None
        if own:
            for s in (range(self.n) if seat < 0 else (seat,)):
                parts = self._parts[s]
                for k in own:
                    parts[k] = None
                self._answers[s] = None
        if hand or any_face:
            for s in (range(self.n) if seat < 0 else (seat,)):
                parts = self._parts[s]
                touched = bool(any_face)
                for k in any_face:
                    parts[k] = None
                if cards is None:
                    for ks in hand.values():
                        for k, _ in ks:
                            parts[k] = None
                    touched = True
                else:
                    for card in cards:
                        for k, as_mate in hand.get(self._face_of[card], ()):
                            part = parts[k]
                            if part is None or (part is NO_CARD and (as_mate or not arrived)) or (
                                    part is NO_MATE and not (as_mate and arrived)):
                                continue
                            parts[k] = None
                            touched = True
                if touched:
                    self._answers[s] = None

    def _wrote_all(self, writes: tuple[int, ...] | None) -> None:
        """Effects changed these zones at any seat (None: any zone, or the random source)."""
        if writes is None:
            self._forget()
        else:
            for z in writes:
                self._wrote(z, _ALL)

    def _play_value(self, play: CPlay, value: str | int, target_seat: int, seat: int) -> None:
        """`Game._play_value` with the generated effects, telling `_wrote` what they changed."""
        st, env = self.state, self.env
        window = st.window
        env[SELF], env[CHOICE], env[CHOSEN] = seat, value, target_seat
        repeat = window is None and self._programs[st.final_turns >= 0][st.step][8].repeat
        for effect in self._effects[play.index]:
            effect(env)
        self._wrote_all(self._effect_writes[play.index])
        self._played(window, seat, repeat)

    def _meld_effects(self, play: CPlay) -> None:
        """A meld's effects, generated; a meld moves several cards, so every answer is worked out again."""
        for effect in self._effects[play.index]:
            effect(self.env)
        self._forget()

    def _forget(self) -> None:
        """Everything may have changed: a new round, a position set by hand, a move of cards."""
        self._rng_state = None  # a new round shuffles; an effect may draw at random
        self._scores = [None] * self.n
        self._dirty[:] = [True] * len(self._dirty)
        self._answers[:] = [None] * self.n
        for parts in self._parts:
            parts[:] = [None] * self._shares
        for seats in self._live:
            seats.clear()

    # ---------------------------------------------------------------- the engine's hooks

    def _budget(self) -> int:
        return self._budget_value

    def _generate(self, seat: int, step: CStep) -> list[Action]:
        """The actions of a play step (or the window) for `seat`, as `Game._generate` gives them."""
        if step is self.c.window:
            assert self._window_gen is not None  # the ruleset has a window
            return self._window_gen(self.env, seat, [None] * self._shares, self._live)
        generate = next(p[2] for p in (*self._programs[0], *self._programs[1]) if p[8] is step)
        assert generate is not None  # every play step has its generator
        return generate(self.env, seat)

    def _round_end(self) -> str | None:
        return self._round_end_fn(self.env, self._dirty)

    def _start_round(self) -> None:
        self._forget()
        self._start_round_fn(self)

    def set_position(self, *args: Any, **kwargs: Any) -> None:  # whatever `Game.set_position` takes
        self._forget()
        super().set_position(*args, **kwargs)

    def _cleanup(self) -> None:
        super()._cleanup()
        self._forget()  # it moves cards without `_wrote`

    def round_scores(self) -> list[int]:
        """`Game.round_scores`, each seat's kept until a zone its score reads changes (at that
        seat, where the score reads the zone at the seat scored only): a one-ply trial
        (`outcome.margin_after`) then works out only the seats its move touched."""
        if not self._keep_scores:
            return super().round_scores()
        scores = self._scores
        if None in scores:
            c, env = self.c, self.env
            slot = c.score_slot
            saved = env[slot]
            for seat, known in enumerate(scores):
                if known is None:
                    env[slot] = seat
                    scores[seat] = c.score(env)
            env[slot] = saved
        return list(scores)  # type: ignore[arg-type]  # none is None now

    def _window_actions(self, seat: int) -> list[Action]:
        """The seat's window actions, without the pass: kept while nothing they read changed."""
        if not self._keep_answers:
            # asked only with a window open, so the ruleset has one (no test on the hot path)
            return self._window_gen(self.env, seat, [None] * self._shares, self._live)  # type: ignore[misc]
        found = self._answers[seat]
        if found is None:
            found = self._answers[seat] = self._window_gen(  # type: ignore[misc]  # as above
                self.env, seat, self._parts[seat], self._live)
        return found

    def _nobody_answers(self, silent: set[int]) -> bool:
        answers = self._answers
        for s in range(self.n):
            if s not in silent and (answers[s] if answers[s] is not None else self._window_actions(s)):
                return False
        return True

    def play_random(self, choose: Callable[[list[Action]], Action], bound: int) -> None:
        """Play the match to its end, `choose(actions)` making every decision, as `bots.play_out`
        plays it with one random bot at every seat (`choose` its `rng.choice`): the same
        decisions, the same state, the same errors; an `EngineError` once a round's plays pass
        `bound`. The generated match loop (`codegen`'s `playout`) runs it; when `choose` is the
        `choice` of a plain `random.Random`, the loop draws as `choice` does (`seq[r]` for the
        first `r = getrandbits(len(seq).bit_length())` below `len(seq)`), without its calls."""
        rng: Any = getattr(choose, "__self__", None)  # the object `choose` is bound to, if any: anything
        plain = (type(rng) is random.Random and getattr(choose, "__func__", None) is random.Random.choice
                 and random.Random._randbelow  # type: ignore[attr-defined]  # CPython's private draws, not in typeshed
                 is random.Random._randbelow_with_getrandbits)  # type: ignore[attr-defined]
        try:
            self._playout(self, choose, bound, rng.getrandbits if plain else None)
        finally:  # the loop moves cards without `_wrote`
            self._scores = [None] * self.n

    def _advance(self, spent: int = 0) -> None:
        """`Game._advance`, with window answers kept, a window no seat can answer closed at once,
        and each step's parts unpacked once (`_programs`). `spent`: steps of this advance that
        the generated match loop already ran, counted against the budget."""
        if self._behind:  # a look that scores the move where it stands; `run_on` goes on
            return
        st, env, n = self.state, self.env, self.n
        budget = self._budget_value - spent
        passes, seen = 0, None  # as in `Game._advance`: passes with no decision (the window's count too)
        turn, final = self._programs
        round_end, dirty = self._round_end_fn, self._dirty
        window_step = self.c.window
        answers, keep = self._answers, self._keep_answers
        while not st.over:
            budget -= 1
            if budget < 0:
                raise EngineError(f"round {st.round + 1} cannot end: the seats pass or skip every step and "
                                  "no 'end round' condition holds",
                                  "every round needs an `end round` condition that the play can reach")
            window = st.window
            if window is not None:  # ask the seats in turn; those with nothing to play pass
                seat, passes = window
                silent = st.silent
                while passes < n:
                    actions = None if seat in silent else (
                        answers[seat] if keep and answers[seat] is not None else self._window_actions(seat))
                    if actions:
                        window[0], window[1] = seat, passes
                        self._actions = [*actions, PASS]
                        return
                    if passes == 0 and keep and self._nobody_answers(silent):
                        passes = n  # no seat can answer: every one would pass
                        break
                    seat, passes = (seat + st.direction) % n, passes + 1
                    budget -= 1
                st.window = None  # a full round of passes closes it
                silent.clear()
                continue
            program = final if st.final_turns >= 0 else turn
            k = st.step
            if k >= len(program):
                reason = self._turn_over()
                if reason is not None:
                    self._end_round(reason)
                    budget = self._budget_value
                continue
            is_play, when, generate, optional, or_pass, count, source, dest, step = program[k]
            active = st.active
            if when is not None:
                env[SELF] = active
                if not when(env):
                    st.step = k + 1
                    continue
            if step.kind == "effect":  # it runs by itself, as a draw does
                env[SELF] = active
                step.effect(env)  # type: ignore[misc]  # an effect step has its effect
                self._wrote_all(self._step_writes[id(step)])
                st.step += 1  # after the effect: `then end turn` has moved the step past the last
                reason = round_end(env, dirty)
                if reason is not None:
                    self._end_round(reason)
                    budget = self._budget_value
                elif window_step is not None and st.final_turns < 0:
                    self._open_window()
                continue
            if is_play:
                actions = generate(env, active)  # type: ignore[misc]  # a play step has its generator
                if actions:
                    if optional:
                        actions.append(PASS)
                    self._actions = actions
                    return
                if not or_pass:
                    names = ", ".join(p.name for p in step.plays)
                    raise EngineError(f"seat {active} has no legal {names} and this step allows no pass: "
                                      f"write `play one of {names} or pass` if a seat with none passes")
                self._pass_step()
                passes += 1
                if passes % n == 0:  # progress.py: a whole cycle of seats passed; the same state again repeats for ever
                    now = idle_state(self, self._copy_zones)
                    if now is not None and now == seen:
                        raise EngineError(*idle_round(self))
                    seen = now
                continue
            zones = st.zones
            pile = zones[source]
            env[SELF] = active
            taken = min(count(env), len(pile))  # type: ignore[misc]  # a draw step has its count
            if taken > 0:
                drawn = pile[-taken:]
                hand = zones[dest][active]
                for _ in range(taken):
                    hand.append(pile.pop())
                self._wrote(source, _ALL, drawn)
                self._wrote(dest, active, drawn, True)
            st.step = k + 1
            reason = round_end(env, dirty)
            if reason is not None:
                self._end_round(reason)
                budget = self._budget_value
            elif window_step is not None and st.final_turns < 0:  # `_open_window`, inline
                env[SELF] = st.active
                if window_step.when is None or window_step.when(env):
                    st.window = [st.active, 0]
        self._actions = []

    def play(self, action: Action) -> None:
        """`Game.play`, telling `_wrote` which zones the move changed."""
        play, face, target_seat, pile_index = action
        st, env = self.state, self.env
        window = st.window
        seat = st.active if window is None else window[0]
        if play is None:
            if window is not None:
                window[0], window[1] = (seat + st.direction) % self.n, window[1] + 1
            else:
                self._pass_step()
            self._advance()
            return
        zones = st.zones
        if play.value is not None:
            self._play_value(play, face, target_seat, seat)
            return
        if play.meld is not None:
            self._play_meld(play, face, target_seat, seat)
            return
        played = st.played
        if play.mate is not None:
            face, mate_face = face
            mate = self._take_face(zones[play.mate.zone][seat], mate_face, seat)
            env[MATE] = mate
            played[mate] = seat
            self._wrote(play.mate.zone, seat, (mate,))
        hand, face_of = zones[play.card_zone][seat], self._face_of
        for k, card in enumerate(hand):  # the first card of the face, as `_take_face` takes it
            if face_of[card] == face:
                del hand[k]
                break
        else:
            card = self._take_face(hand, face, seat)  # it says which card is missing
        played[card] = seat
        self._wrote(play.card_zone, seat, (card,))
        zone = zones[play.dest_zone]
        if play.choose is not None:
            choose = play.choose
            env[CHOSEN] = target_seat if choose.kind == "seat" else zones[choose.piles_zone][target_seat][pile_index]
            target_seat = pile_index = -1
        elif target_seat >= 0:
            zone = zone[target_seat]
        env[SELF], env[CARD], env[TARGET], env[OWNER] = seat, card, zone, target_seat
        cards = [card] if play.mate is None else [card, mate]
        self._wrote(play.dest_zone, target_seat if target_seat >= 0 else _ALL, cards, True)
        if play.new_pile is None and play.onto_pile is None:
            zone.extend(cards)
        elif pile_index < 0:
            zone.append(cards)
            env[PILE] = cards
        else:
            pile = zone[pile_index]
            pile.extend(cards)
            env[PILE] = pile
        repeat = window is None and self._programs[st.final_turns >= 0][st.step][8].repeat
        if play.effects:
            for effect in self._effects[play.index]:
                effect(env)
            if self._at_target[play.index]:  # as the generated match loop tells it
                self._wrote(play.dest_zone, target_seat if target_seat >= 0 else _ALL)
            else:
                self._wrote_all(self._effect_writes[play.index])
        st.plays += 1
        st.round_plays += 1
        st.idle_turns = env[PASSES] = 0
        if window is not None:
            window[0], window[1] = (seat + st.direction) % self.n, 0
        elif not repeat:  # read before the effects: `then end turn` moves the step
            st.step += 1
        reason = self._round_end_fn(env, self._dirty)
        if reason is not None:
            self._end_round(reason)
        elif window is None and self.c.window is not None:
            self._open_window()
        if st.silent and st.window is None:
            st.silent.clear()
        self._advance()

    # ---------------------------------------------------------------- search

    def clone(self) -> FastGame:
        """An independent copy of the match, its random source included: both play on alike.
        The random source's state is read once and kept until the source is drawn on again,
        so that many copies of one position (a search's root) share that reading."""
        if self._rng_state is None:
            self._rng_state = self.rng.getstate()
        rng = random.Random.__new__(random.Random)
        rng.setstate(self._rng_state)
        return self._copy(rng)

    def trial(self, action: Action, *, scored: bool = False) -> FastGame:
        """A copy of the match with `action` played: a look one ply ahead (`outcome.margin_after`).
        This match's scores are worked out first, so that the copy works out again only those
        of the seats its move touched; and the copy draws on this match's own random source,
        put back as it was if the move drew on it (a round that ends deals the next), which
        spares a copy of the source. So the copy is to be read, and played on only in this
        match's stead when `replaces` says so. Raises what `play` does.

        `scored`: the copy is only scored (`outcome.look`). Where the steps the match runs by
        itself up to the next decision cannot change a standing (`Plan.scored_early`), the copy
        then stops right after the move, and `run_on` takes it on to that decision before it is
        read otherwise or played on. A move the ruleset cannot go on after is then found only
        there, not here."""
        if self._keep_scores and None in self._scores:
            self.round_scores()
        if self._rng_state is None:
            self._rng_state = self.rng.getstate()
        other = self._copy(self.rng)
        other._behind = scored and self._plan.scored_early
        try:
            other.play(action)
        finally:
            if other._rng_state is None:  # forgotten: the move may have drawn on the source
                self.rng.setstate(self._rng_state)
        return other

    def stands_after(self, action: Action) -> bool:
        """Whether `action` leaves every seat's standing where it is, so that a look need not play
        it: a pass in a response window changes no zone, and where the steps the match then runs by
        itself change no standing either (`Plan.scored_early`). Most of a window's looks are passes."""
        return action[0] is None and self.state.window is not None and self._plan.scored_early

    def run_on(self) -> None:
        """Take a copy that `trial` stopped right after its move on to the next decision, as
        `play` would have."""
        if self._behind:
            self._behind = False
            self._advance()

    @property
    def replaces(self) -> bool:
        """Whether this `trial` may be played on in its match's stead (the match then dropped:
        the two share a random source): its move did not draw on the source, so this is the
        very position, source included, that the match would reach by playing the move."""
        return self._rng_state is not None

    def _copy(self, rng: random.Random) -> FastGame:
        """A copy of the match whose random source is `rng`."""
        other = object.__new__(FastGame)
        other.__dict__.update(self.__dict__)
        s = self.state
        st = State(self._copy_zones(s.zones), list(s.totals), s.round, s.active, s.step, s.over, s.plays,
                   s.round_plays, s.idle_turns, s.passed, s.direction, list(s.next_turns),
                   None if s.window is None else list(s.window), s.final_turns, list(s.results), set(s.silent),
                   list(s.values), list(s.played))
        env = list(self.env)
        env[ZONES], env[STATE], env[RNG], env[TOTALS] = st.zones, st, rng, st.totals
        other.state, other.rng, other.env = st, rng, env
        # the copy's source starts where the original's is now: it may keep the same reading (`clone`)
        other._actions = list(self._actions)
        other._dirty = list(self._dirty)
        other._scores = list(self._scores)
        other._answers = list(self._answers)
        other._parts = [list(parts) for parts in self._parts]
        other._live = [set(seats) for seats in self._live]
        return other


def _model_steps(model: m.Ruleset) -> list[m.Draw | m.PlayStep | m.EffectStep]:
    """The model's turn steps, then its final round's: as `codegen.turn_steps` lists the compiled ones."""
    return [*model.turn, *(model.final.steps if model.final else ())]
