"""The checked model compiled to Python source, the way jinja2 compiles a template: one module
per (ruleset, selection, player count, params), with every condition inlined, the names in
scope held in locals instead of env slots, and loops only over what can change.

Safety: the generated text is made of identifiers this module makes (`v3`, `A0`, `P2`, ...),
Python keywords and operators, and constants written with `repr` of checked ints, bools and
strings (an attribute's enum value). No name, face or text of the ruleset file is ever written
into the source: zones, plays, attributes and faces are numbered, and the objects they stand
for (attribute tables, compiled plays) are handed to the module's namespace, never spelled.
The source is ours, so running it with `exec` runs nothing of the file's.

The generated functions compute exactly what the closures of `compile.py` compute (the engine
in `engine.py` stays the plain reference; `tests/test_codegen.py` and
`bench/engine_equivalence.py` hold the two equal move by move). Inlined: every expression of
the language (with `count(x in C where x.a == v) > 0` and `some` written as a lookup in C),
the legal actions of every play step and of the window (card filters, mates, chosen seats and
piles, new-pile and onto-pile conditions, an onto condition `P == C` as an index of the piles),
step conditions and draw counts, end-round conditions, the final round's condition, score,
`until`, starter, setup conditions and `merge`. The other effects (moves of cards and piles,
swap, pass, reverse, next turn, no answer) stay the compiled closures, called as the reference
calls them. What each window play and end-round condition reads is recorded (`Reads`) for the
fast engine's caches.
"""
from __future__ import annotations

import hashlib
import math
import random
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import CodeType
from typing import TYPE_CHECKING, Any, TypeAlias

from . import model as m
from .compile import (
    CARD,
    CHOICE,
    CHOSEN,
    END_OF_TURN,
    FIXED_SLOTS,
    FREE,
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
    CLet,
    CMove,
    Compiled,
    CPlay,
    CStep,
    Env,
    Fn,
    _remove_pile,
    first_cards,
    partner_of,
    team_total,
    type_of,
)
from .engine import PASS, Action, EngineError, Game
from .melds import beyond_alike, meld_actions
from .progress import endless_round, idle_round, idle_state

if TYPE_CHECKING:  # it builds on this module
    from .fast import FastGame

# The context names a generated function may read from the env, as the closures do, when the
# function does not hold them in a local: `round` and `totals` in `until`, `passes` anywhere.
_ENV_NAMES = FIXED_SLOTS


UNROLL = 8  # a loop over the seats is written out for up to this many players

# The generated functions, by role (`Generated`): a play step's actions for a seat (no pass);
# the window's, given the seat's shares (`Share`) of it and the seats where each share is a list;
# the end-round conditions flagged dirty tested, giving the reason or None; the match played out
# by `choose` (with `draw`, `getrandbits` of a plain `random.Random` when `choose` is its `choice`);
# a round started; the zones copied, sharing no list.
StepActions: TypeAlias = Callable[[Env, int], list[Action]]
WindowActions: TypeAlias = "Callable[[Env, int, list[Share], list[set[int]]], list[Action]]"
RoundEnd: TypeAlias = Callable[[Env, list[bool]], str | None]
Playout: TypeAlias = "Callable[[FastGame, Callable[[list[Action]], Action], int, Callable[[int], int] | None], None]"
StartRound: TypeAlias = Callable[[Game], None]
CopyZones: TypeAlias = Callable[[list[Any]], list[Any]]
# Per zone, what its change makes stale (`zone_caches`): the end-round conditions that read it,
# the window shares that read it at any seat, at the seat asked, for some faces, for any face.
ZoneCache: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
FaceTable: TypeAlias = dict[int, tuple[tuple[int, bool], ...]]  # face -> ((window share, as a mate), ...)
WindowFaces: TypeAlias = tuple[frozenset[int], frozenset[int]] | None  # (card faces, mate faces); None: any


class CodegenError(Exception):
    """A model the generator cannot write (never from a checked ruleset: a bug to report)."""


def _literal(value: object) -> str:
    """A checked constant as Python source: only ints, bools and strings, by `repr`."""
    if type(value) in (int, bool, str):
        return repr(value)
    raise CodegenError(f"not a constant the generator writes: {type(value).__name__}")


@dataclass
class Reads:
    """What a piece of generated code reads besides its locals: zones (by index) read at any
    seat, zones read only at the seat in question, the seat's hand gone through for the faces
    the play may take, and whether it reads the counters that change without a zone changing
    (`passes`, `passed`, `round`, `totals`)."""

    zones: set[int] = field(default_factory=set)
    own: set[int] = field(default_factory=set)
    hand: set[int] = field(default_factory=set)  # gone through for its cards' faces only (the play's hand)
    counters: bool = False


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1


@dataclass(frozen=True)
class Generated:
    """A generated module: its source (for reading and tests) and its functions by role."""

    source: str
    generate: dict[int, StepActions]  # id(CStep) of a play step -> its actions
    window_generate: WindowActions | None  # the window's actions; None without a window
    round_end: RoundEnd
    when: dict[int, Fn]  # id(CStep) -> fn(env) -> bool, as the step's closure
    count: dict[int, Fn]  # id(CStep) of a draw -> fn(env) -> int
    final_when: Fn | None  # fn(env) -> bool; these four are drop-ins for the closures
    score: Fn
    until: Fn
    starter: Fn
    copy_zones: CopyZones
    # per play: its effects, generated where the generator writes them, else the closures
    effects: tuple[tuple[Fn, ...], ...]
    setup_where: tuple[Fn | None, ...]  # per setup step: its `where`, generated, or None
    window_faces: tuple[WindowFaces, ...]  # per window play: the faces its hand share depends on
    window_reads: tuple[Reads, ...] | None  # what each of the window's plays reads
    zone_caches: tuple[ZoneCache, ...]  # per zone: what its change makes stale (`zone_caches`)
    round_end_reads: tuple[Reads, ...]  # per end-round condition
    score_reads: Reads  # what the score reads: `own`, the zones it reads at the seat scored only
    playout: Playout  # the match played out, `choose` deciding (`_Generator.playout`)
    start_round: StartRound  # `Game._start_round`, written out
    # id(CStep) of an effect step -> its function, where written
    effect_steps: dict[int, Fn] = field(default_factory=dict)
    values: dict[int, Fn] = field(default_factory=dict)  # a value of the match, by its place -> its `let`


class _Generator:
    def __init__(self, c: Compiled):
        self.c = c
        self.model = c.model
        self.fresh_count = 0
        self.w = _Writer()
        self.reads = Reads()
        self.attr_ids = {a: i for i, a in enumerate(c.attributes)}
        self.memo: dict[object, str] = {}  # a subexpression -> the local that holds its value here
        self.top: list[str] = []  # module-level lines: tables worked out once
        self.dest_zone = -1  # the destination of the play whose actions are being written
        self.kept_index: dict[int, int] = {}  # play -> its targets: the match loop keeps its pile index
        self.pre: list[dict[str, str]] | None = None  # per target seat: locals worked out before the cards' loop
        # an onto play's parts that read the pile alone, and the local keeping their values by target
        self.pile_parts: tuple[list[object], str] | None = None
        self.mate_sets: set[int] = set()  # plays whose `M<play>` is written
        self.caches: tuple[ZoneCache, ...] = ()  # per zone: what the match loop's writes to it make stale
        self.own_seat: str | None = None  # besides `seat`, the local that stands for the seat in question

    # ------------------------------------------------------------ hoisting

    def hoist(self, exprs: Iterable[object | None], known: set[str], scope: dict[str, str]) -> None:
        """Compute, here, once, every largest subexpression of `exprs` that reads only names in
        `known`: the loops below read it from a local. Expressions are pure, so computing one
        that a short-circuit would have skipped changes no result."""
        for e in exprs:
            if e is not None:
                self._hoist(e, known, scope)

    def hoist_bodies(self, exprs: Iterable[object | None], known: set[str], scope: dict[str, str]) -> None:
        """Compute, here, what the bodies of the quantifiers in `exprs` read that does not
        change from one element to the next: the statement that follows evaluates it once."""
        for e in exprs:
            if isinstance(e, (m.Each, m.Quantifier)):
                self._hoist(e.body, known - {e.var}, scope)
                self.hoist_bodies([e.collection], known, scope)
            elif e is not None:
                self.hoist_bodies(m.children(e), known, scope)

    def _hoist(self, e: object, known: set[str], scope: dict[str, str]) -> None:
        if isinstance(e, (m.Const, m.ParamRef, m.Ref)) or e in self.memo:
            return
        if _free(e) <= known:
            local = self.fresh("h")
            self.w.line(f"{local} = {self.ex(e, scope)}")
            self.memo[e] = local
            return
        if isinstance(e, (m.Each, m.Quantifier)):
            self._hoist(e.collection, known, scope)
            self._hoist(e.body, known - {e.var}, scope)
            return
        for child in m.children(e):
            self._hoist(child, known, scope)

    # ------------------------------------------------------------ names

    def fresh(self, prefix: str = "v") -> str:
        self.fresh_count += 1
        return f"{prefix}{self.fresh_count}"


    # ------------------------------------------------------------ expressions

    def ex(self, e: object, scope: dict[str, str]) -> str:
        """`e` as a Python expression; `scope` maps the names in scope to their locals."""
        hoisted = self.memo.get(e)
        if hoisted is not None:
            return hoisted
        match e:
            case m.Const(value=tuple() as values):
                return "[" + ", ".join(_literal(v) for v in values) + "]"
            case m.Const(value=value):
                return _literal(value)
            case m.ParamRef(name=name):
                return _literal(int(self.c.params[name]))
            case m.Ref(name=name):
                return self.ref(name, scope)
            case m.ValueRef(name=name):
                return self.value(name)
            case m.Each(function="best", var=var, collection=coll, body=body):
                return self.best(var, coll, body, scope)
            case m.Call(function="played_by", args=(arg,)):
                self.reads.counters = True  # who played a card is no zone's content
                return f"env[{STATE}].played[{self.ex(arg, scope)}]"
            case m.ZoneRef(zone=zone, seat=seat):
                zi = self.c.zone_index[zone]
                if seat is None:
                    self.reads.zones.add(zi)
                    return f"zones[{zi}]"
                who = self.ex(seat, scope)
                if (isinstance(seat, m.Ref) and seat.name == "self" and scope.get("self") == "seat") or \
                        who == self.own_seat:
                    self.reads.own.add(zi)
                else:
                    self.reads.zones.add(zi)
                return f"zones[{zi}][{who}]"
            case m.AttrOf(obj=obj, attr=attr, type=t):
                table = f"A{self.attr_ids[attr]}"
                if t.startswith("list:"):
                    x = self.fresh("x")
                    return f"[{table}[{x}] for {x} in {self.ex(obj, scope)}]"
                return f"{table}[{self.ex(obj, scope)}]"
            case m.Call(function=fn, args=(arg,)):
                return self.call(fn, arg, scope)
            case m.Each(function=fn, var=var, collection=coll, body=body):
                seats = self.over_seats(var, coll, body, scope)
                if seats is not None:
                    return {"count": f"({' + '.join(f'(1 if {b} else 0)' for b in seats)})",
                            "sum": f"({' + '.join(seats)})", "max": f"max([{', '.join(seats)}], default=0)",
                            "min": f"min([{', '.join(seats)}], default=0)",
                            "product": f"_prod([{', '.join(seats)}])"}[fn]
                if fn == "count":
                    return self.count(var, coll, body, scope)
                v = self.fresh()
                c = self.ex(coll, scope)
                b = self.ex(body, {**scope, var: v})
                if fn == "sum":
                    return f"sum([{b} for {v} in {c}])"
                if fn == "max":
                    return f"max([{b} for {v} in {c}], default=0)"
                if fn == "product":
                    return f"_prod([{b} for {v} in {c}])"
                return f"min([{b} for {v} in {c}], default=0)"
            case m.Defined(body=body):
                return self.ex(body, scope)
            case m.Op(op=op, left=left, right=right):
                some = self.count_test(op, left, right, scope)
                if some is not None:
                    return some
                a, b = self.ex(left, scope), self.ex(right, scope)
                if op == "/":
                    return f"_div({a}, {b})"
                if op == "%":
                    return f"_mod({a}, {b})"
                if op not in ("and", "or", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*"):
                    raise CodegenError(f"no operator {op!r}")
                return f"({a} {op} {b})"
            case m.Unary(op="not", operand=x):
                return f"(not {self.ex(x, scope)})"
            case m.Unary(operand=x):
                return f"(-{self.ex(x, scope)})"
            case m.If(cond=cnd, then=a, otherwise=b):
                return f"({self.ex(a, scope)} if {self.ex(cnd, scope)} else {self.ex(b, scope)})"
            case m.Quantifier(kind="some", var=var, collection=coll, body=body):
                return self.some(var, coll, body, scope)
            case m.Quantifier(kind=kind, var=var, collection=coll, body=body):
                seats = self.over_seats(var, coll, body, scope)
                if seats is not None:  # a body is a truth value: the chain is one too
                    return f"({' and '.join(seats)})"
                v = self.fresh()
                c = self.ex(coll, scope)
                b = self.ex(body, {**scope, var: v})
                return f"{'any' if kind == 'some' else 'all'}({b} for {v} in {c})"
        raise CodegenError(f"cannot generate {type(e).__name__}")

    def value(self, name: str) -> str:
        """A named value: it lives in the state, and changes without a zone changing."""
        self.reads.counters = True
        return f"env[{STATE}].values[{[v.name for v in self.model.values].index(name)}]"

    def best(self, var: str, coll: object, body: object, scope: dict[str, str]) -> str:
        """`best(x in C: N)`: the first element with the largest N; of none, no card (seat 0)."""
        v = self.fresh()
        none = "NONE" if type_of(coll) == "list:card" else "0"
        return f"_best([({v}, {self.ex(body, {**scope, var: v})}) for {v} in {self.ex(coll, scope)}], {none})"

    def value_actions(self, play: CPlay, share: bool) -> None:
        """The actions of a play of no card: each value its condition keeps, for each seat it
        may choose (or none), in the attribute's order, as `Game._values_open` lists them."""
        w, P, model = self.w, f"P{play.index}", play.model
        if share:
            w.line("part = []")
            w.line("add = part.append")
        scope = {"self": "seat"}
        t = "-1"
        choose, value = model.choose, model.value
        assert value is not None  # a play of no card: it names a value
        x = self.fresh("x")
        values, where = f"V{play.index}", value.where
        if choose is not None and where is not None and choose.name not in _free(where):
            # the values kept are the same for every seat chosen: kept once, before the seats (a
            # loop, not a comprehension, which would make the function's locals closure cells)
            values, where = self.fresh("h"), None
            w.line(f"{values} = []")
            w.line(f"for {x} in V{play.index}:")
            w.line(f"    if {self.ex(value.where, {**scope, value.name: x})}:")
            w.line(f"        {values}.append({x})")
        if play.choose is not None:
            assert choose is not None  # compiled from it
            t = "t"
            seats = {"any": "SEATS", "other": "OTHERS[seat]", "self": "(seat,)"}[play.choose.seats]
            w.line(f"for t in {seats}:")
            w.indent()
            scope = {**scope, choose.name: "t"}
            if choose.where is not None:
                w.line(f"if not {self.ex(choose.where, scope)}:")
                w.line("    continue")
        w.line(f"for {x} in {values}:")
        w.indent()
        if where is not None:
            w.line(f"if not {self.ex(where, {**scope, value.name: x})}:")
            w.line("    continue")
        w.line(f"add(({P}, {x}, {t}, -1))")
        w.dedent()
        if play.choose is not None:
            w.dedent()

    def meld_actions(self, play: CPlay, share: bool) -> None:
        """The actions of a meld play: its candidates are listed by `melds.meld_actions`, its
        condition `keep<play>` (`meld_conditions`; a set's condition may read anything: no
        answer kept)."""
        w = self.w
        if share:
            w.line("part = []")
            w.line("add = part.append")
        self.reads.zones.add(play.card_zone)
        self.reads.counters = True
        if not play.dest_seats:
            seats = "(-1,)"
        elif play.dest_seat is not None:
            seats = f"({self.ex(play.model.dest_seat, {'self': 'seat'})},)"
        else:
            seats = {"any": "SEATS", "other": "OTHERS[seat]", "self": "(seat,)"}[play.dest_seats]
        keep = f"keep{play.index}" if _meld_condition(play) is not None else "None"
        w.line(f"_meld_actions(P{play.index}, {keep}, env, zones[{play.card_zone}][seat], FACE_OF, {seats}, add, "
               f"{MELD})")

    def meld_conditions(self) -> None:
        """`keep<play>(env)`, each meld play's condition on the set in env[MELD]: tested for
        every candidate set, so written out rather than left to the closure; without the parts
        every candidate meets (`melds.beyond_alike`), and not at all where nothing else is left."""
        for play in self.c.plays:
            if (found := _meld_condition(play)) is not None:
                meld, condition = found
                self.expression_function(f"keep{play.index}", condition, {meld.name: f"env[{MELD}]"})

    def effect_function(self, name: str, e: m.Effect, named: dict[str, str]) -> bool:
        """A drop-in for an effect's closure, when the generator writes that effect (a guarded
        one when it writes what it guards); False, and nothing written, when it does not."""
        w = self.w
        if isinstance(e, m.Merge):
            self.merge(name, e)
        elif isinstance(e, m.MoveCards):
            self.move_cards(name, e, named)
        elif isinstance(e, m.SetValue):
            self.function(name, "env")
            k = [v.name for v in self.model.values].index(e.name)
            w.line(f"env[{STATE}].values[{k}] = {self.ex(e.expr, named)}")
            self.end()
        elif isinstance(e, m.EndTurn):
            self.function(name, "env")
            w.line(f"env[{STATE}].step = {_literal(END_OF_TURN)}")
            self.end()
        elif isinstance(e, m.Guarded) and self.effect_function(f"{name}_0", e.effect, named):
            self.function(name, "env")
            w.line(f"if {self.ex(e.when, named)}:")
            w.line(f"    {name}_0(env)")
            self.end()
        else:
            return False
        return True

    def count_test(self, op: str, left: object, right: object, scope: dict[str, str]) -> str | None:
        """`count(x in C where B) > 0` (or `== 0`) as `any(...)`: it stops at the first match."""
        if not (isinstance(left, m.Each) and left.function == "count" and isinstance(right, m.Const)
                and right.value == 0 and type(right.value) is int and op in (">", "==", "!=")):
            return None
        test = self.some(left.var, left.collection, left.body, scope)
        return f"(not {test})" if op == "==" else test

    def some(self, var: str, coll: object, body: object, scope: dict[str, str]) -> str:
        """Whether `body` holds for some `var` in `coll`. When the body asks whether the
        element's attribute equals a value the element does not change, the value is looked
        for in the attributes, in C: `value in map(TABLE.__getitem__, coll)`."""
        seats = self.over_seats(var, coll, body, scope)
        if seats is not None:  # a body is a truth value: the chain is one too
            return f"({' or '.join(seats)})"
        if (found := self.attributes_equal(var, coll, body, scope)) is not None:
            return f"({found[1]} in {found[0]})"
        c, v = self.ex(coll, scope), self.fresh()
        return f"any({self.ex(body, {**scope, var: v})} for {v} in {c})"

    def count(self, var: str, coll: object, body: object, scope: dict[str, str]) -> str:
        """How many `var` in `coll` `body` holds for; counted in C as `some` looks (a book of
        four among a hand's ranks: `[*map(TABLE.__getitem__, hand)].count(rank)`)."""
        if (found := self.attributes_equal(var, coll, body, scope)) is not None:
            return f"[*{found[0]}].count({found[1]})"
        c, v = self.ex(coll, scope), self.fresh()
        return f"sum(1 for {v} in {c} if {self.ex(body, {**scope, var: v})})"

    def attributes_equal(self, var: str, coll: object, body: object, scope: dict[str, str]) -> tuple[str, str] | None:
        """Where `body` is `var.A == E`, A a single value and E not reading `var`: the
        attributes A of `coll` (`map(TABLE.__getitem__, coll)`) and E, to be compared in C."""
        if not (isinstance(body, m.Op) and body.op == "=="):
            return None
        for mine, other in ((body.left, body.right), (body.right, body.left)):
            if (isinstance(mine, m.AttrOf) and mine.obj == m.Ref(var, type_of(mine.obj))
                    and not mine.type.startswith("list:") and var not in _free(other)):
                return f"map(A{self.attr_ids[mine.attr]}.__getitem__, {self.ex(coll, scope)})", self.ex(other, scope)
        return None

    def over_seats(self, var: str, coll: object, body: object, scope: dict[str, str]) -> list[str] | None:
        """A body over `seats`, written out once per seat, the seat a number: the player count
        is known, so the loop is not needed (up to UNROLL seats)."""
        if not (isinstance(coll, m.Ref) and coll.name == "seats" and "seats" not in scope
                and self.c.players <= UNROLL):
            return None
        return [self.ex(body, {**scope, var: _literal(s)}) for s in range(self.c.players)]

    def ref(self, name: str, scope: dict[str, str]) -> str:
        if name in scope:
            if name == "target":  # the content of the play's destination is read
                self.reads.zones.add(self.dest_zone)
            return scope[name]
        if name == "seats":
            return "SEATS"
        if name == "players":
            return _literal(self.c.players)
        if name == "direction":
            return self.direction()
        if name in _ENV_NAMES:
            if name in ("passes", "passed", "round", "totals"):
                self.reads.counters = True
            return f"env[{_ENV_NAMES[name]}]"
        raise CodegenError(f"no local for a name in scope (#{len(name)})")

    def call(self, fn: str, arg: object, scope: dict[str, str]) -> str:
        if fn == "count" and isinstance(arg, m.Call) and arg.function == "distinct" and arg not in self.memo:
            return f"len(set({self.ex(arg.args[0], scope)}))"  # how many differ: no list in order needed
        x = self.ex(arg, scope)
        t = type_of(arg)
        simple = x.isidentifier()
        if fn in ("team", "partner", "team_total"):
            return self.team_call(fn, x)
        if fn == "count":
            return f"sum(map(len, {x}))" if t == "zone:piles" else f"len({x})"
        if fn in ("piles", "index") or (fn == "cards" and t != "zone:piles"):
            return x
        if fn == "cards":
            p, y = self.fresh("p"), self.fresh("x")
            return f"[{y} for {p} in {x} for {y} in {p}]"
        if fn == "tops":
            p = self.fresh("p")
            return f"[{p}[-1] for {p} in {x}]"
        if fn == "top":
            if t == "pile" and simple:
                return f"{x}[-1]"  # a pile is never empty
            return f"({x}[-1] if {x} else NONE)" if simple else f"_top({x})"
        if fn == "bottom":
            if t == "pile" and simple:
                return f"{x}[0]"
            return f"({x}[0] if {x} else NONE)" if simple else f"_bottom({x})"
        if fn == "product":
            return f"_prod({x})"
        if fn == "seat":
            return f"({x} % {self.c.players})"
        if fn == "sum":
            return f"sum({x})"
        if fn in ("max", "min"):
            return f"{fn}({x}, default=0)"
        if fn == "distinct":
            return f"list(dict.fromkeys({x}))"
        raise CodegenError(f"cannot generate call {fn!r}")

    def team_call(self, fn: str, x: str) -> str:
        """`team(s)`, `partner(s)` and `team_total(s)` as lookups in the teams' tables."""
        if fn == "team_total":
            self.reads.counters = True
            return f"_team_total(TEAM, env[{TOTALS}], {x})"
        return f"{'TEAM' if fn == 'team' else 'PARTNER'}[{x}]"

    def direction(self) -> str:
        """`direction`: +1 or -1, the state's; it changes without a zone changing."""
        self.reads.counters = True
        return f"env[{STATE}].direction"

    # ------------------------------------------------------------ functions

    def function(self, name: str, params: str) -> None:
        """`def name(env, ...)`: like a closure, it reads the env, its zones in a local."""
        self.w.line(f"def {name}({params}):")
        self.w.indent()
        self.w.line(f"zones = env[{ZONES}]")

    def end(self) -> None:
        self.w.dedent()
        self.w.line("")

    def expression_function(self, name: str, e: object, scope: dict[str, str] | None = None) -> None:
        """A drop-in for the closure of `e`: `fn(env)`, the context names read from the env."""
        self.function(name, "env")
        self.reads = Reads()
        self.w.line(f"return {self.ex(e, scope or {})}")
        self.end()

    def generator(self, name: str, step: CStep) -> None:
        """The distinct actions of a play step or a window for `seat`, in the order the
        reference engine lists them."""
        self.function(name, "env, seat")
        self.generator_body(step)
        self.w.line("return out")
        self.end()

    def generator_body(self, step: CStep) -> None:
        """The body of a step's generator, which the match loop writes out too: `out` is the
        list of the actions of `seat`, `zones` the zones."""
        w = self.w
        w.line(f"env[{SELF}] = seat")
        w.line("out = []")
        w.line("add = out.append")
        distinct: dict[int, str] = {}
        for play in step.plays:
            self.play_actions(play, distinct)

    def window(self, name: str, step: CStep) -> list[Reads]:
        """`fn(env, seat, parts, live)`: the window's actions for `seat`, each play's share kept
        in `parts` (None: to compute), and the seat added to `live[k]` when share k is a list
        (a change of what it reads at any seat drops it). A share is NO_CARD when the hand
        holds no card the play may take, NO_MATE when it holds no card that may go with one:
        only a card of such a face coming into the hand can change it. Returns what each play
        reads."""
        w = self.w
        self.function(name, "env, seat, parts, live")
        w.line(f"env[{SELF}] = seat")
        w.line("out = []")
        reads = []
        zones_of_hands = sorted({p.card_zone for p in step.plays})
        for z in zones_of_hands:
            w.line(f"d{z} = None")
        for k, play in enumerate(step.plays):
            self.reads = Reads()
            w.line(f"part = parts[{k}]")
            w.line("if part is None:")
            w.indent()
            w.line("part = NO_CARD")
            self.play_actions(play, {}, share=True)
            w.line(f"parts[{k}] = part")
            w.line("if part.__class__ is list:")
            w.line(f"    live[{k}].add(seat)")
            w.dedent()
            w.line("if part:")
            w.line("    out += part")
            reads.append(self.reads)
        w.line("return out")
        self.end()
        return reads

    def play_actions(self, play: CPlay, distinct: dict[int, str], share: bool = False) -> None:
        if play.value is not None:
            self.value_actions(play, share)
            return
        if play.meld is not None:
            self.meld_actions(play, share)
            return
        w, P, model = self.w, f"P{play.index}", play.model
        memo = dict(self.memo)
        scope = {"self": "seat"}
        self.reads.hand.add(play.card_zone)
        hand = f"hand{play.card_zone}"
        opened = 0
        if share:  # a share of the window: an empty hand is NO_CARD
            w.line(f"{hand} = zones[{play.card_zone}][seat]")
            w.line(f"if {hand}:")
            w.indent()
            opened = 1
        d = f"d{play.card_zone}" if share else distinct.get(play.card_zone)
        if d is None or share:  # a hand's distinct faces, once for all the plays from it
            if share:
                w.line(f"if {d} is None:")
                w.indent()
            else:
                d = distinct[play.card_zone] = self.fresh("faces")
            w.line(f"{d} = {{}}")
            w.line(f"for c in {hand if share else f'zones[{play.card_zone}][seat]'}:")
            w.line("    f = FACE_OF[c]")
            w.line(f"    if f not in {d}:")
            w.line(f"        {d}[f] = c")
            if share:
                w.dedent()
        faces = None
        single = _literal(next(iter(play.faces))) if play.faces is not None and len(play.faces) == 1 else None
        if single is not None:  # a card of one face: looked up, not looked for
            w.line(f"if {single} in {d}:")
            w.indent()
            opened += 1
        elif play.faces is not None:
            faces = f"F{play.index}"
            w.line(f"if not {faces}.isdisjoint({d}):")
            w.indent()
            opened += 1
        if play.mate is not None and play.mate.zone == play.card_zone and self.mate_faces(play) is not None:
            if share:
                w.line("part = NO_MATE")
            w.line(f"if not M{play.index}.isdisjoint({d}):")  # some card of the hand may go with it
            w.indent()
            opened += 1
        if share:
            w.line("part = []")
            w.line("add = part.append")
        dest = self.fresh("dest")
        self.dest_zone = play.dest_zone
        if play.onto_pile is not None:  # its piles are gone through; else only a `target` read reads it
            self.reads.zones.add(play.dest_zone)
        w.line(f"{dest} = zones[{play.dest_zone}]")
        card_filter = None if play.card_filter is None else self.dynamic_filter(play)
        named = {model.mate.name} if model.mate else set()
        later = [model.mate and model.mate.where, model.new_pile and model.new_pile.expr,
                 model.onto_pile and model.onto_pile.expr, model.choose and model.choose.where]
        self.hoist([card_filter, model.dest_seat, *later], {"self"}, scope)
        if play.dest_seats == "":
            targets = None
        elif play.dest_seat is not None:
            targets = f"({self.ex(model.dest_seat, scope)},)"
        else:
            targets = {"any": "SEATS", "other": "OTHERS[seat]", "self": "(seat,)"}[play.dest_seats]
        # (P, C), then (P, C, the kept index's name) or, once indexed, (the index's local, C)
        join: tuple[object, ...] | None = (self.equality_join(play, {"self", "card", *named})
                                           if play.choose is None else None)
        index = None
        if join is not None and play.index in self.kept_index:  # the match loop keeps it: `ix<play>`
            join = (*join, f"ix{play.index}")
        elif join is not None:
            index = self.fresh("index")
            w.line(f"{index} = None")
        if (play.choose is None and play.mate is None and targets == "SEATS" and self.c.players <= UNROLL
                and (join is None or len(join) == 3)):
            self.pre = self.pre_targets(play, dest, join, scope)
        parts = self.pile_only(play) if play.onto_pile is not None and join is None and play.choose is None \
            and (single is None or play.mate is not None) else []
        if parts:  # worked out for the first card tried on a pile, kept for the others
            self.pile_parts = (parts, self.fresh("piles"))
            w.line(f"{self.pile_parts[1]} = {{}}")
        candidates = None  # the cards that may be a mate, by their card-only conditions: once, not per card
        if play.mate is not None and play.index in self.mate_sets:
            candidates = self.fresh("mates")
            w.line(f"{candidates} = [c for c in zones[{play.mate.zone}][seat] if FACE_OF[c] in M{play.index}]")
        if single is not None:
            w.line(f"for face, card in (({single}, {d}[{single}]),):")
        else:
            w.line(f"for face, card in {d}.items():")
        w.indent()
        if faces is not None:
            w.line(f"if face not in {faces}:")
            w.line("    continue")
        scope = {**scope, "card": "card"}
        if card_filter is not None:
            self.hoist_bodies([card_filter], {"self", "card"}, scope)
            w.line(f"if not {self.ex(card_filter, scope)}:")
            w.line("    continue")
        self.hoist(later, {"self", "card"}, scope)
        depth = 1
        key = "face"
        if play.mate is not None:
            mate_zone = play.mate.zone
            self.reads.hand.add(mate_zone)
            mates, mate = self.fresh("mates"), self.fresh("mate")
            w.line(f"{mates} = {{}}")
            w.line(f"for c in {candidates or f'zones[{mate_zone}][seat]'}:")
            w.line("    if c != card:")
            w.line("        f = FACE_OF[c]")
            w.line(f"        if f not in {mates}:")
            w.line(f"            {mates}[f] = c")
            w.line(f"for mate_face, {mate} in {mates}.items():")
            w.indent()
            depth += 1
            assert model.mate is not None  # compiled from it
            scope = {**scope, model.mate.name: mate}
            if model.mate.where is not None:
                w.line(f"if not {self.ex(model.mate.where, scope)}:")
                w.line("    continue")
            self.hoist(later[1:], {"self", "card", *named}, scope)
            key = "(face, mate_face)"
        if play.choose is not None:
            self.chosen_actions(play, P, key, dest, scope)
        else:
            if join is not None and len(join) == 2:
                assert index is not None  # set for a join the match loop does not keep
                self.pile_index(index, join[0], dest, targets, scope)
            self.target_actions(play, P, key, dest, targets, scope, {"self", "card", *named},
                                None if join is None else (index, join[1]) if len(join) == 2 else join)
        for _ in range(depth + opened):
            w.dedent()
        self.memo = memo
        self.pre = None
        self.pile_parts = None

    def mate_faces(self, play: CPlay) -> str | None:
        """`M<play>`, the faces that the mate's card-only conditions keep, written once at the
        module's top; None when no condition reads the mate alone."""
        assert play.model.mate is not None  # asked of plays with a mate
        if play.index in self.mate_sets:  # the turn's step and the window may both make the play
            return f"M{play.index}"
        where, name = play.model.mate.where, play.model.mate.name
        if where is None:
            return None
        static = [e for e in m.conjuncts(where) if m.reads_only(e, {name})]
        if not static:
            return None
        c = self.fresh("c")
        test = " and ".join(self.ex(e, {name: c}) for e in static)
        self.top.append(f"M{play.index} = frozenset(f for f, {c} in FIRST.items() if {test})")
        self.mate_sets.add(play.index)
        return f"M{play.index}"

    def dynamic_filter(self, play: CPlay) -> object:
        """The part of the card filter that the faces set does not already decide: the same
        split `compile._face_filter` makes, so the same conjuncts are tested."""
        return m.all_of([e for e in m.conjuncts(play.model.card_filter) if not m.reads_only(e, {"card"})])

    def pile_only(self, play: CPlay) -> list[object]:
        """The largest parts of an onto-pile condition that read the pile but not the card
        (Rummy's `count(distinct(cards(pile).rank))`): the same for every card tried on a pile."""
        cond = play.model.onto_pile and play.model.onto_pile.expr
        found: list[object] = []

        def look(e: object) -> None:
            if isinstance(e, (m.Const, m.ParamRef, m.Ref, m.ValueRef)) or e in self.memo or e in found:
                return
            free = _free(e)
            if "pile" in free and free <= {"pile", "target", "owner", "self"}:
                found.append(e)
            elif isinstance(e, (m.Each, m.Quantifier)):
                look(e.collection)  # the body reads the bound name
            else:
                for child in m.children(e):
                    look(child)

        if cond is not None:
            look(cond)
        return found

    def pile_values(self, t: str, scope: dict[str, str]) -> None:
        """Before a target's piles are gone through for a card: its piles' values of
        `pile_only`, worked out for the first card and kept for the rest (expressions are pure,
        so working out a part a short-circuit would skip changes no result)."""
        assert self.pile_parts is not None  # asked only where play_actions set it
        w, (parts, kept) = self.w, self.pile_parts
        values, inner, memo = self.fresh("h"), {**scope, "pile": "pile"}, dict(self.memo)
        w.line(f"{values} = {kept}.get({t})")
        w.line(f"if {values} is None:")
        w.indent()
        repeated = _repeated(parts)
        if repeated:  # worked out once a pile, before the pile's values that read them
            w.line(f"{values} = {kept}[{t}] = []")
            w.line("for pile in target:")
            w.indent()
            for e in repeated:
                local = self.fresh("h")
                w.line(f"{local} = {self.ex(e, inner)}")
                self.memo[e] = local
            w.line(f"{values}.append(({', '.join(self.ex(e, inner) for e in parts)},))")
            w.dedent()
        else:
            w.line(f"{values} = {kept}[{t}] = [({', '.join(self.ex(e, inner) for e in parts)},) for pile in target]")
        w.dedent()
        self.memo = memo
        for k, e in enumerate(parts):
            self.memo[e] = f"{values}[i][{k}]"

    def equality_join(self, play: CPlay, known: set[str]) -> tuple[object, object] | None:
        """An `onto pile when P == C` where P reads the pile (and its zone) and C the card: the
        piles are indexed by P once, and each card looks up C, instead of testing every pile
        for every card. Returns (P, C) or None."""
        cond = play.model.onto_pile and play.model.onto_pile.expr
        if not (isinstance(cond, m.Op) and cond.op == "=="):
            return None
        for pile_side, card_side in ((cond.left, cond.right), (cond.right, cond.left)):
            if ("pile" in _free(pile_side) and _free(pile_side) <= {"pile", "target", "owner", "self"}
                    and _free(card_side) <= known and not type_of(pile_side).startswith("list:")
                    and type_of(pile_side) not in ("zone", "zone:piles", "pile")):
                return pile_side, card_side
        return None

    def pile_index(self, index: str, pile_side: object, dest: str, targets: str | None,
                   scope: dict[str, str]) -> None:
        """Once per play and seat, lazily: for each target, its piles' indices by `pile_side`
        (a list by seat when the targets are every seat, else a dict)."""
        w = self.w
        w.line(f"if {index} is None:")
        w.indent()
        every = targets == "SEATS"
        w.line(f"{index} = {'[]' if every else '{}'}")
        w.line(f"for t, target in enumerate({dest}):" if every else f"for t in {targets or '(-1,)'}:")
        if not every:
            w.line(f"    target = {dest}[t]" if targets else f"    target = {dest}")
        w.indent()
        w.line("by_key = {}")
        self.index_piles(pile_side, {**scope, 'target': 'target', 'owner': 't', 'pile': 'pile'})
        w.line(f"{index}.append(by_key)" if every else f"{index}[t] = by_key")
        w.dedent()
        w.dedent()

    def index_piles(self, pile_side: object, scope: dict[str, str]) -> None:
        """`by_key`: the indices of `target`'s piles by their value of `pile_side`."""
        w = self.w
        w.line("for i, pile in enumerate(target):")
        w.line(f"    key = {self.ex(pile_side, scope)}")
        w.line("    if key in by_key:")
        w.line("        by_key[key].append(i)")
        w.line("    else:")
        w.line("        by_key[key] = [i]")

    def pre_targets(self, play: CPlay, dest: str, join: tuple[object, ...] | None,
                    scope: dict[str, str]) -> list[dict[str, str]]:
        """Before the loop over the cards, for each target seat (written out): its new-pile
        condition when it reads the target alone, and its kept pile index (the match loop's):
        the same for every card, so worked out once."""
        w, model = self.w, play.model
        cond = model.new_pile.expr if play.new_pile is not None and model.new_pile is not None else None
        pre: list[dict[str, str]] = []
        for seat in range(self.c.players):
            here: dict[str, str] = {}
            local = {**scope, "target": f"{dest}[{seat}]", "owner": _literal(seat)}
            if cond is not None and _free(cond) <= {"target", "owner", "self"}:
                here["new"] = self.fresh("h")
                w.line(f"{here['new']} = {self.ex(cond, local)}")
            if join is not None:
                pile_side, _, kept = join
                here["index"] = index = self.fresh("h")
                w.line(f"{index} = {kept}[{seat}]")
                w.line(f"if {index} is None:")
                w.indent()
                w.line(f"target = {dest}[{seat}]")
                w.line(f"by_key = {kept}[{seat}] = {{}}")
                self.index_piles(pile_side, {**scope, "target": "target", "owner": _literal(seat), "pile": "pile"})
                w.line(f"{index} = by_key")
                w.dedent()
            pre.append(here)
        return pre

    def target_actions(self, play: CPlay, P: str, key: str, dest: str, targets: str | None,
                       scope: dict[str, str], known: set[str], join: tuple[object, ...] | None = None) -> None:
        """The actions of one card (and mate) at each target zone; the targets written out one
        by one when they are every seat and there are few."""
        w = self.w
        if targets is None:
            self.target_block(play, P, key, dest, "-1", False, scope, known, join)
        elif targets == "SEATS" and self.c.players <= UNROLL:
            for seat in range(self.c.players):
                self.target_block(play, P, key, f"{dest}[{seat}]", _literal(seat), True, scope, known, join)
        elif targets == "(seat,)":  # the seat's own zone: one target
            w.line("t = seat")
            self.target_block(play, P, key, f"{dest}[t]", "t", True, scope, known, join)
        else:
            w.line(f"for t in {targets}:")
            w.indent()
            self.target_block(play, P, key, f"{dest}[t]", "t", True, scope, known, join)
            w.dedent()

    def add(self, action: str) -> None:
        self.w.line(f"add({action})")

    def target_block(self, play: CPlay, P: str, key: str, zone: str, t: str, seated: bool,
                     scope: dict[str, str], known: set[str], join: tuple[object, ...] | None) -> None:
        w = self.w
        memo = dict(self.memo)
        plain = play.new_pile is None and play.onto_pile is None
        pre = self.pre[int(t)] if self.pre is not None and seated and t.isdigit() else {}
        if not plain and not (pre and (play.new_pile is None or model_cond_done(play, pre)) and join is not None):
            w.line(f"target = {zone}")
        scope = {**scope, "target": "target", "owner": t}
        model = play.model
        if plain:
            self.add(f"({P}, {key}, {t}, -1)")
        if play.onto_pile is not None and seated and "index" not in pre:
            assert model.onto_pile is not None  # compiled from it
            self.hoist([model.onto_pile.expr], {*known, "target", "owner"}, scope)
        if play.new_pile is not None:
            assert model.new_pile is not None  # compiled from it
            cond = model.new_pile.expr
            if cond is None:
                self.add(f"({P}, {key}, {t}, -1)")
            elif "new" in pre:
                w.line(f"if {pre['new']}:")
                w.line(f"    add(({P}, {key}, {t}, -1))")
            else:
                self.hoist_bodies([cond], {*known, "target", "owner"}, scope)
                w.line(f"if {self.ex(cond, scope)}:")
                w.indent()
                self.add(f"({P}, {key}, {t}, -1)")
                w.dedent()
        if join is not None and "index" in pre:  # the kept index, looked up before the cards' loop
            w.line(f"for i in {pre['index']}.get({self.ex(join[1], scope)}, ()):")
            w.line(f"    add(({P}, {key}, {t}, i))")
        elif join is not None and len(join) == 3:  # the match loop's index, kept while the target does not change
            pile_side, card_side, kept = join
            w.line(f"by_key = {kept}[{t}]")
            w.line("if by_key is None:")
            w.indent()
            w.line(f"by_key = {kept}[{t}] = {{}}")
            self.index_piles(pile_side, {**scope, 'pile': 'pile'})
            w.dedent()
            w.line(f"for i in by_key.get({self.ex(card_side, scope)}, ()):")
            w.line(f"    add(({P}, {key}, {t}, i))")
        elif join is not None:
            index, card_side = join
            w.line(f"for i in {index}[{t}].get({self.ex(card_side, scope)}, ()):")
            w.line(f"    add(({P}, {key}, {t}, i))")
        elif play.onto_pile is not None:
            assert model.onto_pile is not None  # compiled from it
            cond = model.onto_pile.expr
            if self.pile_parts is not None:
                self.pile_values(t, scope)
            w.line("for i, pile in enumerate(target):")
            w.indent()
            if cond is None:
                self.add(f"({P}, {key}, {t}, i)")
            else:
                self.hoist_bodies([cond], {*known, "target", "owner", "pile"}, {**scope, "pile": "pile"})
                w.line(f"if {self.ex(cond, {**scope, 'pile': 'pile'})}:")
                w.indent()
                self.add(f"({P}, {key}, {t}, i)")
                w.dedent()
            w.dedent()
        self.memo = memo

    def chosen_actions(self, play: CPlay, P: str, key: str, dest: str, scope: dict[str, str]) -> None:
        w = self.w
        choose = play.model.choose
        assert play.choose is not None and choose is not None  # asked of plays that choose
        kind, piles_zone, seats = play.choose.kind, play.choose.piles_zone, play.choose.seats
        scope = {**scope, "target": dest}
        seats_expr = {"any": "SEATS", "other": "OTHERS[seat]", "self": "(seat,)"}[seats]
        w.line(f"for t in {seats_expr}:")
        w.indent()
        if kind == "seat":
            cond = None if choose.where is None else self.ex(choose.where, {**scope, choose.name: "t"})
            w.line(f"if {cond}:" if cond else "if True:")
            w.indent()
            self.add(f"({P}, {key}, t, -1)")
            w.dedent()
        else:
            self.reads.zones.add(piles_zone)
            chosen = self.fresh("chosen")
            w.line(f"for i, {chosen} in enumerate(zones[{piles_zone}][t]):")
            cond = None if choose.where is None else self.ex(choose.where, {**scope, choose.name: chosen})
            w.line(f"    if {cond}:" if cond else "    if True:")
            w.indent()
            w.indent()
            self.add(f"({P}, {key}, t, i)")
            w.dedent()
            w.dedent()
        w.dedent()

    def merge(self, name: str, e: m.Merge) -> None:
        """A drop-in for `compile._merge`'s closure: every other pile of the collection that
        meets the condition goes under the receiving pile, which keeps its place."""
        self.function(name, "env")
        self.merge_body(e, {})
        self.end()

    def merge_body(self, e: m.Merge, scope: dict[str, str]) -> None:
        """The body of `merge`, which the match loop writes out too, the play's context in its
        locals (`scope`). Most plays merge nothing: the piles are only looked at until one is
        found to merge."""
        w = self.w
        context = {"self", "card", "target", "owner", "pile"}
        self.hoist([e.where], context, scope)
        w.line(f"receiving = {scope.get('pile', f'env[{PILE}]')}")
        w.line(f"piles = {self.ex(e.collection, scope)}")
        w.line("merged = None")
        v = self.fresh()
        w.line(f"for {v} in piles:")
        where = "" if e.where is None else f" and {self.ex(e.where, {**scope, e.var: v})}"
        w.line(f"    if {v} is not receiving{where}:")
        w.line("        if merged is None:")
        w.line(f"            merged = [{v}]")
        w.line("        else:")
        w.line(f"            merged.append({v})")
        w.line("if merged is not None:")
        w.line("    under = []")
        w.line("    for merging in merged:")
        w.line("        under.extend(merging)")
        w.line("    receiving[:0] = under")
        w.line("    gone = set(map(id, merged))")
        w.line(f"    piles[:] = [{v} for {v} in piles if id({v}) not in gone]")
        self.memo = {}

    def move_cards(self, name: str, e: m.MoveCards, named: dict[str, str]) -> None:
        """A drop-in for `compile._move_cards`'s closure: up to `count` cards from the top of a
        zone or a pile down (or at random), those `where` keeps; into a zone of piles each card
        starts a pile; a pile left empty is taken away. Without `at random`, the cards are
        looked at from the top only until enough are found: `where` is pure, so the same ones
        are taken."""
        w = self.w
        self.function(name, "env")
        x = self.fresh("x")
        inner = {**named, e.var: x} if e.var else named
        w.line(f"src = {self.ex(e.source, named)}")
        w.line(f"wanted = {'len(src)' if e.count is None else self.ex(e.count, named)}")
        keep = "True" if e.where is None else self.ex(e.where, inner)
        if e.random:
            w.line("fits = []")
            w.line("for i in range(len(src) - 1, -1, -1):")
            w.line(f"    {x} = src[i]")
            w.line(f"    if {keep}:")
            w.line("        fits.append(i)")
            w.line(f"taken = env[{RNG}].sample(fits, min(wanted, len(fits)))[:max(wanted, 0)]")
        else:
            w.line("taken = []")
            w.line("if wanted > 0:")
            w.line("    for i in range(len(src) - 1, -1, -1):")
            w.line(f"        {x} = src[i]")
            w.line(f"        if {keep}:")
            w.line("            taken.append(i)")
            w.line("            if len(taken) >= wanted:")
            w.line("                break")
        w.line("cards = [src[i] for i in taken]")
        w.line("for i in sorted(taken, reverse=True):")
        w.line("    del src[i]")
        w.line(f"for {x} in cards:")
        w.line(f"    env[{FREE}] = {x}")
        dest = self.ex(e.dest, inner)
        w.line(f"    {dest}.append([{x}] if {type_of(e.dest) == 'zone:piles'} else {x})")
        if type_of(e.source) == "pile":
            w.line("if not src:")
            w.line("    _remove_pile(zones, PILE_ZONES, src)")
        w.line("return cards  # for the match loop, which tells the caches what moved")
        self.end()

    def copier(self) -> None:
        """`copy_zones(zones)`: a copy of every zone that shares no list with the original."""
        parts = []
        for k, zone in enumerate(self.model.zones):
            one = "[list(p) for p in {}]" if zone.piles else "list({})"
            parts.append(f"[{one.format('s')} for s in zones[{k}]]" if zone.per_seat else one.format(f"zones[{k}]"))
        self.w.line("def copy_zones(zones):")
        self.w.line(f"    return [{', '.join(parts)}]")
        self.w.line("")

    def start_round(self) -> None:
        """`start_round(g)`: `Game._start_round` written out: the round's empty zones, its
        state, and its setup, each `where` inlined (a card's test, in a loop over the cards)."""
        c, w, model = self.c, self.w, self.model
        n = c.players
        empty = ", ".join("[" + ", ".join(["[]"] * n) + "]" if z.per_seat else "[]" for z in model.zones)
        w.line("def start_round(g):")
        w.indent()
        w.line("st, env = g.state, g.env")
        w.line(f"zones = st.zones = [{empty}]")
        w.line(f"env[{ZONES}], env[{ROUND}], env[{TOTALS}] = zones, st.round, st.totals")
        w.line(f"st.active = active = starter(env) % {n}")
        w.line("st.step, st.round_plays, st.idle_turns, st.passed = 0, 0, 0, False")
        w.line("st.direction, st.next_turns, st.window, st.final_turns = 1, [], None, -1")
        w.line("st.silent.clear()")
        w.line(f"env[{PASSES}], env[{PASSED}] = 0, False")
        w.line(f"st.played = [-1] * {c.deck_size + 1}")
        for k, (op, compiled) in enumerate(zip(model.setup, c.setup, strict=True)):
            if isinstance(op, m.Shuffle):
                w.line(f"deck = list(range({c.deck_size}))")
                w.line("_shuffle(g.rng, deck)")
                w.line(f"zones[{c.zone_index[op.zone]}] = deck")
            elif isinstance(op, m.Let):
                assert isinstance(compiled, CLet)  # compiled from it
                w.line(f"st.values[{compiled.value}] = setup{k}(env)")
            else:
                assert isinstance(compiled, CMove)  # compiled from it
                self.setup_take(op, compiled.count)
        w.dedent()
        w.line("")

    def setup_take(self, op: m.Deal | m.Transfer, count: int | None) -> None:
        """A `deal` (to each seat, from the starter on) or a `move` (from a shared zone, or from
        each seat's to its own) as `Game._take` takes the cards: from the top down, up to
        `count`, those its `where` keeps."""
        c, w = self.c, self.w
        zones = self.model.zones
        source, dest = c.zone_index[op.source], c.zone_index[op.dest]
        mine = isinstance(op, m.Transfer) and zones[source].per_seat
        each = isinstance(op, m.Deal) or mine
        w.line("for seat in ORDERS[active]:" if each else "seat = None")
        if each:
            w.indent()
        w.line(f"env[{SELF}] = seat")
        w.line(f"into = zones[{dest}][seat]" if zones[dest].per_seat else f"into = zones[{dest}]")
        w.line(f"src = zones[{source}][seat]" if mine else f"src = zones[{source}]")
        if op.where is None:
            if count is None:
                w.line("taken = src[::-1]")
                w.line("src.clear()")
            else:
                w.line(f"taken = [src.pop() for _ in range(min({count}, len(src)))]")
            w.line("into.extend(taken)")
        elif count != 0:
            memo = self.memo
            self.memo = {}
            scope = {"self": "seat", "card": "card"}
            steady = not _reads_zone(op.where, op.source)  # the source shrinks as cards are taken
            if steady:
                self.hoist([op.where], {"self"}, scope)
            keep = self.ex(op.where, scope)
            if count is None and steady:  # every card it keeps: top first, the others stay in their order
                w.line(f"taken = [card for card in reversed(src) if {keep}]")
                w.line("if taken:")
                w.line("    gone = set(taken)")
                w.line("    src[:] = [card for card in src if card not in gone]")
                w.line("    into.extend(taken)")
            else:
                w.line("taken = []")
                w.line("for i in range(len(src) - 1, -1, -1):")
                w.line("    card = src[i]")
                w.line(f"    if {keep}:")
                w.line("        taken.append(src.pop(i))")
                if count is not None:
                    w.line(f"        if len(taken) >= {count}:")
                    w.line("            break")
                w.line("into.extend(taken)")
            self.memo = memo
        if each:
            w.dedent()

    def round_end(self, names: list[str]) -> list[Reads]:
        """`round_end(g, dirty)`: the first end-round condition that holds, testing only those
        `dirty` flags (the others read nothing that changed since they last failed)."""
        self.function("round_end", "env, dirty")
        reads = self.round_end_tests(names)
        self.w.line("return reason")
        self.end()
        return reads

    def round_end_tests(self, names: list[str]) -> list[Reads]:
        """The body of `round_end`, which the match loop writes out too: `reason` is the name
        of the first condition that holds, or None."""
        w = self.w
        reads = []
        w.line("reason = None")
        for k, rule in enumerate(self.model.round_ends):
            self.reads = Reads()
            test = self.ex(rule.cond, {})
            reads.append(self.reads)
            if k:
                w.line("if reason is None:")
                w.indent()
            if self.reads.counters:  # it reads what changes without a zone changing: always tested
                w.line(f"if {test}:")
                w.line(f"    reason = {names[k]}")
                continue
            w.line(f"if dirty[{k}]:")
            w.line(f"    if {test}:")
            w.line(f"        reason = {names[k]}")
            w.line("    else:")
            w.line(f"        dirty[{k}] = False")
        w.depth -= max(len(self.model.round_ends) - 1, 0)
        return reads

    # ------------------------------------------------------------ the match loop

    def playout(self, window_reads: Sequence[Reads] | None, round_end_reads: Sequence[Reads],
                names: list[str]) -> None:
        """`playout(g, choose, bound, draw)`: a `FastGame` played to its end, `choose(actions)`
        making every decision (a random bot's `rng.choice`, written out when `draw` is that
        random source's `getrandbits`), as `bots.play_out` plays it through `FastGame.play`.
        Written out for this ruleset: the decision (a pass in the response window, or a play
        of one card, with or without mate or chosen target, at a step of the turn or in the
        window), its zones' caches invalidated zone by zone; then
        `FastGame._advance`, a loop over what comes next: the window's seats asked in turn
        (each seat's answer kept), or a dispatch on the turn's step, each branch running
        straight on through the draws, the skipped steps and the turn's change to the next
        play step's actions. Anything rarer (a play of no card, a meld, a play that ends the
        turn, a seat with no action, an effect step, the final round, the engine's budget near
        its end) goes through `FastGame.play` / `FastGame._advance`, from the state as it
        stands (told the steps it already ran), so both paths make the same state, the same
        decisions and the same errors."""
        c, w = self.c, self.w
        self.reads = Reads()  # what the loop's own copies of the generators read is no one's business
        steps = c.turn
        shared = set()  # zones a window share reads: a draw into them tells which cards came
        for r in window_reads or ():
            shared |= r.zones | r.own | r.hand

        self.kept_index = self.kept_pile_indices()

        plays = c.window.plays if c.window is not None else ()
        self.caches = zone_caches(len(self.model.zones), window_reads or (), round_end_reads,
                             [p.faces is None or (p.mate is not None and p.index not in self.mate_sets) for p in plays])

        self.written: set[tuple[int, str]] = set()  # (depth, line) of the `_wrote` lines written
        self.names, self.shared = names, shared
        self.keep_answers = not any(r.counters for r in window_reads or ())
        # a play of no card, a meld, or one that may end the turn, goes through the engine
        inline = [p for p in c.plays if p.value is None and p.meld is None and not _ends_turn(p)
                  and not (p.choose is not None and p.dest_seats)]
        in_turn = [p for p in inline if any(p in s.plays for s in steps if s.kind == "play")]
        in_window = [p for p in inline if c.window is not None and p in c.window.plays]
        repeats = tuple(k for k, s in enumerate(steps) if s.kind == "play" and s.repeat)
        w.line("def playout(g, choose, bound, draw):")
        w.indent()
        w.line("st, env, dirty, answers = g.state, g.env, g._dirty, g._answers")
        w.line("parts, live = g._parts, g._live")
        w.line("actions = g._actions")
        self.forget_kept()
        w.line("while not st.over:")
        w.indent()
        w.line("if draw is None or not actions:")
        w.line("    action = choose(actions)")
        w.line("else:  # `random.Random.choice`, written out: the same draws")
        w.line("    size = len(actions)")
        w.line("    bits = size.bit_length()")
        w.line("    r = draw(bits)")
        w.line("    while r >= size:")
        w.line("        r = draw(bits)")
        w.line("    action = actions[r]")
        w.line("play = action[0]")
        first = "if"
        if c.window is not None:
            w.line("window = st.window")
            w.line("if window is not None:")
            w.indent()
            w.line("if play is None:  # a pass: the next seat is asked")
            w.line(f"    window[0] = (window[0] + st.direction) % {c.players}")
            w.line("    window[1] += 1")
            w.line("    zones = st.zones")
            if in_window:
                w.line(f"elif {' or '.join(f'play is P{p.index}' for p in in_window)}:")
                w.indent()
                w.line("seat = window[0]")
                self.apply_decision(in_window)
                w.line(f"window[0] = (seat + st.direction) % {c.players}")
                w.line("window[1] = 0")
                self.round_end_after_play(in_window=True)
                w.dedent()
            w.line("else:")
            w.indent()
            self.engine_plays()
            w.dedent()
            w.dedent()
            first = "elif"
        rare = ["st.final_turns >= 0"] * (c.final is not None) + [
            f"not ({' or '.join(f'play is P{p.index}' for p in in_turn) or 'False'})"]
        w.line(f"{first} {' or '.join(rare)}:")
        w.indent()
        self.engine_plays()
        w.dedent()
        w.line("else:")
        w.indent()
        w.line("seat = st.active")
        self.apply_decision(in_turn)
        if repeats:
            w.line(f"if st.step not in {repeats!r}:  # `may play any of` stays on its step until a pass")
            w.line("    st.step += 1")
        else:
            w.line("st.step += 1")
        self.round_end_after_play(in_window=False)
        w.dedent()
        self.advance_loop()
        w.line("if st.round_plays > bound:")
        w.line("    raise EngineError(*endless_round(g))")
        w.dedent()
        w.line("g._actions = actions")
        w.dedent()
        w.line("")
        self.kept_index = {}

    def kept_pile_indices(self) -> dict[int, int]:
        """The turn's plays whose pile index the match loop keeps until their row changes (a
        new pile's condition that reads the target alone): play -> how many targets."""
        kept = {}
        for step in self.c.turn:
            for p in step.plays if step.kind == "play" else ():
                named = {p.model.mate.name} if p.model.mate else set()
                join = self.equality_join(p, {"self", "card", *named}) if p.choose is None else None
                if join is not None and m.names_read(join[0]) <= {"pile", "target", "owner"}:
                    kept[p.index] = self.c.players if p.dest_seats else 1
        return kept

    def write_stale(self, zone: int, seat: str, cards: str, arrived: bool) -> None:
        """`FastGame._wrote`, written out for this zone: the end-round conditions that read
        it flagged, the window shares that read it dropped (each seat's answer with them),
        and the kept pile indices of the zone forgotten. A flag or an index already written
        since the last `wrote` of another block is not written again."""
        c, w = self.c, self.w
        zone_readers, coarse, own, by_face, any_face = self.caches[zone]
        lines = [f"dirty[{k}] = True" for k in zone_readers]
        for p, size in self.kept_index.items():
            if c.plays[p].dest_zone == zone:
                lines.append(f"ix{p} = [None] * {size}" if seat in ("-1", "-2") else f"ix{p}[{seat}] = None")
        depth = w.depth
        for line in lines:
            if (depth, line) not in self.written:
                w.line(line)
                self.written.add((depth, line))
        for k in coarse:  # a share read at any seat: dropped at the seats where it is a list (`live`)
            w.line(f"if live[{k}]:")
            w.line(f"    for s in live[{k}]:")
            w.line(f"        parts[s][{k}] = None")
            w.line("        answers[s] = None")
            w.line(f"    live[{k}].clear()")
        faces = [k for k in by_face if cards != "None"]
        dropped = [*own, *any_face, *(k for k in by_face if k not in faces)]
        if not (dropped or faces):
            return
        every = seat in ("-1", "-2")
        if every:
            w.line("for s in SEATS:")
            w.indent()
        who = "s" if every else seat
        w.line(f"ps = parts[{who}]")
        for k in dropped:
            w.line(f"ps[{k}] = None")
        if dropped:
            w.line(f"answers[{who}] = None")
        if faces:  # a share that only cards of some faces change
            card = cards[1:-2] if cards.startswith("(") and cards.endswith(",)") else None
            if card is None:
                w.line(f"for c in {cards}:")
                w.indent()
            if arrived:
                w.line(f"for k, keep in WA{zone}.get(FACE_OF[{card or 'c'}], ()):")
                w.line("    p = ps[k]")
                w.line("    if p is not None and p is not keep:")
            else:
                w.line(f"for k in WL{zone}.get(FACE_OF[{card or 'c'}], ()):")
                w.line("    p = ps[k]")
                w.line("    if p is not None and p.__class__ is not Shallow:")
            w.line("        ps[k] = None")
            w.line(f"        answers[{who}] = None")
            if card is None:
                w.dedent()
        if every:
            w.dedent()

    def engine_plays(self) -> None:
        """A decision the match loop does not write out: `FastGame.play` makes it and advances."""
        w = self.w
        w.line("g.play(action)")
        w.line("actions = g._actions")
        self.forget_kept()
        w.line("if st.round_plays > bound:")
        w.line("    raise EngineError(*endless_round(g))")
        w.line("continue")

    def apply_decision(self, plays: list[CPlay]) -> None:
        """`FastGame.play`'s move of `seat`'s card (and mate), one branch per play, and its count."""
        w = self.w
        w.line("_, face, target_seat, pile_index = action")
        w.line("zones = st.zones")
        for n, p in enumerate(plays):
            w.line(f"{'if' if n == 0 else 'elif'} play is P{p.index}:")
            w.indent()
            self.apply_inline(p)
            w.dedent()
        w.line("st.plays += 1")
        w.line("st.round_plays += 1")
        w.line(f"st.idle_turns = env[{PASSES}] = 0")

    def round_end_after_play(self, in_window: bool) -> None:
        """`Game._played`'s end: the round may end (the match with it: the loop is over);
        else, after a play of the turn, the window opens (the advance loop asks it); a window
        over clears its silent seats."""
        w = self.w
        self.round_end_tests(self.names)
        w.line("if reason is not None:")
        w.indent()
        w.line("g._end_round(reason)")
        self.forget_kept()
        w.line("if st.silent and st.window is None:")
        w.line("    st.silent.clear()")
        w.line("zones = st.zones")
        w.line("if st.over:")
        w.line("    actions = []")
        w.line("    if st.round_plays > bound:")
        w.line("        raise EngineError(*endless_round(g))")
        w.line("    break")
        w.dedent()
        if not in_window and (self.c.window is not None or _silences(self.model)):
            w.line("else:")
            w.indent()
            if self.model.window is not None:  # compiled to `c.window`
                self.open_window("st.active")
            if _silences(self.model):
                w.line("if st.silent and st.window is None:")
                w.line("    st.silent.clear()")
            w.dedent()

    def longest_run(self) -> int:
        """The most steps of the engine's budget one branch of the advance loop spends: a step,
        and a window closed at once, for each step of the turn and the turn's change."""
        return 2 * (len(self.c.turn) + 1)

    def advance_loop(self) -> None:
        """`FastGame._advance`, written out: until a seat must decide, the window's seats asked
        in turn, or the turn's steps run from the one under way. `spent` is the number of the
        step under way, as `_advance` counts its budget (a branch adds the steps it runs when
        it goes on: `next_step`); near the budget's end, `_advance` itself takes over."""
        c, w = self.c, self.w
        w.line("spent = 1")
        w.line("idle, seen = 0, None  # `_advance`'s passes with no decision, the state after their last cycle")
        w.line("while True:")
        w.indent()
        if c.window is not None:
            self.ask_window()
        w.line("k = st.step")
        steps = c.turn
        for j in range(len(steps) + 1):
            w.line(("if" if j == 0 else "elif") + f" k == {j}:" if j < len(steps) else "else:")
            w.indent()
            w.line("active = st.active")
            self.written = set()
            self.run_from(j)
            w.dedent()
        w.dedent()

    def next_step(self, steps: int | str) -> None:
        """On to the advance loop's next step, `steps` after the one `spent` numbers; near the
        budget's end the engine takes over, to count it as it does."""
        w = self.w
        if steps:
            w.line(f"spent += {steps}")
        w.line(f"if spent > {step_budget(self.c) - self.longest_run()}:")
        w.indent()
        self.handover("spent - 1")
        w.dedent()
        w.line("continue")

    def ask_window(self) -> None:
        """The open window asks its seats in turn from the one asked now (`RINGS`: the seats
        left to ask, by direction, seat and passes so far); a seat with nothing to play passes.
        As `FastGame._advance` counts its budget: each pass a step, but none when no seat could
        answer from the first ask (it closes at once). A silent seat's answer may be worked out
        and kept: it is what the seat could play, whether or not it may."""
        c, w = self.c, self.w
        n = c.players
        w.line("window = st.window")
        w.line("if window is not None:")
        w.indent()
        w.line("silent = st.silent")
        w.line("for passes, seat in enumerate(RINGS[st.direction][window[0]][window[1]], window[1]):")
        w.indent()
        self.answer("seat")
        w.line("if answer and seat not in silent:")
        w.line("    break")
        w.dedent()
        w.line("else:")
        w.indent()
        w.line("start = window[1]")
        w.line("st.window = None  # a full round of passes closes it")
        w.line("if silent:")
        w.line("    silent.clear()")
        w.line(f"idle = {n}")
        if self.keep_answers:
            self.next_step(f"1 if start == 0 else {n + 1} - start")
        else:
            self.next_step(f"{n + 1} - start")
        w.dedent()
        w.line("window[0], window[1] = seat, passes")
        w.line("actions = [*answer, PASS]")
        w.line("break")
        w.dedent()

    def answer(self, seat: str) -> None:
        """`answer`: the window's actions of `seat` (no pass), kept until what they read changes."""
        w = self.w
        if not self.keep_answers:
            assert self.c.window is not None  # written for rulesets with a window
            w.line(f"answer = gen_window(env, {seat}, [None] * {len(self.c.window.plays)}, live)")
            return
        w.line(f"answer = answers[{seat}]")
        w.line("if answer is None:")
        w.line(f"    answer = answers[{seat}] = gen_window(env, {seat}, parts[{seat}], live)")

    def handover(self, spent: str) -> None:
        """Hand the rest of the advance to `FastGame._advance`, told the steps already spent:
        it finds the next decision."""
        self.w.line(f"g._advance({spent})")
        self.w.line("actions = g._actions")
        self.forget_kept()
        self.w.line("break")

    def forget_kept(self) -> None:
        """The match loop's pile indices, empty: at its start, and after the engine's own code
        ran (it may have changed any zone)."""
        for p, size in self.kept_index.items():
            self.w.line(f"ix{p} = [None] * {size}")

    def run_from(self, j: int) -> None:
        """A branch of the advance loop: from step `j` (the turn's change for j past the last),
        straight on, to the next play step's actions (a decision: `break`), or to a window that
        some seat may answer, a skipped play step or a round's end (the loop goes on), or to
        what the engine does (`handover`). `extra`: the steps run since the one `spent` numbers."""
        c, w = self.c, self.w
        steps = c.turn
        order = list(range(j, len(steps))) + [None] + list(range(0, j))
        extra = 0
        for n, k in enumerate(order):
            if n:
                extra += 1
            if k is None:  # the turn is over: `Game._turn_over` before the final round
                w.line("st.step = 0")
                w.line(f"st.passed = env[{PASSED}] = False")
                if self.model.final is not None:  # compiled to `c.final`
                    w.line(f"if {self.ex(self.model.final.when, {})}:  # the final round's condition")
                    w.indent()
                    w.line("g._turn_over()  # it begins the final round, whose steps are the engine's")
                    self.handover(_plus("spent", extra))
                    w.dedent()
                w.line(f"st.active = active = st.next_turns.pop(0) if st.next_turns else "
                       f"(active + st.direction) % {c.players}")
                continue
            step, source = steps[k], self.model.turn[k]
            if step.kind == "effect":  # the engine runs it
                self.handover(_plus("spent", extra - 1))
                return
            if source.when is not None:
                w.line(f"env[{SELF}] = active")
                w.line(f"if not {self.ex(source.when, {})}:")
                w.indent()
                w.line(f"st.step = {k + 1}")
                if step.kind == "play":
                    self.next_step(extra + 1)
                    w.dedent()
                else:
                    w.dedent()
                    w.line("else:")
                    w.indent()
            if step.kind == "play":
                w.line("seat = active")
                self.generator_body(step)
                w.line("actions = out")
                w.line("if not actions:  # the seat passes (`or pass`), or cannot: the engine says which")
                w.indent()
                if step.or_pass:
                    self.pass_step(k, extra)
                else:
                    self.handover(_plus("spent", extra - 1))
                w.dedent()
                if step.optional:
                    w.line("actions.append(PASS)")
                w.line("break")
                return
            assert isinstance(source, m.Draw)  # neither a play nor an effect step
            self.draw_inline(step, source, k)
            if source.when is not None:
                w.dedent()
            self.end_round_if_due(then=("spent = 1", "continue"))
            if c.window is not None:
                extra += self.window_after_step(extra)
        raise CodegenError("a turn with no play step")  # `compile` gives every turn one

    def open_window(self, seat: str) -> None:
        """The response window opens after `seat`'s turn step, where its `when` (if any) holds."""
        w, window = self.w, self.model.window
        assert window is not None  # the callers write this only for a ruleset with a window
        if window.when is not None:
            w.line(f"env[{SELF}] = {seat}")
            w.line(f"if {self.ex(window.when, {})}:")
            w.line(f"    st.window = [{seat}, 0]")
        else:
            w.line(f"st.window = [{seat}, 0]")

    def end_round_if_due(self, then: tuple[str, ...] = ()) -> None:
        """In the advance loop, after a step that is not a play: the round ends if one of its
        conditions holds (the loop too, with the match), and the lines `then` follow."""
        w = self.w
        self.round_end_tests(self.names)
        w.line("if reason is not None:")
        w.indent()
        w.line("g._end_round(reason)")
        w.line("if st.over:")
        w.line("    actions = []")
        w.line("    break")
        w.line("zones = st.zones")
        self.forget_kept()
        for line in then:
            w.line(line)
        w.dedent()

    def pass_step(self, k: int, extra: int) -> None:
        """`Game._pass_step` at play step `k`, for a seat with nothing to play, and
        `FastGame._advance`'s count of such passes: after each whole cycle of seats, the state
        must not be the one after the cycle before (`progress.idle_state`)."""
        c, w = self.c, self.w
        w.line(f"st.idle_turns = env[{PASSES}] = st.idle_turns + 1")
        w.line(f"st.passed = env[{PASSED}] = True")
        w.line(f"st.step = {k + 1}")
        self.end_round_if_due()
        if self.model.window is not None:  # compiled to `c.window`
            w.line("else:")
            w.indent()
            self.open_window("active")
            w.dedent()
        w.line("idle += 1")
        w.line(f"if idle % {c.players} == 0:  # progress.py: the same state after a whole cycle repeats for ever")
        w.line("    now = idle_state(g, copy_zones)")
        w.line("    if now is not None and now == seen:")
        w.line("        raise EngineError(*idle_round(g))")
        w.line("    seen = now")
        self.next_step(extra + 1)

    def window_after_step(self, extra: int) -> int:
        """In the advance loop, after a step: `Game._open_window`, and the window asks the
        active seat first, then the others in turn: the first that may answer decides (the
        loop is over); when none may, the window closes at once, a step of the budget, and the
        branch goes on straight. Returns the steps that adds for sure (1 when the window always
        opens, else 0: `spent` counts it)."""
        w, n = self.w, self.c.players
        assert self.model.window is not None  # written for rulesets with a window
        when = self.model.window.when
        if when is not None:
            w.line(f"env[{SELF}] = active")
            w.line(f"if {self.ex(when, {})}:")
            w.indent()
        if not self.keep_answers:
            w.line("st.window = [active, 0]")
            self.next_step(extra + 1)
            if when is not None:
                w.dedent()
            return 0
        w.line("silent = st.silent")
        w.line("for passes, seat in enumerate(RINGS[st.direction][active][0]):")
        w.indent()
        self.answer("seat")
        w.line("if answer and seat not in silent:")
        w.indent()
        w.line("st.window = [seat, passes]")
        w.line("actions = [*answer, PASS]")
        w.line("break")
        w.dedent()
        w.dedent()
        w.line("else:  # no seat can answer: the window closes at once")
        w.indent()
        w.line("passes = -1")
        w.line("if silent:")
        w.line("    silent.clear()")
        w.line(f"idle = {n}")
        if when is not None:
            w.line("spent += 1")
        w.dedent()
        w.line("if passes >= 0:")
        w.line("    break")
        if when is not None:
            w.dedent()
            return 0
        return 1

    def apply_inline(self, p: CPlay) -> None:
        """`FastGame.play`'s move of play `p`, written out: its card (and mate), to its
        destination or the chosen target, and its effects."""
        w, wrote = self.w, self.write_stale
        self.written = set()
        # the play's context in the env, for the effects the engine runs (a merge is written out)
        context = bool(p.effects) and not (p.choose is None and all(isinstance(e, m.Merge) for e in p.model.effects))
        if p.mate is not None:
            mate_zone = p.mate.zone
            w.line("face, mate_face = face")
            w.line(f"hand = zones[{mate_zone}][seat]")
            w.line("for k, mate in enumerate(hand):")
            w.line("    if FACE_OF[mate] == mate_face:")
            w.line("        del hand[k]")
            w.line("        break")
            w.line("else:")
            w.line("    g._take_face(hand, mate_face, seat)")
            if context:
                w.line(f"env[{MATE}] = mate")
            w.line("st.played[mate] = seat")
            wrote(mate_zone, "seat", "(mate,)", False)
        w.line(f"hand = zones[{p.card_zone}][seat]")
        w.line("for k, card in enumerate(hand):")
        w.line("    if FACE_OF[card] == face:")
        w.line("        del hand[k]")
        w.line("        break")
        w.line("else:")
        w.line("    g._take_face(hand, face, seat)")
        w.line("st.played[card] = seat")
        wrote(p.card_zone, "seat", "(card,)", False)
        seated = bool(p.dest_seats) and p.choose is None
        if p.choose is not None:
            kind, piles_zone = p.choose.kind, p.choose.piles_zone
            w.line(f"env[{CHOSEN}] = " + ("target_seat" if kind == "seat" else
                                           f"zones[{piles_zone}][target_seat][pile_index]"))
            w.line("target_seat = pile_index = -1")
        w.line(f"zone = zones[{p.dest_zone}]" + ("[target_seat]" if seated else ""))
        if context:
            w.line(f"env[{SELF}], env[{CARD}], env[{TARGET}], env[{OWNER}] = seat, card, zone, target_seat")
        else:
            w.line(f"env[{SELF}] = seat")
        cards = "(card,)" if p.mate is None else "(card, mate)"
        wrote(p.dest_zone, "target_seat" if seated else "-2", cards, True)
        if p.new_pile is None and p.onto_pile is None:
            w.line("zone.append(card)" if p.mate is None else "zone.extend((card, mate))")
        else:
            w.line("if pile_index < 0:")
            w.line("    pile = [card]" if p.mate is None else "    pile = [card, mate]")
            w.line("    zone.append(pile)")
            w.line("else:")
            w.line("    pile = zone[pile_index]")
            w.line("    pile.append(card)" if p.mate is None else "    pile.extend((card, mate))")
            if context:
                w.line(f"env[{PILE}] = pile")
        if p.effects:
            named = {**({p.model.choose.name: f"env[{CHOSEN}]"} if p.model.choose else {}),
                     **({p.model.mate.name: f"env[{MATE}]"} if p.model.mate else {})}
            rest: list[m.Effect] = []  # the effects whose changes are not told zone by zone here
            for k, effect in enumerate(p.model.effects):
                if isinstance(effect, m.Merge) and p.choose is None:
                    local = {"self": "seat", "card": "card", "target": "zone", "owner": "target_seat"}
                    self.merge_body(effect, local if p.new_pile is None and p.onto_pile is None
                                    else {**local, "pile": "pile"})
                    rest.append(effect)
                elif (isinstance(effect, m.MoveCards) and isinstance(effect.source, m.ZoneRef)
                      and isinstance(effect.dest, m.ZoneRef) and not self.model.zones[
                          self.c.zone_index[effect.source.zone]].piles):
                    ends = []  # (zone, seat) of the source, then of the destination; -2: any seat
                    for end, seat_local in ((effect.source, "from_seat"), (effect.dest, "to_seat")):
                        if not _seated_zone(end):
                            ends.append((self.c.zone_index[end.zone], "-2"))
                        else:
                            w.line(f"{seat_local} = {self.ex(end.seat, named)}")
                            ends.append((self.c.zone_index[end.zone], seat_local))
                    w.line(f"moved = E{p.index}[{k}](env)")
                    wrote(ends[0][0], ends[0][1], "moved", False)
                    wrote(ends[1][0], ends[1][1], "moved", True)
                    if effect.random:
                        w.line("g._rng_state = None  # the random source was drawn on")
                else:
                    w.line(f"E{p.index}[{k}](env)")
                    rest.append(effect)
            if rest and all(_merges_at_target(e) for e in rest):
                wrote(p.dest_zone, "target_seat" if seated else "-2", "None", False)
                return
            writes = effect_writes(self.c, p, rest)
            if writes is None:
                w.line("g._forget()")
                self.forget_kept()
            else:
                for z in writes:
                    wrote(z, "-2", "None", False)

    def draw_inline(self, step: CStep, source: m.Draw, j: int) -> None:
        """`FastGame._advance`'s draw step `j`."""
        w, wrote = self.w, self.write_stale
        w.line(f"source = zones[{step.source}]")
        if m.names_read(source.count):
            w.line(f"env[{SELF}] = active")
        if source.count == m.Const(1, "int"):  # the common draw of one card
            w.line("if source:")
            w.indent()
            if {step.source, step.dest} & self.shared:
                w.line("drawn = source[-1:]")
            w.line(f"zones[{step.dest}][active].append(source.pop())")
        else:
            w.line(f"taken = min({self.ex(source.count, {})}, len(source))")
            w.line("if taken > 0:")
            w.indent()
            w.line("drawn = source[-taken:]")
            w.line(f"hand = zones[{step.dest}][active]")
            w.line("for _ in range(taken):")
            w.line("    hand.append(source.pop())")
        wrote(step.source, "-2", "drawn", False)
        wrote(step.dest, "active", "drawn", True)
        w.dedent()
        w.line(f"st.step = {j + 1}")


def model_cond_done(play: CPlay, pre: dict[str, str]) -> bool:
    """Whether the new-pile condition of `play` is worked out before the cards' loop."""
    return play.model.new_pile is None or play.model.new_pile.expr is None or "new" in pre


def _plus(name: str, n: int) -> str:
    """`name + n` as short source."""
    return name if n == 0 else f"{name} + {n}" if n > 0 else f"{name} - {-n}"


def _seated_zone(e: m.ZoneRef) -> bool:
    """Whether a move's end is a zone at a seat that reads no zone: its seat may be worked out
    before the move and stays the same during it."""
    return e.seat is not None and not any(isinstance(x, (m.ZoneRef, m.Call)) for x in m.walk(e.seat))


def _reads_zone(e: object, zone: str) -> bool:
    """Whether an expression reads the content of this zone (at any seat)."""
    if isinstance(e, m.ZoneRef) and e.zone == zone:
        return True
    return any(_reads_zone(child, zone) for child in m.children(e))


def _silences(model: m.Ruleset) -> bool:
    """Whether some effect may keep a seat from answering in the window (`no answer`): else
    no seat is ever silent."""
    effects = [e for p in model.plays for e in p.effects]
    effects += [s.effect for s in [*model.turn, *(model.final.steps if model.final else ())]
                if isinstance(s, m.EffectStep)]
    return any(isinstance(e.effect if isinstance(e, m.Guarded) else e, m.NoAnswer) for e in effects)


def _repeated(parts: list[object]) -> list[object]:
    """The lists of an attribute (`cards(pile).rank`) and the counts of its distinct values that
    `parts` (what a pile alone decides) read more than once, each after those it reads: a pile's
    ranks, read by its count of ranks, its max and its min, are listed once."""
    counts: dict[object, int] = {}

    def walk(e: object) -> None:
        if isinstance(e, (m.Each, m.Quantifier)):
            return  # a body that reads its own bound name
        for child in m.children(e):
            walk(child)
        if (isinstance(e, m.AttrOf) and type_of(e).startswith("list:")) or \
                (isinstance(e, m.Call) and e.function == "count" and isinstance(e.args[0], m.Call)
                 and e.args[0].function == "distinct"):
            counts[e] = counts.get(e, 0) + 1

    for e in parts:
        walk(e)
    return [e for e, n in counts.items() if n > 1]


def _meld_condition(play: CPlay) -> tuple[m.Meld, object] | None:
    """A meld play's meld and what its condition asks of a candidate set beyond the alike
    attributes every candidate has (`keep<play>` is written for it); None where it asks nothing more."""
    meld = play.model.meld
    if meld is None or (condition := beyond_alike(meld.where, meld.name)) is None:
        return None
    return meld, condition


def _ends_turn(play: CPlay) -> bool:
    """Whether a play's effects may end the turn (`then end turn`, guarded or not)."""
    return any(isinstance(e.effect if isinstance(e, m.Guarded) else e, m.EndTurn) for e in play.model.effects)


_CONSTANT_NAMES = frozenset({"seats", "players", "passes", "passed"})  # unchanged while a seat's actions are listed


def _free(e: object) -> frozenset[str]:
    """The names an expression reads that some binder or context sets."""
    match e:
        case m.Ref(name=name):
            return frozenset() if name in _CONSTANT_NAMES else frozenset({name})
        case m.Each(var=var, collection=coll, body=body) | m.Quantifier(var=var, collection=coll, body=body):
            return _free(coll) | (_free(body) - {var})
    out: frozenset[str] = frozenset()
    for child in m.children(e):
        out |= _free(child)
    return out


def zone_caches(zones: int, window_reads: Sequence[Reads], round_end_reads: Sequence[Reads],
                any_face: list[bool]) -> tuple[ZoneCache, ...]:
    """Per zone, what a change of it makes stale: (the end-round conditions that read it, the
    window shares that read it at any seat, those that read it at the seat asked, those that go
    through it for some faces only, those that go through it for any face). `any_face`: per
    window share, whether it goes through its hand for any face (no faces set)."""
    out: list[ZoneCache] = []
    for z in range(zones):
        hand = [k for k, r in enumerate(window_reads) if z in r.hand and z not in r.own and z not in r.zones]
        out.append((tuple(k for k, r in enumerate(round_end_reads) if z in r.zones or z in r.own or z in r.hand),
                    tuple(k for k, r in enumerate(window_reads) if z in r.zones),
                    tuple(k for k, r in enumerate(window_reads) if z in r.own and z not in r.zones),
                    tuple(k for k in hand if not any_face[k]), tuple(k for k in hand if any_face[k])))
    return tuple(out)


def face_tables(caches: tuple[ZoneCache, ...], window_faces: tuple[WindowFaces, ...]) -> list[FaceTable]:
    """Per zone, {face: ((share, as a mate), ...)} for the shares that go through it for some
    faces only: the shares a card of that face coming or going may change."""
    tables: list[FaceTable] = []
    for _, _, _, by_face, _ in caches:
        table: dict[int, list[tuple[int, bool]]] = {}
        for k in by_face:
            faces = window_faces[k]
            assert faces is not None  # a share goes through its hand for some faces only when it has them
            cards, mates = faces
            for f in cards:
                table.setdefault(f, []).append((k, False))
            for f in mates:
                table.setdefault(f, []).append((k, True))
        tables.append({f: tuple(ks) for f, ks in table.items()})
    return tables


def _faces_read(play: CPlay, ns: dict[str, Any]) -> WindowFaces:
    """The faces whose coming and going in the hand can change the play's share of the window:
    those its card may have, and those its mate may have; None when that is any face."""
    mates = ns.get(f"M{play.index}")
    if play.faces is None or (play.mate is not None and mates is None):
        return None
    return play.faces, mates or frozenset()


def effect_writes(c: Compiled, play: CPlay | None,
                  effects: Sequence[m.Effect] | None = None) -> tuple[int, ...] | None:
    """The zones (at any seat) that a play's effects (or these `effects`, of a turn step) may
    change, or None when they may change any zone or draw on the random source (a move at
    random, or one whose ends are not known zones or piles)."""
    zones: set[int] = set()
    if effects is None:
        assert play is not None  # a play's own effects
        effects = play.model.effects
    for e in effects:
        e = e.effect if isinstance(e, m.Guarded) else e
        if isinstance(e, (m.SetValue, m.EndTurn)):  # a value, or the turn's step: no zone
            continue
        if isinstance(e, m.Merge):
            named = _zones_named(c, e.collection, play)
            if named is None:
                return None
            zones |= named
        elif isinstance(e, m.Swap):
            zones |= {c.zone_index[z] for z in e.zones}
        elif isinstance(e, m.PassZone):
            zones.add(c.zone_index[e.zone])
        elif isinstance(e, (m.MoveCards, m.MovePile)) and not (isinstance(e, m.MoveCards) and e.random):
            for end in (e.source, e.dest) if isinstance(e, m.MoveCards) else (e.pile, e.dest):
                named = _end_zones(c, end, play)
                if named is None:
                    return None
                zones |= named
        elif not isinstance(e, (m.Reverse, m.NextTurn, m.NoAnswer)):
            return None
    return tuple(sorted(zones))


def _end_zones(c: Compiled, end: object, play: CPlay | None) -> set[int] | None:
    """The zones a move's end may be: a zone named, any zone of piles for a pile (a pile left
    empty is taken out of its zone), the play's destination for `target`; None: unknown."""
    if isinstance(end, m.ZoneRef):
        return {c.zone_index[end.zone]}
    if type_of(end) == "pile":
        return {k for k, z in enumerate(c.model.zones) if z.piles}
    if isinstance(end, m.Ref) and end.name == "target" and play is not None:
        return {play.dest_zone}
    return None


def merges_at_target(play: CPlay) -> bool:
    """Whether the play's effects are all merges over its target (and it chooses nothing): they
    change its destination zone at the target seat alone."""
    return play.choose is None and bool(play.model.effects) and all(_merges_at_target(e) for e in play.model.effects)


def _merges_at_target(e: m.Effect) -> bool:
    return isinstance(e, m.Merge) and _names_target(e.collection)


def _names_target(e: object) -> bool:
    """Whether `e` is the play's target zone or its piles: a merge over it changes that zone at
    the target seat alone."""
    return e == m.Ref("target", type_of(e)) or (isinstance(e, m.Call) and e.function == "piles"
                                             and len(e.args) == 1 and _names_target(e.args[0]))


def _zones_named(c: Compiled, e: object, play: CPlay | None) -> set[int] | None:
    """The zones an expression's value may belong to; None when it names a pile or a zone
    that could be any."""
    if isinstance(e, m.ZoneRef):
        return {c.zone_index[e.zone]}
    if isinstance(e, m.Ref):
        if e.name == "target":
            assert play is not None  # only a play's effects name its target
            return {play.dest_zone}
        return None if e.type in ("pile", "zone", "zone:piles") else set()
    out: set[int] = set()
    for child in m.children(e):
        named = _zones_named(c, child, play)
        if named is None:
            return None
        out |= named
    return out


class Shallow(tuple[()]):
    """An empty window share that only a card coming into the seat's hand can change."""


# A seat's share of one window play: its actions, an empty share (`Shallow`), or None: not known.
Share: TypeAlias = list[Action] | Shallow | None


NO_CARD = Shallow()  # the hand holds no card of a face the play takes
NO_MATE = Shallow()  # it holds none that may go with one


Rings: TypeAlias = tuple[tuple[tuple[int, ...], ...], ...]  # per seat, per passes: the seats left to ask


def _rings(n: int) -> tuple[None, Rings, Rings]:
    """`RINGS[direction][seat][passes]`: the seats a window asked at `seat` after `passes`
    passes has left to ask, in turn (direction +1 at index 1, -1 at index -1)."""
    def ring(step: int) -> Rings:
        return tuple(tuple(tuple((seat + step * k) % n for k in range(n - passes)) for passes in range(n + 1))
                     for seat in range(n))
    return (None, ring(1), ring(-1))


# CPython's private draws, not in typeshed: whether `_randbelow` is the one `_shuffle` writes out
_PLAIN_DRAWS = (random.Random._randbelow  # type: ignore[attr-defined]
                is random.Random._randbelow_with_getrandbits)  # type: ignore[attr-defined]


def _shuffle(rng: random.Random, deck: list[int]) -> None:
    """`rng.shuffle(deck)`, the very same draws, without a call per card: `Random.shuffle`
    swaps each place i, from the last down to 1, with `_randbelow(i + 1)`, which for a plain
    `Random` draws `getrandbits((i + 1).bit_length())` until the number is at most i."""
    if type(rng) is not random.Random or not _PLAIN_DRAWS:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _div(a: int, b: int) -> int:
    """Whole division; by zero gives 0, as in the closures."""
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _best(pairs: list[tuple[int, int]], none: int) -> int:
    """The first element with the largest number, as (element, number) pairs; `none` of none."""
    found, top = none, None
    for x, v in pairs:
        if top is None or v > top:
            found, top = x, v
    return found


@dataclass(frozen=True)
class _Module:
    """A generated module before it meets a compiled ruleset: its source, its code, and which
    function plays which role (steps by their place: the turn's, then the final round's)."""

    source: str
    code: CodeType
    generate: tuple[tuple[int, str], ...]  # (step place, function) ; place -1: the window
    when: tuple[tuple[int, str], ...]
    count: tuple[tuple[int, str], ...]
    effects: tuple[tuple[int, int, str], ...]  # (play index, effect index, function)
    setup: tuple[tuple[int, str], ...]  # (setup step, its `where`)
    window_reads: tuple[Reads, ...] | None
    round_end_reads: tuple[Reads, ...]
    score_reads: Reads
    steps: tuple[tuple[int, str], ...] = ()  # (step place, function): the turn's effect steps
    values: tuple[tuple[int, str], ...] = ()  # (value, function): the `let`s of the match


def write(c: Compiled) -> _Module:
    """Write and compile the module for a compiled ruleset (its model, players and params)."""
    g = _Generator(c)
    model = c.model
    generate_fns, when_fns, count_fns, step_fns = [], [], [], []
    window_reads = None
    sources = list(model.turn) + (list(model.final.steps) if model.final else [])
    g.meld_conditions()
    for k, (step, source) in enumerate(zip(turn_steps(c), sources, strict=True)):
        if step.kind == "play":
            g.generator(f"gen{k}", step)
            generate_fns.append((k, f"gen{k}"))
        elif isinstance(source, m.EffectStep):  # compiled to an "effect" step
            if g.effect_function(f"step{k}", source.effect, {}):
                step_fns.append((k, f"step{k}"))
        else:
            assert isinstance(source, m.Draw)  # what else a step is
            g.expression_function(f"count{k}", source.count)
            count_fns.append((k, f"count{k}"))
        if source.when is not None:
            g.expression_function(f"when{k}", source.when)
            when_fns.append((k, f"when{k}"))
    if c.window is not None:
        window_reads = tuple(g.window("gen_window", c.window))
        generate_fns.append((-1, "gen_window"))
    round_end_reads = g.round_end([f"R{k}" for k in range(len(c.round_ends))])
    g.playout(window_reads, round_end_reads, [f"R{k}" for k in range(len(c.round_ends))])
    if model.final is not None:  # compiled to `c.final`
        g.expression_function("final_when", model.final.when)
    g.own_seat = f"env[{c.score_slot}]"  # the seat scored: what the score reads at it alone is its own
    g.expression_function("score", model.score.expr, {model.score.var: g.own_seat})
    score_reads, g.reads, g.own_seat = g.reads, Reads(), None  # what comes next must not add to it
    g.copier()
    g.start_round()
    setup_fns = []
    for k, op in enumerate(model.setup):
        if isinstance(op, m.Let):  # the value's `let`, as setup runs it
            g.expression_function(f"setup{k}", next(v.init for v in model.values if v.name == op.name))
            setup_fns.append((k, f"setup{k}"))
        elif not isinstance(op, m.Shuffle) and op.where is not None:
            g.expression_function(f"setup{k}", op.where)
            setup_fns.append((k, f"setup{k}"))
    effect_fns = []
    for play in c.plays:
        for k, e in enumerate(play.model.effects):
            named = {**({play.model.choose.name: f"env[{CHOSEN}]"} if play.model.choose else {}),
                     **({play.model.mate.name: f"env[{MATE}]"} if play.model.mate else {}),
                     **({play.model.value.name: f"env[{CHOICE}]"} if play.model.value else {}),
                     **({play.model.meld.name: f"env[{MELD}]"} if play.model.meld else {})}
            if g.effect_function(f"effect{play.index}_{k}", e, named):
                effect_fns.append((play.index, k, f"effect{play.index}_{k}"))
    g.expression_function("until", model.match.until)
    g.expression_function("starter", model.match.starter)
    value_fns = []
    for k, value in enumerate(model.values):  # a value of the match: its `let`, run once per match
        if value.per_match:
            g.expression_function(f"value{k}", value.init)
            value_fns.append((k, f"value{k}"))
    text = _HEADER + "\n".join(g.top + [""] + g.w.lines)
    return _Module(text, compile(text, "<cardrules generated>", "exec"), tuple(generate_fns),
                   tuple(when_fns), tuple(count_fns), tuple(effect_fns), tuple(setup_fns), window_reads,
                   tuple(round_end_reads), score_reads, tuple(step_fns), tuple(value_fns))


_HEADER = "# Generated by cardrules.interpreter.codegen: its own identifiers and repr'd constants only.\n"


def step_budget(c: Compiled) -> int:
    """`Game._budget`: the steps one advance may run with no decision before the round counts
    as one that cannot end."""
    longest = max(len(c.turn), len(c.final.steps) if c.final else 0)
    return (longest + 1) * c.players * (c.deck_size + 2)


def turn_steps(c: Compiled) -> list[CStep]:
    """The turn's steps, then the final round's."""
    return [*c.turn, *(c.final.steps if c.final else ())]


def _namespace(c: Compiled) -> dict[str, Any]:  # a module's globals: tables, plays, functions; any value
    """What the module's names stand for, taken from this compiled ruleset: its attribute
    tables, its plays and their face sets, its end-round names."""
    none = c.deck_size
    first = first_cards(c.face_of)
    ns = {"_remove_pile": _remove_pile, "PASS": PASS, "EngineError": EngineError, "endless_round": endless_round,
          "_shuffle": _shuffle, "idle_state": idle_state, "idle_round": idle_round,
          "PILE_ZONES": [(i, z.per_seat) for i, z in enumerate(c.model.zones) if z.piles], "NO_CARD": NO_CARD,
          "NO_MATE": NO_MATE, "Shallow": Shallow, "FIRST": first, "_prod": math.prod, "_div": _div, "_mod": _mod,
          "NONE": none,
          "FACE_OF": c.face_of,
          "_top": lambda z: z[-1] if z else none, "_bottom": lambda z: z[0] if z else none, "_best": _best,
          "_meld_actions": meld_actions,
          "SEATS": tuple(range(c.players)),
          "ORDERS": tuple(tuple((a + k) % c.players for k in range(c.players)) for a in range(c.players)),
          "RINGS": _rings(c.players),
          "OTHERS": tuple(tuple(s for s in range(c.players) if s != seat) for seat in range(c.players))}
    ns.update(_team_namespace(c))
    ns.update({f"A{i}": table for i, table in enumerate(c.attributes.values())})
    ns.update({f"P{p.index}": p for p in c.plays})
    ns.update({f"F{p.index}": p.faces for p in c.plays})
    ns.update({f"V{p.index}": p.value.values for p in c.plays if p.value is not None})
    ns.update({f"R{k}": name for k, (name, _) in enumerate(c.round_ends)})
    return ns


def _team_namespace(c: Compiled) -> dict[str, object]:
    """The teams' tables the generated `team`, `partner` and `team_total` read."""
    return {"TEAM": c.team_of, "PARTNER": partner_of(c.team_of) if c.team_of else (), "_team_total": team_total}


def model_key(c: Compiled) -> str:
    """A hash of what a module is specialised to: the model (with its selection), the player
    count and the params."""
    text = repr((c.model, c.players, sorted(c.params.items())))
    return hashlib.sha256(text.encode()).hexdigest()


_MODULES: dict[str, _Module] = {}  # model key -> module, written once per process
_LOADED: dict[int, tuple[weakref.ref[Compiled], Generated]] = {}  # id(compiled) -> its functions


def generated(c: Compiled) -> Generated:
    """The generated functions of `c`: the module is written once per model key, and run once
    per compiled ruleset, whose plays the actions hold."""
    found = _LOADED.get(id(c))
    if found is not None and found[0]() is c:
        return found[1]
    key = model_key(c)
    module = _MODULES.get(key)
    if module is None:
        module = _MODULES[key] = write(c)
    ns = _namespace(c)
    exec(module.code, ns)
    steps = turn_steps(c)
    written = {(play, k): fn for play, k, fn in module.effects}
    at = {**{k: step for k, step in enumerate(steps)}, -1: c.window}
    effects = tuple(tuple(ns[written[(p.index, k)]] if (p.index, k) in written else closure
                          for k, closure in enumerate(p.effects)) for p in c.plays)
    ns.update({f"E{p.index}": effects[p.index] for p in c.plays})
    window_faces = tuple(_faces_read(p, ns) for p in (c.window.plays if c.window else ()))
    caches = zone_caches(len(c.model.zones), module.window_reads or (), module.round_end_reads,
                         [f is None for f in window_faces])
    for z, table in enumerate(face_tables(caches, window_faces)):  # what `wrote` in the match loop reads
        ns[f"WL{z}"] = {f: tuple(dict.fromkeys(k for k, _ in ks)) for f, ks in table.items()}
        ns[f"WA{z}"] = {f: tuple((k, NO_CARD if as_mate else NO_MATE) for k, as_mate in ks) for f, ks in table.items()}
    result = Generated(
        source=module.source, playout=ns["playout"], start_round=ns["start_round"],
        generate={id(at[k]): ns[fn] for k, fn in module.generate if k >= 0},
        window_generate=ns["gen_window"] if c.window is not None else None,
        round_end=ns["round_end"],
        when={id(at[k]): ns[fn] for k, fn in module.when},
        count={id(at[k]): ns[fn] for k, fn in module.count},
        final_when=ns.get("final_when"),
        score=ns["score"], until=ns["until"], starter=ns["starter"], copy_zones=ns["copy_zones"],
        window_faces=window_faces, zone_caches=caches,
        setup_where=tuple(ns[dict(module.setup)[k]] if k in dict(module.setup) else None
                          for k in range(len(c.setup))),
        effects=effects,
        window_reads=module.window_reads, round_end_reads=module.round_end_reads, score_reads=module.score_reads,
        effect_steps={id(at[k]): ns[fn] for k, fn in module.steps}, values={k: ns[fn] for k, fn in module.values})
    cid = id(c)
    _LOADED[cid] = (weakref.ref(c, lambda _: _LOADED.pop(cid, None)), result)
    return result
