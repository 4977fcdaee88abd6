"""A seat's round score as it stands now, clause by clause, from what one seat may see.

The ruleset's `score` is evaluated on the current position, not only when a round ends, so a
player can follow what a row is worth. Zones the viewing seat may not see count as empty, and
the breakdown names them (`unseen`): a seat never learns a hidden card from its score line.

The breakdown walks the score's expression: arithmetic stays a formula (`1150 * 2`), and every
other part is a clause of its own, told with the values it is made of: the terms of a
`sum(p in ...: ...)` or `product(...)` each with the cards it was counted for, the values of a
`sum(...)` of a list, the two sides of a condition of an `if` and which branch it took.
"""
from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from . import model as m
from .compile import ROUND, TOTALS, ZONES, Compiled, Env, expressions, type_of
from .engine import Game
from .redact import sees
from .unparse import unparse

_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_IDENTITY = {"sum": 0, "product": 1}
SHOWN_TERMS = 12  # a clause lists at most these terms


@dataclass(frozen=True)
class Clause:
    """A part of the score: the rules' text, what it was made of, its value."""

    text: str
    detail: str
    value: object


@dataclass(frozen=True)
class Breakdown:
    seat: int
    total: int
    formula: str  # how the clauses combine, with their values: `1150 * 2`
    clauses: tuple[Clause, ...]
    unseen: tuple[str, ...]  # the zones the score reads that the viewer may not see (counted empty)


class Scorer:
    """The score of a compiled ruleset, evaluated on a game's position now."""

    def __init__(self, compiled: Compiled):
        self.c = compiled
        self.model = compiled.model
        self.exprs = expressions(compiled)
        self.var = self.model.score.var
        self.slot = compiled.score_slot
        self.reads = _zones_read(self.model.score.expr)

    def scores(self, game: Game, viewer: int) -> list[int]:
        """Each seat's score now, from what `viewer` may see (-1: public zones only)."""
        env = self._env(game, viewer)
        out = []
        for seat in range(game.n):
            env[self.slot] = seat
            out.append(self.c.score(env))
        return out

    def unseen(self, viewer: int) -> tuple[str, ...]:
        """The zones the score reads that `viewer` does not see in full."""
        return tuple(z.name for z in self.model.zones if z.name in self.reads and not all(
            sees(z, owner, viewer) for owner in (range(self.c.players) if z.per_seat else (None,))))

    def breakdown(self, game: Game, seat: int, viewer: int) -> Breakdown:
        env = self._env(game, viewer)
        env[self.slot] = seat
        clauses: list[Clause] = []
        value, formula = self._explain(self.model.score.expr, {self.var: self.slot}, env, clauses)
        total = cast(int, value)  # the checker types `score` a number
        return Breakdown(seat, total, formula, tuple(clauses), self.unseen(viewer))

    # -------------------------------------------------------------- evaluating

    def _env(self, game: Game, viewer: int) -> Env:
        st, env = game.state, list(game.env)
        zones: list[object] = []
        for zone, content in zip(self.model.zones, st.zones, strict=True):
            if zone.per_seat:
                zones.append([part if sees(zone, owner, viewer) else [] for owner, part in enumerate(content)])
            else:
                zones.append(content if sees(zone, None, viewer) else [])
        env[ZONES], env[ROUND], env[TOTALS] = zones, st.round, st.totals
        return env

    def _value(self, e: object, slots: dict[str, int], env: Env) -> object:
        return self.exprs.expr(e, slots)(env)

    def _collection(self, e: object, slots: dict[str, int], env: Env) -> Iterable[object]:
        return cast(Iterable[object], self._value(e, slots, env))  # the checker typed `e` a collection

    def _explain(self, e: object, slots: dict[str, int], env: Env,
                 clauses: list[Clause]) -> tuple[object, str]:
        """The value of `e` and its formula; clauses found on the way are added to `clauses`."""
        match e:
            case m.Op(op=op, left=left, right=right) if op in _ARITHMETIC:
                a, fa = self._explain(left, slots, env, clauses)
                b, fb = self._explain(right, slots, env, clauses)
                return _ARITHMETIC[op](a, b), f"{_wrap(left, fa)} {op} {_wrap(right, fb)}"
            case m.If(cond=cond, then=then, otherwise=otherwise):
                held = bool(self._value(cond, slots, env))
                clauses.append(Clause(unparse(cond), self._sides(cond, slots, env), held))
                return self._explain(then if held else otherwise, slots, env, clauses)
            case m.Const() | m.ParamRef():
                value = self._value(e, slots, env)
                return value, str(value)
        value = self._value(e, slots, env)
        clauses.append(Clause(unparse(e), self._detail(e, slots, env), value))
        return value, str(value)

    def _sides(self, cond: object, slots: dict[str, int], env: Env) -> str:
        """A comparison's two sides as they are now: `2 == 3`."""
        if isinstance(cond, m.Op) and cond.op in ("==", "!=", "<", "<=", ">", ">="):
            return f"{self._shown(self._value(cond.left, slots, env), type_of(cond.left))} {cond.op} " \
                   f"{self._shown(self._value(cond.right, slots, env), type_of(cond.right))}"
        return ""

    def _detail(self, e: object, slots: dict[str, int], env: Env) -> str:
        """What a clause is made of: its terms, each with what it was counted for."""
        while isinstance(e, m.Defined):
            e = e.body
        match e:
            case m.Each(function=fn, var=var, collection=coll, body=body, filter=False) if fn in _IDENTITY:
                slot = max([self.slot, *slots.values()]) + 1
                inner = {**slots, var: slot}
                terms = []
                kind = _element(type_of(coll))
                for x in self._collection(coll, slots, env):
                    env[slot] = x
                    value = self._value(body, inner, env)
                    if value != _IDENTITY[fn]:
                        terms.append(f"{value} ({self._shown(x, kind)})")
                return _joined(terms, " + " if fn == "sum" else " × ")
            case m.Call(function="sum" | "product" as fn, args=(arg,)):
                values = [str(v) for v in self._collection(arg, slots, env) if v != _IDENTITY[fn]]
                return _joined(values, " + " if fn == "sum" else " × ")
        return ""

    def _shown(self, x: object, kind: str) -> str:
        """A value of type `kind` as a player reads it: a card by its face, a pile or a zone by
        its cards, a list in brackets."""
        faces, face_of = self.c.faces, self.c.face_of
        if kind == "card":
            return faces[face_of[x]] if isinstance(x, int) and 0 <= x < len(face_of) else "–"
        if kind in ("pile", "zone", "list:card") and isinstance(x, list | tuple):
            return " ".join(faces[face_of[c]] for c in x) or "–"
        if isinstance(x, list):
            return "[" + ", ".join(self._shown(y, _element(kind)) for y in x) + "]"
        return str(x)


def _element(kind: str) -> str:
    """The type of an element of a collection of type `kind`."""
    return {"zone": "card", "zone:piles": "pile", "pile": "card"}.get(kind, kind.removeprefix("list:"))


def _joined(terms: list[str], sep: str) -> str:
    if len(terms) > SHOWN_TERMS:
        terms = terms[:SHOWN_TERMS] + ["…"]
    return sep.join(terms)


def _wrap(e: object, formula: str) -> str:
    return f"({formula})" if isinstance(e, m.Op) and e.op in ("+", "-") else formula


def _zones_read(e: object) -> set[str]:
    from .book import zones_read  # one walker of expressions for zones

    return zones_read(e)
