"""The abstract syntax tree: what the text says, before any name is resolved.

Every node carries its span as an attribute that takes no part in equality (CPython's `ast`
keeps positions outside `_fields` for the same reason): two trees that say the same thing are
equal wherever they stand in their files.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeAlias, dataclass_transform

from .diagnostics import Span
from .dispatch import depth_first, unknown

NOWHERE = Span(0, 0, 0, 0)


def _span() -> Span:
    return field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Ident:
    text: str
    span: Span = _span()


@dataclass(frozen=True)
class Prov:
    kind: str  # "source", "ruling" or "assumed"
    text: str
    span: Span = _span()


# ------------------------------------------------------------------ expressions


@dataclass(frozen=True)
class Number:
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class Name:
    id: str
    span: Span = _span()


@dataclass(frozen=True)
class Call:
    function: Ident
    args: tuple[Expr, ...]  # an EachArg among them
    span: Span = _span()


@dataclass(frozen=True)
class EachArg:
    """`x in COLLECTION: EXPR` or `x in COLLECTION where COND`, as a call's argument."""

    var: Ident
    collection: Expr
    body: Expr
    filter: bool  # True for `where`
    span: Span = _span()


@dataclass(frozen=True)
class Attr:
    obj: Expr
    attr: Ident
    span: Span = _span()


@dataclass(frozen=True)
class ZoneOf:
    zone: Ident
    seat: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / % == != < <= > >= and or
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Unary:
    op: str  # "not" or "-"
    operand: Expr
    span: Span = _span()


@dataclass(frozen=True)
class If:
    cond: Expr
    then: Expr
    otherwise: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Quantifier:
    kind: str  # "some" or "every"
    var: Ident
    collection: Expr
    body: Expr
    span: Span = _span()


Expr: TypeAlias = "Number | Name | Call | EachArg | Attr | ZoneOf | Binary | Unary | If | Quantifier"


def children(e: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of an expression, in the order they are written. An unknown node is
    an error."""
    match e:
        case Number() | Name():
            return ()
        case Call(args=args):
            return args
        case EachArg(collection=coll, body=body) | Quantifier(collection=coll, body=body):
            return (coll, body)
        case Attr(obj=x) | ZoneOf(seat=x) | Unary(operand=x):
            return (x,)
        case Binary(left=a, right=b):
            return (a, b)
        case If(cond=c, then=a, otherwise=b):
            return (c, a, b)
    raise unknown(children, e)


def walk(e: Expr) -> Iterator[Expr]:
    """An expression and every expression inside it, depth first (jinja2's `find_all`)."""
    return depth_first(e, children)


# ------------------------------------------------------------------ clauses
#
# One class a clause or block item, its fields named as the text says them (CPython's `ast`);
# `kind` is the keyword options and messages name it by. Provenance and span are attributes
# every clause has, and so is `items`, the clauses of a block (empty for a clause of one line).


_ATTRIBUTES = ("provs", "span", "items")  # what every clause has, apart from its fields


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class _Node:
    """The frozen-dataclass behaviour of clauses, built once rather than per class.

    A subclass lists its fields as annotations, as a frozen dataclass would; they are collected
    into `fields` (jinja2's `Node.fields`) and one `__init__` here fills them in: decorating
    seventy classes with `dataclass` took 30 ms of every command's start."""

    kind: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()  # the named fields, in order; not provs, span, items
    provs: tuple[Prov, ...]
    span: Span
    items: tuple[Clause, ...]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        own = tuple(name for name, t in vars(cls).get("__annotations__", {}).items()
                    if "ClassVar" not in str(t) and name not in _ATTRIBUTES)
        cls.fields = cls.fields + own
        cls.__match_args__ = cls.fields  # type: ignore[attr-defined,misc]  # as a dataclass sets it

    def __init__(self, *values: Any, provs: tuple[Prov, ...] = (), span: Span = NOWHERE,
                 items: tuple[Clause, ...] = ()) -> None:
        names, attributes = self.fields, self.__dict__
        if len(values) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, not {len(values)}")
        attributes.update(zip(names, values, strict=False))  # the fields left out have defaults
        missing = [n for n in names[len(values):] if not hasattr(type(self), n)]  # a default is a class attribute
        if missing:
            raise TypeError(f"{type(self).__name__} needs {', '.join(missing)}")
        attributes.update(provs=provs, span=span, items=items)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make a new one with replace()")

    def _compared(self) -> tuple[object, ...]:
        return (*(getattr(self, n) for n in self.fields), self.provs, self.items)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Node) and self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash((type(self), self._compared()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.fields)})"

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields (or provs, span, items) changed, as `dataclasses.replace`."""
        now = {**{n: getattr(self, n) for n in self.fields}, "provs": self.provs, "span": self.span,
               "items": self.items, **changes}
        values = [now.pop(n) for n in self.fields]
        return type(self)(*values, **now)


class Clause(_Node):
    """Common attributes of clauses and block items: provenance, span, the items of a block."""

    provs: tuple[Prov, ...] = field(default=(), kw_only=True)
    span: Span = field(default=NOWHERE, kw_only=True, compare=False)
    items: tuple[Clause, ...] = field(default=(), kw_only=True)


class Effect(Clause):
    """A play's `then` item or a turn's step that changes the table, run in order."""


# -- header and components


class Game(Clause):
    kind = "game"
    title: str


class Label(Clause):
    """`name LANGUAGE "text"`: a game's, card's or option's name in a language."""

    kind = "name"
    language: Ident
    text: str


class Document(Clause):
    kind = "document"
    id: Ident
    title: str


class Players(Clause):
    """`players LOW..HIGH`, or the counts listed (`counts`, from the fewest up)."""

    kind = "players"
    low: Number
    high: Number
    counts: tuple[Number, ...] | None


class Param(Clause):
    kind = "param"
    name: Ident
    default: Number
    low: Number
    high: Number


class Define(Clause):
    kind = "define"
    name: Ident
    params: tuple[Ident, ...]
    body: Expr


@dataclass(frozen=True)
class EnumValue:
    """A value of an enum attribute, with its names in other languages as (language, text)."""

    name: Ident
    labels: tuple[tuple[str, str], ...]


class EnumAttribute(Clause):
    kind = "enum_attribute"
    name: Ident
    values: tuple[EnumValue, ...]


class IntAttribute(Clause):
    kind = "int_attribute"
    name: Ident
    low: Number
    high: Number


class Card(Clause):
    kind = "card"
    name: Ident


class Each(Clause):
    """`each ATTRIBUTE`: a card kind with a face per value."""

    kind = "each"
    attribute: Ident


class Fixed(Clause):
    kind = "fixed"
    attribute: Ident
    value: Ident | Number


class Copies(Clause):
    kind = "copies"
    count: Number


class Face(Clause):
    kind = "face"
    template: str
    language: Ident | None


class Mark(Clause):
    kind = "mark"
    name: Ident
    count: Number | None
    where: Expr | None


class Zone(Clause):
    kind = "zone"
    name: Ident
    scope: str  # "per_seat" or "shared"
    visibility: str  # "hidden", "owner" or "public"
    layout: str  # "cards" or "piles"


# -- procedure


class Setup(Clause):
    kind = "setup"


class Cleanup(Clause):
    kind = "cleanup"


class Shuffle(Clause):
    kind = "shuffle"
    zone: Ident


class Deal(Clause):
    kind = "deal"
    count: Expr | None  # None: all
    source: Ident
    dest: Ident
    where: Expr | None


class Move(Clause):
    kind = "move"
    count: Expr | None  # None: all
    source: Ident
    dest: Ident
    where: Expr | None


class Let(Clause):
    kind = "let"
    name: Ident
    value: Expr


class Play(Clause):
    kind = "play"
    name: Ident


class CardFrom(Clause):
    """`card from ZONE [where C]`: the card a play lays."""

    kind = "card"
    zone: Ident
    where: Expr | None


class With(Clause):
    kind = "with"
    name: Ident
    zone: Ident
    where: Expr | None


# a seat a play aims at: "any_seat", "other_seat", "self_seat", or an expression naming one
Seats: TypeAlias = "str | Expr"


class To(Clause):
    kind = "to"
    zone: Ident
    seats: Seats | None  # None: a shared zone


class NewPile(Clause):
    kind = "new_pile"
    when: Expr | None


class OntoPile(Clause):
    kind = "onto_pile"
    when: Expr | None


class Choose(Clause):
    """`choose seat NAME of SEATS` or `choose pile NAME of ZONE of SEATS`, with `where`."""

    kind = "choose"
    what: str  # "seat" or "pile"
    name: Ident
    zone: Ident | None  # a pile's zone
    seats: Seats
    where: Expr | None


class ChooseValue(Clause):
    kind = "choose_value"
    name: Ident
    attribute: Ident
    where: Expr | None


class Meld(Clause):
    kind = "meld"
    name: Ident
    low: Number
    high: Number
    zone: Ident
    where: Expr | None


class MoveCards(Effect):
    kind = "move_cards"
    count: Expr | None  # None: all
    random: bool
    var: Ident | None
    source: Expr
    dest: Expr
    where: Expr | None


class MovePile(Effect):
    kind = "move_pile"
    pile: Expr
    dest: Expr


class SetValue(Effect):
    kind = "set_value"
    name: Ident
    value: Expr


class EndTurn(Effect):
    kind = "end_turn"


class Merge(Effect):
    kind = "merge"
    var: Ident
    collection: Expr
    where: Expr | None


class Reverse(Effect):
    kind = "reverse"


class NextTurn(Effect):
    kind = "next_turn"
    seat: Expr


class Swap(Effect):
    kind = "swap"
    zones: tuple[Ident, ...]
    seat: Expr
    other: Expr


class PassZone(Effect):
    kind = "pass_zone"
    zone: Ident


class NoAnswer(Effect):
    kind = "no_answer"
    seat: Expr


class Guarded(Effect):
    """`then EFFECT when COND`."""

    kind = "guarded"
    effect: Effect
    when: Expr


class Window(Clause):
    kind = "window"


class WindowPlays(Clause):
    kind = "window_plays"
    plays: tuple[Ident, ...]


class WindowOpen(Clause):
    kind = "window_open"


class WindowWhen(Clause):
    kind = "window_when"
    when: Expr


class Turn(Clause):
    kind = "turn"


class PlayStep(Clause):
    """`play one of ... [or pass]`, `may play ...` (`optional`), `may play any of ...` (`repeat`)."""

    kind = "play_step"
    plays: tuple[Ident, ...]
    or_pass: bool
    when: Expr | None
    optional: bool
    repeat: bool = False


class Draw(Clause):
    kind = "draw"
    count: Expr
    source: Ident
    dest: Ident
    when: Expr | None


class RoundEnd(Clause):
    kind = "round_end"
    name: Ident
    when: Expr


class Final(Clause):
    """`final round NAME when COND [in seat order] { steps }`."""

    kind = "final"
    name: Ident
    when: Expr
    seat_order: bool


class Score(Clause):
    kind = "score"
    seat: Ident
    value: Expr


class Match(Clause):
    kind = "match"


class Until(Clause):
    kind = "until"
    when: Expr


class Winner(Clause):
    kind = "winner"
    which: str  # "highest" or "lowest"


class Starter(Clause):
    kind = "starter"
    seat: Expr


class DeckRule(Clause):
    kind = "deck"
    name: Ident
    when: Expr


class Decks(Clause):
    kind = "decks"
    count: Number


class Display(Clause):
    kind = "display"


class Look(Clause):
    kind = "look"
    attribute: Ident
    value: Ident | Number
    colour: Ident | None
    symbol: str | None


class Teams(Clause):
    kind = "teams"
    how: str  # "opposite" or "listed"
    teams: tuple[tuple[Number, ...], ...]


# -- editions and variants


class Edition(Clause):
    kind = "edition"
    name: Ident


class Variant(Clause):
    kind = "variant"
    name: Ident


class Language(Clause):
    kind = "language"
    language: Ident


class Requires(Clause):
    kind = "requires"
    editions: tuple[Ident, ...]


class Combines(Clause):
    kind = "combines"
    variants: tuple[Ident, ...]


class Replace(Clause):
    kind = "replace"
    clause: Clause


class Extend(Clause):
    kind = "extend"
    clause: Clause


class Add(Clause):
    kind = "add"
    clause: Clause


class Remove(Clause):
    """`remove KIND [NAME]`, the kind as `options.key` names clauses."""

    kind = "remove"
    what: str
    name: Ident | None


class For(Clause):
    kind = "for"
    editions: tuple[Ident, ...]
