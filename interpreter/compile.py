"""Model to closures and tables, once per (ruleset, player count, params).

Cards become integers; every attribute becomes a tuple indexed by card; every expression
becomes a closure over an `env` list whose slots hold the zones and the names in scope. The
engine's hot loop calls these closures and never looks at the model's expressions again.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, cast

from . import model as m
from .dispatch import visit
from .errors import EXIT_USAGE, CardrulesError
from .melds import alike_attributes

# The slots below hold zones, seats, cards, piles, the state and the random source: one list
# of mixed values, read by index in the hot loop, so its items stay `Any`.
Env: TypeAlias = list[Any]
# A compiled expression or effect: what it returns (a number, a truth value, a card, a zone...)
# is the type the checker gave the expression, which Python's types do not follow.
Fn: TypeAlias = Callable[[Env], Any]

# env slots: the state's zones, then the context names; bound variables follow.
ZONES, SELF, CARD, TARGET, PILE, OWNER, ROUND, TOTALS, PASSED, PASSES, STATE, CHOSEN, RNG, MATE, CHOICE = range(15)
MELD = CHOICE + 1  # the cards of a meld, as a list
FREE = MELD + 1  # the first slot for a bound variable
END_OF_TURN = 1 << 20  # `then end turn` moves the turn's step here: past the last step of any turn
FIXED_SLOTS = {"self": SELF, "card": CARD, "target": TARGET, "pile": PILE, "owner": OWNER,
               "round": ROUND, "totals": TOTALS, "passed": PASSED, "passes": PASSES}
_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}
ENV_SIZE = 96  # fixed slots, and one per nested binder (parse.MAX_DEPTH bounds those)


def deal_location(model: m.Ruleset) -> str:
    """`file:line:col` of the ruleset's first `deal`: where a deal that cannot be made is told."""
    deal = next((s.provenance for s in model.setup if isinstance(s, m.Deal) and s.provenance.line), None)
    return f"{model.file}:{deal.line}:{deal.column}" if deal else model.file


class ConfigError(CardrulesError):
    """Options that do not fit the ruleset: a player count or a param outside its range."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class CChoose:
    """A play's `choose seat|pile`: what it names besides its card."""

    kind: str  # "seat" | "pile"
    piles_zone: int  # the zone of piles a pile is chosen from; -1 for a seat
    seats: str  # "any" | "other" | "self": whose seats (or piles) it may name
    where: Fn | None  # the condition on the chosen seat or pile, in env[CHOSEN]


@dataclass(frozen=True)
class CMate:
    """The second card of a compound play."""

    zone: int  # the seat's zone it comes from
    where: Fn | None  # the condition on it, in env[MATE]


@dataclass(frozen=True)
class CChoice:
    """A play of no card: the value the seat names."""

    values: tuple[str | int, ...]  # the attribute's values (names, or the numbers low..high), in its order
    where: Fn | None  # the condition on the value, in env[CHOICE]


@dataclass(frozen=True)
class CMeld:
    """A meld: several cards laid at once, the set tested whole."""

    low: int
    high: int
    where: Fn | None  # the condition on the set, in env[MELD]
    alike: tuple[tuple[Any, ...], ...]  # the attribute tables its cards share a value of


@dataclass(frozen=True)
class CShuffle:
    """Setup: shuffle the whole deck into a zone."""

    zone: int


@dataclass(frozen=True)
class CLet:
    """Setup: a named value of the round set by its `let`."""

    value: int  # its index among the named values
    init: Fn


@dataclass(frozen=True)
class CMove:
    """Setup or cleanup: cards from the top of a zone to another, those `where` keeps."""

    count: int | None  # None: all of them
    source: int
    dest: int
    where: Fn | None  # the condition on each card, in env[CARD]
    deal: bool = False  # a deal: `count` to each seat in turn, from the seat that starts


SetupStep: TypeAlias = CShuffle | CLet | CMove


@dataclass(frozen=True)
class CValue:
    """A named value (`let`): its first value, set once per match or at each round's setup."""

    name: str
    per_match: bool
    init: Fn


@dataclass(frozen=True)
class CPlay:
    index: int
    name: str
    card_zone: int
    card_filter: Fn | None
    dest_zone: int
    dest_seats: str  # "" for a shared zone
    new_pile: Fn | None  # None: the play allows no new pile
    onto_pile: Fn | None  # None: the play allows no stacking
    choose: CChoose | None
    mate: CMate | None
    effects: tuple[Fn, ...]
    model: m.Play
    dest_seat: Fn | None = None  # for dest_seats "seat": the one seat the card goes to
    faces: frozenset[int] | None = None  # the faces the filter's card-only part keeps; None: all
    value: CChoice | None = None  # a play of no card; its card_zone is -1
    meld: CMeld | None = None


@dataclass(frozen=True)
class CStep:
    kind: str  # "play", "draw", "window"
    when: Fn | None = None
    plays: tuple[CPlay, ...] = ()
    or_pass: bool = False
    optional: bool = False  # a pass is always open
    repeat: bool = False  # the seat plays until it passes
    count: Fn | None = None
    source: int = 0
    dest: int = 0
    effect: Fn | None = None  # an "effect" step: it runs by itself


@dataclass(frozen=True)
class CFinal:
    """The final round: once `when` holds at the end of a turn, each seat takes one last turn."""

    name: str  # the round's end reason when the last final turn is over
    when: Fn
    steps: tuple[CStep, ...]
    seat_order: bool  # the final turns go by seat number, whatever the direction of play


@dataclass(frozen=True)
class Read:
    """A value a hot condition reads (`_Compiler._read`), so that a comparison of two of them
    compiles to one closure with no call inside."""

    how: str  # "const" | "slot" | "len" | "len shared" | "len of seat" | "attr" | "top"
    slot: int = 0  # the env slot read: the value, list, seat, card or pile
    table: tuple[Any, ...] = ()  # "attr", "top": the attribute's table
    zone: int = 0  # "len shared", "len of seat": the zone
    constant: Any = None  # "const": its value


@dataclass(frozen=True)
class Compiled:
    model: m.Ruleset
    players: int
    params: dict[str, int]
    faces: tuple[str, ...]  # face index -> its text, in the language asked for
    face_index: dict[str, int]  # lower-case text, in any language -> face index
    face_of: tuple[int, ...]  # card -> face index
    attributes: dict[str, tuple[Any, ...]]  # attribute -> value per card, and last the "no card" entry
    zone_index: dict[str, int]
    setup: tuple[SetupStep, ...]
    cleanup: tuple[CMove, ...]  # the round is over: before it is scored
    plays: tuple[CPlay, ...]
    turn: tuple[CStep, ...]
    window: CStep | None
    final: CFinal | None
    round_ends: tuple[tuple[str, Fn], ...]
    score: Fn
    score_slot: int
    until: Fn
    starter: Fn
    values: tuple[CValue, ...] = ()
    team_of: tuple[tuple[int, ...], ...] = ()  # each seat's team, its seats in order (the seat alone without teams)

    @property
    def deck_size(self) -> int:
        return len(self.face_of)


def params_for(model: m.Ruleset, overrides: dict[str, int] | None) -> dict[str, int]:
    values = {p.name: p.default for p in model.params}
    for name, value in (overrides or {}).items():
        if name not in values:
            known = ", ".join(values) or "none"
            raise ConfigError(f"the ruleset has no param '{name}' (its params: {known})")
        p = model.param(name)
        if not p.low <= value <= p.high:
            raise ConfigError(f"param '{name}' takes {p.low}..{p.high}, not {value}")
        values[name] = value
    return values


def compile_ruleset(model: m.Ruleset, players: int, overrides: dict[str, int] | None = None,
                    lang: str | None = None) -> Compiled:
    """`lang` picks the language faces are shown in; moves may name a card in any of them."""
    low, high = model.players
    if players not in model.counts:
        allowed = f"{low} to {high}" if not model.player_counts else ", ".join(map(str, model.counts))
        raise ConfigError(f"{model.title}{model.selection} is for {allowed} players, not {players}")
    return _Compiler(model, players, params_for(model, overrides), lang).build()


def expressions(compiled: Compiled) -> _Compiler:
    """A compiler of more expressions for a compiled ruleset (its `expr(e, slots)`), on the same
    card numbers: for reading a position in other ways than the engine does."""
    return _Compiler(compiled.model, compiled.players, compiled.params)


class _Compiler:
    def __init__(self, model: m.Ruleset, players: int, params: dict[str, int], lang: str | None = None) -> None:
        self.model, self.players, self.params = model, players, params
        self.value_index = {v.name: k for k, v in enumerate(model.values)}
        self.zone_index = {z.name: i for i, z in enumerate(model.zones)}
        self.faces = tuple(dict(card.names).get(lang or "", card.face) for card in model.deck)
        self.face_of = self._deck_in_play()
        self.team_of = m.team_of(model.teams, players)

    def _tables(self, copies: list[tuple[int, int]]) -> None:
        """The attribute tables of these copies (face index, copy number). `top` of an empty
        zone is the card numbered deck size, "no card": its enum values equal nothing and its
        numbers are 0, so no condition can fail on an empty zone; a kind that does not set an
        attribute reads as "no card" does."""
        model = self.model
        kinds = {a.name: a.is_enum for a in model.attributes}
        values = [dict(card.attributes) for card in model.deck]
        self.no_card = len(copies)
        self.attributes = {a: tuple(("" if enum else 0) if x is None else x
                                    for x in (*(values[f].get(a) for f, _ in copies), None))
                           for a, enum in kinds.items()}

    def _deck_in_play(self) -> tuple[int, ...]:
        """Every copy of every face, `decks` times over, less those a deck rule leaves out:
        the face of each card in play, by card number."""
        model = self.model
        copies = [(f, i) for f, card in enumerate(model.deck) for _ in range(model.sets) for i in range(card.copies)]
        marks: dict[str, list[bool]] = {name: [False] * len(copies) for name in model.marks}
        self._tables(copies)
        printed = {k.name: [(mk, None if mk.where is None else self.expr(mk.where, {})) for mk in k.marks]
                   for k in model.kinds}
        env: Env = [None] * ENV_SIZE
        for n, (f, i) in enumerate(copies):
            env[CARD] = n
            for mark, where in printed[model.deck[f].kind]:
                if (mark.count is None or i < mark.count) and (where is None or where(env)):
                    marks[mark.name][n] = True
        self.attributes.update({mark: (*flags, False) for mark, flags in marks.items()})  # a mark's `where` reads none
        if model.deck_rules:
            rules = [self.expr(r.where, {}) for r in model.deck_rules]
            kept = []
            for n in range(len(copies)):
                env[CARD] = n
                if all(rule(env) for rule in rules):
                    kept.append(n)
            copies, self.no_card = [copies[n] for n in kept], len(kept)  # "no card" stays last
            self.attributes = {a: (*(table[n] for n in kept), table[-1]) for a, table in self.attributes.items()}
        return tuple(f for f, _ in copies)

    def build(self) -> Compiled:
        model = self.model
        deal_size = sum(self._constant(s.count) for s in model.setup
                        if isinstance(s, m.Deal) and s.count is not None and s.where is None)
        if deal_size * self.players > len(self.face_of):
            raise ConfigError(f"the deck of {len(self.face_of)} cards cannot deal {deal_size} to each of "
                              f"{self.players} players", location=deal_location(model))
        values = tuple(CValue(v.name, v.per_match, self.expr(v.init, {})) for v in model.values)
        setup = tuple(CShuffle(self.zone_index[s.zone]) if isinstance(s, m.Shuffle)
                      else CLet(self.value_index[s.name], values[self.value_index[s.name]].init)
                      if isinstance(s, m.Let)
                      else self._move(s, deal=isinstance(s, m.Deal))
                      for s in model.setup)
        cleanup = tuple(self._move(s) for s in model.cleanup)
        plays = tuple(self._play(i, p) for i, p in enumerate(model.plays))
        by_name = {p.name: p for p in plays}
        turn = self._steps(model.turn, by_name)
        final = None if model.final is None else CFinal(
            model.final.name, self.expr(model.final.when, {}), self._steps(model.final.steps, by_name),
            model.final.seat_order)
        window = None if model.window is None else CStep(
            "window", self._guard(model.window.when), plays=tuple(by_name[n] for n in model.window.plays))
        score_slot = FREE
        spellings = {text.lower(): i for i, card in enumerate(model.deck)
                     for text in (card.face, *dict(card.names).values())}
        return Compiled(
            model=model, players=self.players, params=self.params, faces=self.faces,
            face_index=spellings, face_of=self.face_of,
            attributes=self.attributes, zone_index=self.zone_index, setup=setup, cleanup=cleanup, plays=plays,
            turn=turn, window=window, final=final,
            round_ends=tuple((r.name, self.expr(r.cond, {})) for r in model.round_ends),
            score=self.expr(model.score.expr, {model.score.var: score_slot}), score_slot=score_slot,
            until=self.expr(model.match.until, {}), starter=self.expr(model.match.starter, {}), values=values,
            team_of=self.team_of)

    def _move(self, s: m.Deal | m.Transfer, deal: bool = False) -> CMove:
        return CMove(None if s.count is None else self._constant(s.count), self.zone_index[s.source],
                     self.zone_index[s.dest], None if s.where is None else self.expr(s.where, {}), deal)

    def _steps(self, steps: Sequence[m.PlayStep | m.EffectStep | m.Draw],
               by_name: dict[str, CPlay]) -> tuple[CStep, ...]:
        return tuple(CStep("play", self._guard(step.when), plays=tuple(by_name[n] for n in step.plays),
                           or_pass=step.or_pass, optional=step.optional, repeat=step.repeat)
                     if isinstance(step, m.PlayStep) else
                     CStep("effect", self._guard(step.when), effect=self._effect(step.effect, {}))
                     if isinstance(step, m.EffectStep) else
                     CStep("draw", self._guard(step.when), count=self.expr(step.count, {}),
                           source=self.zone_index[step.source], dest=self.zone_index[step.dest])
                     for step in steps)

    def _guard(self, e: object | None, slots: dict[str, int] | None = None) -> Fn | None:
        return None if e is None else self.expr(e, slots or {})

    def _constant(self, e: object) -> int:
        return int(self.expr(e, {})([None] * ENV_SIZE))

    def _play(self, index: int, p: m.Play) -> CPlay:
        named = {**({p.choose.name: CHOSEN} if p.choose else {}), **({p.mate.name: MATE} if p.mate else {}),
                 **({p.value.name: CHOICE} if p.value else {}), **({p.meld.name: MELD} if p.meld else {})}
        effects = tuple(self._effect(e, named) for e in p.effects)
        choose = None if p.choose is None else CChoose(
            p.choose.kind, self.zone_index[p.choose.zone] if p.choose.zone else -1, p.choose.seats,
            self._guard(p.choose.where, named))
        mate = None if p.mate is None else CMate(self.zone_index[p.mate.zone], self._guard(p.mate.where, named))
        if p.value is not None:  # a play of no card: the value is chosen among the attribute's
            attribute = next(a for a in self.model.attributes if a.name == p.value.zone)
            values: tuple[str | int, ...] = (tuple(v.name for v in attribute.values)
                                             or tuple(range(attribute.low, attribute.high + 1)))
            value = CChoice(values, None if p.value.where is None else self.expr(p.value.where, named))
            return CPlay(index, p.name, -1, None, -1, "", None, None, choose, None, effects, p, value=value)
        if p.meld is not None:  # several cards at once: the set is tested whole
            alike = tuple(self.attributes[a] for a in alike_attributes(p.meld.where, p.meld.name))
            meld = CMeld(p.meld.low, p.meld.high, None if p.meld.where is None else self.expr(p.meld.where, named),
                         alike)
            return CPlay(index, p.name, self.zone_index[p.card_zone], None, self.zone_index[p.dest_zone],
                         p.dest_seats, None, None, None, None, effects, p,
                         None if p.dest_seat is None else self.expr(p.dest_seat, {}), meld=meld)
        faces, rest = self._face_filter(p.card_filter)
        return CPlay(
            index, p.name, self.zone_index[p.card_zone], rest,
            self.zone_index[p.dest_zone], p.dest_seats,
            self._condition(p.new_pile, named), self._condition(p.onto_pile, named), choose, mate, effects, p,
            None if p.dest_seat is None else self.expr(p.dest_seat, {}), faces)

    def _face_filter(self, where: object | None) -> tuple[frozenset[int] | None, Fn | None]:
        """A card filter split in two: the faces its conjuncts that read only the card keep,
        worked out here once, and a closure for the rest, which reads the table."""
        if where is None:
            return None, None
        conjuncts = m.conjuncts(where)
        static = [e for e in conjuncts if m.reads_only(e, {"card"})]
        rest = [e for e in conjuncts if not m.reads_only(e, {"card"})]
        faces = None
        if static:
            env: Env = [None] * ENV_SIZE
            tests = [self.expr(e, {}) for e in static]
            faces = frozenset(face for face, card in first_cards(self.face_of).items() if _keeps_all(env, tests, card))
        if not rest:
            return faces, None
        return faces, self.expr(m.all_of(rest), {})

    def _condition(self, c: m.Condition | None, named: dict[str, int]) -> Fn | None:
        if c is None:
            return None
        if c.expr is None:
            return lambda env: True
        return self.expr(c.expr, named)

    def _effect(self, e: m.Effect, chosen: dict[str, int]) -> Fn:
        """The closure of one effect, by its class (`_effect_Swap` ...); an effect no method
        compiles is an error, never compiled as another."""
        fn: Fn = visit(self, "_effect_", e)(e, chosen)
        return fn

    def _effect_Guarded(self, e: m.Guarded, chosen: dict[str, int]) -> Fn:
        effect, when = self._effect(e.effect, chosen), self.expr(e.when, chosen)

        def guarded(env: Env) -> None:
            if when(env):
                effect(env)
        return guarded

    def _effect_SetValue(self, e: m.SetValue, chosen: dict[str, int]) -> Fn:
        k, value = self.value_index[e.name], self.expr(e.expr, chosen)

        def set_value(env: Env) -> None:
            env[STATE].values[k] = value(env)
        return set_value

    def _effect_EndTurn(self, e: m.EndTurn, chosen: dict[str, int]) -> Fn:
        def end_turn(env: Env) -> None:
            env[STATE].step = END_OF_TURN
        return end_turn

    def _effect_Merge(self, e: m.Merge, chosen: dict[str, int]) -> Fn:
        return self._merge(e)

    def _effect_MoveCards(self, e: m.MoveCards, chosen: dict[str, int]) -> Fn:
        return self._move_cards(e, chosen)

    def _effect_MovePile(self, e: m.MovePile, chosen: dict[str, int]) -> Fn:
        pile, dest = self.expr(e.pile, chosen), self.expr(e.dest, chosen)
        piles = self._pile_zones()

        def move_pile(env: Env) -> None:
            moving = pile(env)
            _remove_pile(env[ZONES], piles, moving)
            dest(env).append(moving)
        return move_pile

    def _effect_Reverse(self, e: m.Reverse, chosen: dict[str, int]) -> Fn:
        def reverse(env: Env) -> None:
            env[STATE].direction *= -1
        return reverse

    def _effect_Swap(self, e: m.Swap, chosen: dict[str, int]) -> Fn:
        zones = [self.zone_index[z] for z in e.zones]
        one, other = self.expr(e.seat, chosen), self.expr(e.other, chosen)

        def swap(env: Env) -> None:
            a, b = one(env), other(env)
            for z in zones:
                seats = env[ZONES][z]
                seats[a], seats[b] = seats[b], seats[a]
        return swap

    def _effect_PassZone(self, e: m.PassZone, chosen: dict[str, int]) -> Fn:
        zone = self.zone_index[e.zone]

        def pass_zone(env: Env) -> None:
            seats, step = env[ZONES][zone], env[STATE].direction
            seats[:] = [seats[(s - step) % len(seats)] for s in range(len(seats))]
        return pass_zone

    def _effect_NoAnswer(self, e: m.NoAnswer, chosen: dict[str, int]) -> Fn:
        seat = self.expr(e.seat, chosen)

        def no_answer(env: Env) -> None:
            env[STATE].silent.add(seat(env))
        return no_answer

    def _effect_NextTurn(self, e: m.NextTurn, chosen: dict[str, int]) -> Fn:
        seat = self.expr(e.seat, chosen)

        def next_turn(env: Env) -> None:
            env[STATE].next_turns.append(seat(env))
        return next_turn

    def _pile_zones(self) -> list[tuple[int, bool]]:
        return [(i, z.per_seat) for i, z in enumerate(self.model.zones) if z.piles]

    def _move_cards(self, e: m.MoveCards, chosen: dict[str, int]) -> Fn:
        """Up to `count` cards from the top of a zone or a pile down (or at random), those that
        `where` keeps; into a zone of piles each card starts a pile. A pile left empty is taken
        away, so that every pile always has a card."""
        count = None if e.count is None else self.expr(e.count, chosen)
        named = {**chosen, e.var: FREE} if e.var else chosen
        source, dest = self.expr(e.source, chosen), self.expr(e.dest, named)
        keep = None if e.where is None else self.expr(e.where, named)
        into_piles, from_pile, random = type_of(e.dest) == "zone:piles", type_of(e.source) == "pile", e.random
        piles = self._pile_zones()

        def move_cards(env: Env) -> None:
            src = source(env)
            wanted = len(src) if count is None else count(env)
            fits = [i for i in range(len(src) - 1, -1, -1) if keep is None or keeps(env, keep, src[i])]
            if random:
                fits = env[RNG].sample(fits, min(wanted, len(fits)))
            taken = fits[:max(wanted, 0)]
            cards = [src[i] for i in taken]
            for i in sorted(taken, reverse=True):
                del src[i]
            for card in cards:  # each card to its destination, which may depend on the card
                env[FREE] = card
                dest(env).append([card] if into_piles else card)
            if from_pile and not src:
                _remove_pile(env[ZONES], piles, src)
        return move_cards

    def _merge(self, e: m.Merge) -> Fn:
        """Every other pile of the collection that meets the condition goes under the pile that
        received the card, in the order the piles stood; the receiving pile keeps its place."""
        slot = FREE
        collection = self.expr(e.collection, {})
        where = self.expr(e.where, {e.var: slot}) if e.where is not None else (lambda env: True)

        def merge(env: Env) -> None:
            receiving = env[PILE]
            piles = collection(env)
            under: list[int] = []
            kept: list[list[int]] = []
            for pile in piles:
                if pile is not receiving:
                    env[slot] = pile
                    if where(env):
                        under.extend(pile)
                        continue
                kept.append(pile)
            if under:
                receiving[:0] = under
                piles[:] = kept

        return merge

    # ---------------------------------------------------------------- expressions

    def expr(self, e: object, slots: dict[str, int]) -> Fn:
        """A closure computing `e`; `slots` maps bound variables to env slots."""
        match e:
            case m.Const(value=tuple() as values):
                listed = list(values)  # compares equal to the lists other expressions make
                return lambda env: listed
            case m.Const(value=value):
                return lambda env: value
            case m.ParamRef(name=name):
                value = self.params[name]
                return lambda env: value
            case m.Ref(name=name):
                return self._ref(name, slots)
            case m.ValueRef(name=name):
                k = self.value_index[name]
                return lambda env: env[STATE].values[k]
            case m.ZoneRef(zone=zone, seat=seat):
                zi = self.zone_index[zone]
                if seat is None:
                    return lambda env: env[ZONES][zi]
                if isinstance(seat, m.Ref) and (si := self._slot(seat.name, slots)) is not None:
                    return lambda env: env[ZONES][zi][env[si]]
                who = self.expr(seat, slots)
                return lambda env: env[ZONES][zi][who(env)]
            case m.AttrOf(obj=obj, attr=attr, type=t):
                return self._attr(obj, self.attributes[attr], t.startswith("list:"), slots)
            case m.Call(function=fn, args=(arg,)):
                return self._call(fn, arg, slots)
            case m.Each():
                return self._each(e, slots)
            case m.Defined(body=body):
                return self.expr(body, slots)
            case m.Op(op=op, left=left, right=right):
                if op in _COMPARISONS:
                    fused = self._fused_compare(_COMPARISONS[op], left, right, slots)
                    if fused is not None:
                        return fused
                return self._op(op, self.expr(left, slots), self.expr(right, slots))
            case m.Unary(op="not", operand=x):
                f = self.expr(x, slots)
                return lambda env: not f(env)
            case m.Unary(operand=x):
                f = self.expr(x, slots)
                return lambda env: -f(env)
            case m.If(cond=c, then=a, otherwise=b):
                fc, fa, fb = self.expr(c, slots), self.expr(a, slots), self.expr(b, slots)
                return lambda env: fa(env) if fc(env) else fb(env)
            case m.Quantifier(kind=kind, var=var, collection=coll, body=body):
                slot = self._fresh(slots)
                fcoll, fbody = self.expr(coll, slots), self.expr(body, {**slots, var: slot})
                if kind == "some":
                    def some(env: Env) -> bool:
                        for x in fcoll(env):
                            env[slot] = x
                            if fbody(env):
                                return True
                        return False
                    return some

                def every(env: Env) -> bool:
                    for x in fcoll(env):
                        env[slot] = x
                        if not fbody(env):
                            return False
                    return True
                return every
        raise TypeError(f"cannot compile {e!r}")

    def _read(self, e: object, slots: dict[str, int]) -> Read | None:
        """A value the hot conditions read most, so that a comparison of two of them is one
        closure: a constant or param, a name in a slot, the length of a list in a slot or of a
        zone (shared, or of the seat in a slot), an attribute of the card in a slot, an attribute
        of the top card of the pile in a slot."""
        if isinstance(e, m.Defined):
            return self._read(e.body, slots)
        if isinstance(e, (m.Const, m.ParamRef)) and e.type in ("int", "seat") or (
                isinstance(e, m.Const) and e.type.startswith("enum:")):
            return Read("const", constant=self.params[e.name] if isinstance(e, m.ParamRef) else e.value)
        if isinstance(e, m.Ref) and (slot := self._slot(e.name, slots)) is not None:
            return Read("slot", slot)
        if isinstance(e, m.Call) and e.function == "count":
            inner = e.args[0]
            if isinstance(inner, m.Call) and inner.function == "piles":  # piles(z) is z's list of piles
                inner = inner.args[0]
            elif inner.type == "zone:piles":  # count(z) of a zone of piles counts its cards, not its piles
                return None
            if isinstance(inner, m.Ref) and (slot := self._slot(inner.name, slots)) is not None:
                return Read("len", slot)
            if isinstance(inner, m.ZoneRef) and inner.seat is None:
                return Read("len shared", zone=self.zone_index[inner.zone])
            if (isinstance(inner, m.ZoneRef) and isinstance(inner.seat, m.Ref)
                    and (seat_slot := self._slot(inner.seat.name, slots)) is not None):
                return Read("len of seat", seat_slot, zone=self.zone_index[inner.zone])
        if isinstance(e, m.AttrOf) and not e.type.startswith("list:"):
            table = self.attributes[e.attr]
            if isinstance(e.obj, m.Ref) and (slot := self._slot(e.obj.name, slots)) is not None:
                return Read("attr", slot, table)
            if (isinstance(e.obj, m.Call) and e.obj.function == "top" and isinstance(e.obj.args[0], m.Ref)
                    and e.obj.args[0].type == "pile" and (slot := self._slot(e.obj.args[0].name, slots)) is not None):
                return Read("top", slot, table)  # a pile is never empty
        return None

    def _fused_compare(self, op: Callable[[Any, Any], bool], left: object, right: object,
                       slots: dict[str, int]) -> Fn | None:
        a, b = self._read(left, slots), self._read(right, slots)
        if a is None or b is None:
            return None
        # read once here, so that the closures hold plain values; a constant is only ever on the right
        ka, ta, sa, za = a.how, a.table, a.slot, a.zone
        kb, tb, sb, cb = b.how, b.table, b.slot, b.constant
        if ka == "top" and kb == "attr":
            return lambda env: op(ta[env[sa][-1]], tb[env[sb]])
        if ka == "attr" and kb == "attr":
            return lambda env: op(ta[env[sa]], tb[env[sb]])
        if ka == "attr" and kb == "const":
            return lambda env: op(ta[env[sa]], cb)
        if ka == "top" and kb == "const":
            return lambda env: op(ta[env[sa][-1]], cb)
        if ka == "slot" and kb == "const":
            return lambda env: op(env[sa], cb)
        if ka == "len" and kb == "const":
            return lambda env: op(len(env[sa]), cb)
        if ka == "len shared" and kb == "const":
            return lambda env: op(len(env[ZONES][za]), cb)
        if ka == "len of seat" and kb == "const":
            return lambda env: op(len(env[ZONES][za][env[sa]]), cb)
        return None

    def _slot(self, name: str, slots: dict[str, int]) -> int | None:
        return slots.get(name, FIXED_SLOTS.get(name))

    @staticmethod
    def _fresh(slots: dict[str, int]) -> int:
        return max([FREE, *(s + 1 for s in slots.values())])

    def _ref(self, name: str, slots: dict[str, int]) -> Fn:
        if name == "seats":
            seats = tuple(range(self.players))
            return lambda env: seats
        if name == "players":
            n = self.players
            return lambda env: n
        if name == "direction" and name not in slots:
            return lambda env: env[STATE].direction
        slot = self._slot(name, slots)
        if slot is None:  # the checker lets no such expression through
            raise TypeError(f"cannot compile '{name}': no slot holds it")
        return lambda env: env[slot]

    def _attr(self, obj: object, table: tuple[Any, ...], many: bool, slots: dict[str, int]) -> Fn:
        if many:
            f = self.expr(obj, slots)
            return lambda env: [table[c] for c in f(env)]
        # the two shapes that conditions use most, read without an extra call
        if isinstance(obj, m.Ref) and (slot := self._slot(obj.name, slots)) is not None:
            return lambda env: table[env[slot]]
        if (isinstance(obj, m.Call) and obj.function == "top" and isinstance(obj.args[0], m.Ref)
                and (pile := self._slot(obj.args[0].name, slots)) is not None):
            none = self.no_card
            return lambda env: table[z[-1] if (z := env[pile]) else none]
        f = self.expr(obj, slots)
        return lambda env: table[f(env)]

    def _call(self, fn: str, arg: object, slots: dict[str, int]) -> Fn:
        if fn == "count" and isinstance(arg, m.Call) and arg.function == "distinct":
            items = self.expr(arg.args[0], slots)
            return lambda env: len(set(items(env)))  # how many differ: no list in order needed
        f = self.expr(arg, slots)
        t = type_of(arg)
        if fn in ("team", "partner", "team_total"):
            return self._team_call(fn, f)
        if fn == "count":
            if t == "zone:piles":
                return lambda env: sum(len(p) for p in f(env))
            return lambda env: len(f(env))
        if fn == "piles":
            return f  # a zone of piles is its list of piles
        if fn == "tops":
            return lambda env: [p[-1] for p in f(env)]
        if fn == "top":
            none = self.no_card
            return lambda env: z[-1] if (z := f(env)) else none
        if fn == "bottom":
            none = self.no_card
            return lambda env: z[0] if (z := f(env)) else none
        if fn == "product":
            return lambda env: math.prod(f(env))
        if fn == "seat":
            n = self.players
            return lambda env: f(env) % n
        if fn == "index":
            return f
        if fn == "played_by":
            return lambda env: env[STATE].played[f(env)]
        if fn == "cards":
            if t == "zone:piles":
                return lambda env: [c for p in f(env) for c in p]
            return f
        if fn == "sum":
            return lambda env: sum(f(env))
        if fn == "max":
            return lambda env: max(f(env), default=0)
        if fn == "min":
            return lambda env: min(f(env), default=0)
        if fn == "distinct":
            return lambda env: list(dict.fromkeys(f(env)))
        raise TypeError(f"cannot compile call {fn}")

    def _team_call(self, fn: str, f: Fn) -> Fn:
        """`team(s)`, `partner(s)` (the next seat of its team round the table) and
        `team_total(s)` (the sum of its team's totals), from the teams at this player count."""
        teams = self.team_of
        if fn == "team":
            return lambda env: teams[f(env)]
        if fn == "partner":
            partners = partner_of(teams)
            return lambda env: partners[f(env)]
        return lambda env: team_total(teams, env[TOTALS], f(env))

    def _each(self, e: m.Each, slots: dict[str, int]) -> Fn:
        slot = self._fresh(slots)
        coll, body = self.expr(e.collection, slots), self.expr(e.body, {**slots, e.var: slot})

        def values(env: Env) -> Iterator[Any]:
            for x in coll(env):
                env[slot] = x
                yield body(env)

        if e.function == "count":
            return lambda env: sum(1 for v in values(env) if v)
        if e.function == "sum":
            return lambda env: sum(values(env))
        if e.function == "max":
            return lambda env: max(values(env), default=0)
        if e.function == "product":
            return lambda env: math.prod(values(env))
        if e.function == "best":  # the first element with the largest number; of none, no card (or seat 0)
            none = self.no_card if e.type == "card" else 0

            def best(env: Env) -> Any:
                found, top = none, None
                for x in coll(env):
                    env[slot] = x
                    v = body(env)
                    if top is None or v > top:
                        found, top = x, v
                return found
            return best
        return lambda env: min(values(env), default=0)

    @staticmethod
    def _op(op: str, a: Fn, b: Fn) -> Fn:
        match op:
            case "and":
                return lambda env: a(env) and b(env)
            case "or":
                return lambda env: a(env) or b(env)
            case "==":
                return lambda env: a(env) == b(env)
            case "!=":
                return lambda env: a(env) != b(env)
            case "<":
                return lambda env: a(env) < b(env)
            case "<=":
                return lambda env: a(env) <= b(env)
            case ">":
                return lambda env: a(env) > b(env)
            case ">=":
                return lambda env: a(env) >= b(env)
            case "+":
                return lambda env: a(env) + b(env)
            case "-":
                return lambda env: a(env) - b(env)
            case "*":
                return lambda env: a(env) * b(env)
            case "/":  # whole division; by zero gives 0, so no ruleset can break the engine
                return lambda env: a(env) // y if (y := b(env)) else 0
            case "%":
                return lambda env: (a(env) % y) if (y := b(env)) else 0
        raise TypeError(f"no operator {op}")


class _Typed(Protocol):
    type: str


def type_of(e: object) -> str:
    """The type the checker gave a model expression."""
    # the model holds expressions as `object` (its classes share no base); every one has `type`
    return cast(_Typed, e).type


def partner_of(team_of: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Each seat's partner: the next seat of its team round the table (itself, alone)."""
    return tuple(team[(team.index(s) + 1) % len(team)] for s, team in enumerate(team_of))


def team_total(team_of: tuple[tuple[int, ...], ...], totals: Sequence[int], seat: int) -> int:
    return sum(totals[t] for t in team_of[seat])


def _keeps_all(env: Env, tests: list[Fn], card: int) -> bool:
    env[CARD] = card
    return all(test(env) for test in tests)


def first_cards(face_of: Sequence[int]) -> dict[int, int]:
    """Each face's first card: a condition that reads only the face is worked out once, on it."""
    first: dict[int, int] = {}
    for card, face in enumerate(face_of):
        first.setdefault(face, card)
    return first


def keeps(env: Env, keep: Fn, card: int) -> bool:
    """Whether `keep`, a condition on the bound variable in the first free slot, holds of `card`."""
    env[FREE] = card
    return bool(keep(env))


def _remove_pile(zones: Env, pile_zones: list[tuple[int, bool]], pile: list[int]) -> None:
    """Take `pile` (that very list) out of whichever zone of piles holds it."""
    for index, per_seat in pile_zones:
        for zone in zones[index] if per_seat else (zones[index],):
            for i, p in enumerate(zone):
                if p is pile:
                    del zone[i]
                    return
