"""What a card does, for a player who asks: its kind, values and copies, and every play it can
be used in, each item of the play as the author wrote it, with its provenance.

Whether a card can be used in a play is decided by the card alone. Each condition of the play
is worked out as far as the card's own values settle it; what is left depends on the table and
is kept, as text, as the condition of that use. So a play is listed when some seat, at some
moment, may make it with this card: a card whose play needs cards in some pile is listed even
while that pile is empty, which a test of the filters on one position would miss.
A card kind is described with the attributes its faces share, the others left to the table.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

from . import model as m
from .compile import Compiled
from .engine import SEATS_TEXT, cite
from .errors import CardrulesError
from .expressions import near
from .unparse import unparse

TURN, WINDOW, FINAL = "turn", "window", "final"  # when a play may be made: a turn step, out of turn, the final round
Value: TypeAlias = int | bool | str  # a card's attribute, a param, a constant of the rules
# the operands are those the checker typed for the operator: numbers for arithmetic, any value for `==`
_OPERATORS: dict[str, Callable[[Any, Any], Value]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0}  # as the engine divides
_UNARY: dict[str, Callable[[Any], Value]] = {"not": operator.not_, "-": operator.neg}


class UnknownCard(CardrulesError, LookupError):
    """A name that is neither a face nor a kind of the ruleset; `hint` names a close one."""

    def __init__(self, name: str, hint: str):
        super().__init__(f"no card or card kind is called '{name}'", hint)
        self.name = name


@dataclass(frozen=True)
class Item:
    """One item of a play, as the rules author writes it, and its provenance in one line."""

    text: str
    provenance: str


@dataclass(frozen=True)
class Use:
    """A play the card can be used in."""

    play: str
    second: bool  # the card is the play's second card (its `with`), not its first
    timing: tuple[str, ...]  # TURN, WINDOW, FINAL: when the play may be made
    condition: str  # what the table must also show for the card to pass its filter; "" if nothing
    items: tuple[Item, ...]
    provenance: str  # the play clause's own


@dataclass(frozen=True)
class CardInfo:
    name: str  # the face (in the match's language) or the kind, as the ruleset spells it
    kind: str
    faces: tuple[str, ...]  # the one face asked for, or every face of the kind
    copies: int  # of each face
    attributes: tuple[tuple[str, str], ...]  # as text; a kind's `each` attribute lists its values, "a/b/c"
    provenance: str  # the card clause's
    copies_provenance: str
    uses: tuple[Use, ...]

    @property
    def cards(self) -> int:
        return self.copies * len(self.faces)


def faces_by_kind(model: m.Ruleset) -> dict[str, tuple[m.Card, ...]]:
    """Each kind's faces, kinds in file order."""
    out: dict[str, tuple[m.Card, ...]] = {k.name: () for k in model.kinds}
    for card in model.deck:
        out[card.kind] += (card,)
    return out


def describe(compiled: Compiled, name: str) -> CardInfo:
    """The card face or card kind called `name` (any case); `UnknownCard` when there is none."""
    model = compiled.model
    kinds = {k.name.lower(): k for k in model.kinds}
    face = compiled.face_index.get(name.lower())  # the deck's faces, in the order of the compiled faces
    faces: tuple[m.Card, ...]
    if face is not None:
        faces = (model.deck[face],)
        kind = kinds[faces[0].kind.lower()]
    elif name.lower() in kinds:
        kind = kinds[name.lower()]
        faces = faces_by_kind(model)[kind.name]
    else:
        raise UnknownCard(name, near(name.lower(), [*compiled.faces, *(k.name for k in model.kinds)]))
    varying: set[str] = {a for a, v in kind.attributes if v is None} if len(faces) > 1 else set()
    # read from the model, not from a copy: a deck rule may leave no copy of the face in play;
    # an attribute the kind does not set reads as on "no card", the tables' last entry
    values = dict(faces[0].attributes)
    known = {a.name: values.get(a.name, compiled.attributes[a.name][-1]) for a in model.attributes
             if a.name not in varying}
    shown = dict(zip(model.deck, compiled.faces, strict=True))  # each face in the language the match shows
    return CardInfo(
        name=kind.name if face is None else shown[faces[0]], kind=kind.name,
        faces=tuple(shown[c] for c in faces), copies=kind.copies, attributes=_attributes(kind, faces),
        provenance=cite(kind.provenance), copies_provenance=cite(kind.copies_provenance),
        uses=tuple(_uses(compiled, known)))


def _attributes(kind: m.CardKind, faces: tuple[m.Card, ...]) -> tuple[tuple[str, str], ...]:
    out = []
    for attr, fixed in kind.attributes:
        if fixed is not None:
            out.append((attr, str(fixed)))
            continue
        values = list(dict.fromkeys(dict(c.attributes)[attr] for c in faces))
        ints = [v for v in values if isinstance(v, int)]
        numbers = len(values) > 2 and ints == values and ints == list(range(ints[0], ints[0] + len(ints)))
        out.append((attr, f"{values[0]}..{values[-1]}" if numbers else "/".join(map(str, values))))
    return tuple(out)


def _timings(model: m.Ruleset) -> dict[str, tuple[str, ...]]:
    """When each play may be made: in a turn's play step, in the response window, in the final round."""
    def in_steps(steps: Iterable[object], name: str) -> bool:
        return any(isinstance(step, m.PlayStep) and name in step.plays for step in steps)

    return {p.name: tuple(when for when, made in (
        (TURN, in_steps(model.turn, p.name)),
        (WINDOW, model.window is not None and p.name in model.window.plays),
        (FINAL, model.final is not None and in_steps(model.final.steps, p.name))) if made) for p in model.plays}


def _uses(compiled: Compiled, known: dict[str, Value]) -> Iterator[Use]:
    """The plays that may take a card with the `known` attribute values, as first card or as `with`."""
    timing = _timings(compiled.model)
    for play in compiled.model.plays:
        if play.value is not None:  # a play of no card takes none
            continue
        roles = [(False, "card", play.card_filter)] + ([(True, play.mate.name, play.mate.where)] if play.mate else [])
        for second, var, own in roles:
            settle = _Settler(compiled, {var: known})
            if settle.may_take(play):
                rest = None if own is None else settle(own)
                condition = "" if rest is None or isinstance(rest, m.Const) else unparse(rest)
                yield Use(play.name, second, timing[play.name], condition, _items(play), cite(play.provenance))


class _Settler:
    """Works an expression out as far as the known values of some cards settle it: a `Const`
    when they decide it alone, else the expression with what they decide put in."""

    def __init__(self, compiled: Compiled, known: dict[str, dict[str, Value]]):
        self.compiled, self.known = compiled, known

    def may_take(self, play: m.Play) -> bool:
        """Whether no condition of the play refuses the card for certain, and some placement is left."""
        conditions = (play.card_filter, play.mate and play.mate.where, play.choose and play.choose.where)
        if any(c is not None and self._refused(c) for c in conditions):
            return False
        placements = [c for c in (play.new_pile, play.onto_pile) if c is not None]
        return not placements or any(c.expr is None or not self._refused(c.expr) for c in placements)

    def _refused(self, e: object) -> bool:
        settled = self(e)
        return isinstance(settled, m.Const) and not settled.value

    def __call__(self, e: object) -> object:
        match e:
            case m.AttrOf(obj=m.Ref(name=name), attr=attr, type=t) if attr in self.known.get(name, {}):
                return m.Const(self.known[name][attr], t)
            case m.Op(op="and" | "or" as op, left=left, right=right):
                a, b = self(left), self(right)
                for x, y in ((a, b), (b, a)):
                    if isinstance(x, m.Const):  # true decides an `or`, false an `and`; the other leaves the rest
                        return x if bool(x.value) == (op == "or") else y
                return m.Op(op, a, b, e.type)
            case m.Op(op=op, left=left, right=right):
                a, b = self(left), self(right)
                if self._is_known(a) and self._is_known(b):
                    return m.Const(_OPERATORS[op](self._value(a), self._value(b)), e.type)
                return m.Op(op, a, b, e.type)
            case m.Unary(op=op, operand=x):
                a = self(x)
                if self._is_known(a):
                    return m.Const(_UNARY[op](self._value(a)), e.type)
                return m.Unary(op, a, e.type)
            case m.If(cond=c, then=a, otherwise=b):
                cond = self(c)
                if isinstance(cond, m.Const):
                    return self(a if cond.value else b)
                return m.If(cond, self(a), self(b), e.type)
        return e

    @staticmethod
    def _is_known(e: object) -> bool:
        return (isinstance(e, m.Const) and not isinstance(e.value, tuple)) or isinstance(e, m.ParamRef) or (
            isinstance(e, m.Ref) and e.name == "players")

    def _value(self, e: object) -> Value:
        """The value of an expression `_is_known` takes: a constant, a param, `players`."""
        if isinstance(e, m.ParamRef):
            return self.compiled.params[e.name]
        if isinstance(e, m.Const) and not isinstance(e.value, tuple):  # `_is_known` takes no list
            return e.value
        return self.compiled.players


def _items(play: m.Play) -> tuple[Item, ...]:
    """The play's items in the order the engine reads them, as a rules author writes them."""
    if play.value is not None:  # a play of no card: its choices and effects
        v, items = play.value, []
        if play.choose:
            c = play.choose
            items.append(Item(f"choose seat {c.name} of {SEATS_TEXT[c.seats]}{_clause('where', c.where)}",
                              cite(c.provenance)))
        items.append(Item(f"choose value {v.name} of {v.zone}{_clause('where', v.where)}", cite(v.provenance)))
        return tuple(items + [Item(f"then {_effect(e)}", cite(e.provenance)) for e in play.effects])
    items = [Item(f"card from {play.card_zone}{_clause('where', play.card_filter)}", cite(play.card_provenance))]
    if play.mate:
        items.append(Item(f"with {play.mate.name} from {play.mate.zone}{_clause('where', play.mate.where)}",
                          cite(play.mate.provenance)))
    seats = f" of {SEATS_TEXT.get(play.dest_seats) or unparse(play.dest_seat)}" if play.dest_seats else ""
    items.append(Item(f"to {play.dest_zone}{seats}", cite(play.dest_provenance)))
    for words, placement in (("new pile", play.new_pile), ("onto pile", play.onto_pile)):
        if placement is not None:
            items.append(Item(words + _clause("when", placement.expr), cite(placement.provenance)))
    if play.choose:
        c = play.choose
        of = f"{c.zone} of " if c.kind == "pile" else ""
        items.append(Item(f"choose {c.kind} {c.name} of {of}{SEATS_TEXT[c.seats]}{_clause('where', c.where)}",
                          cite(c.provenance)))
    items += [Item(f"then {_effect(e)}", cite(e.provenance)) for e in play.effects]
    return tuple(items)


def _clause(word: str, e: object | None) -> str:
    return "" if e is None else f" {word} {unparse(e)}"


def _effect(e: object) -> str:
    if isinstance(e, m.Merge):
        return f"merge {e.var} in {unparse(e.collection)}{_clause('where', e.where)} into pile"
    if isinstance(e, m.MoveCards):
        count = "all" if e.count is None else unparse(e.count)
        return (f"move {count}{' at random' if e.random else ''}{' ' + e.var if e.var else ''} from {unparse(e.source)}"
                f" to {unparse(e.dest)}{_clause('where', e.where)}")
    if isinstance(e, m.MovePile):
        return f"move pile {unparse(e.pile)} to {unparse(e.dest)}"
    if isinstance(e, m.Reverse):
        return "reverse"
    if isinstance(e, m.Swap):
        return f"swap {', '.join(e.zones)} of {unparse(e.seat)} with {unparse(e.other)}"
    if isinstance(e, m.PassZone):
        return f"pass {e.zone}"
    if isinstance(e, m.NoAnswer):
        return f"no answer from {unparse(e.seat)}"
    if isinstance(e, m.NextTurn):
        return f"next turn to {unparse(e.seat)}"
    if isinstance(e, m.SetValue):
        return f"set {e.name} to {unparse(e.expr)}"
    if isinstance(e, m.EndTurn):
        return "end turn"
    if isinstance(e, m.Guarded):
        return f"{_effect(e.effect)} when {unparse(e.when)}"
    raise TypeError(f"not an effect: {e!r}")
