"""The abstract syntax tree: what the text says, before any name is resolved.

Every node carries its span as an attribute that takes no part in equality (CPython's `ast`
keeps positions outside `_fields` for the same reason): two trees that say the same thing are
equal wherever they stand in their files.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias

from .diagnostics import Span
from .dispatch import unknown

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
    todo = [e]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(reversed(children(node)))


# ------------------------------------------------------------------ clauses
#
# One class a clause or block item, its fields named as the text says them (CPython's `ast`);
# `kind` is the keyword options and messages name it by. Provenance and span are attributes
# every clause has, and so is `items`, the clauses of a block (empty for a clause of one line).


@dataclass(frozen=True, kw_only=True)
class Clause:
    """Common attributes of clauses and block items: provenance, span, the items of a block."""

    kind: ClassVar[str]
    provs: tuple[Prov, ...] = ()
    span: Span = _span()
    items: tuple[Clause, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Effect(Clause):
    """A play's `then` item or a turn's step that changes the table, run in order."""


# -- header and components


@dataclass(frozen=True)
class Game(Clause):
    kind = "game"
    title: str


@dataclass(frozen=True)
class Label(Clause):
    """`name LANGUAGE "text"`: a game's, card's or option's name in a language."""

    kind = "name"
    language: Ident
    text: str


@dataclass(frozen=True)
class Document(Clause):
    kind = "document"
    id: Ident
    title: str


@dataclass(frozen=True)
class Players(Clause):
    """`players LOW..HIGH`, or the counts listed (`counts`, from the fewest up)."""

    kind = "players"
    low: Number
    high: Number
    counts: tuple[Number, ...] | None


@dataclass(frozen=True)
class Param(Clause):
    kind = "param"
    name: Ident
    default: Number
    low: Number
    high: Number


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class EnumAttribute(Clause):
    kind = "enum_attribute"
    name: Ident
    values: tuple[EnumValue, ...]


@dataclass(frozen=True)
class IntAttribute(Clause):
    kind = "int_attribute"
    name: Ident
    low: Number
    high: Number


@dataclass(frozen=True)
class Card(Clause):
    kind = "card"
    name: Ident


@dataclass(frozen=True)
class Each(Clause):
    """`each ATTRIBUTE`: a card kind with a face per value."""

    kind = "each"
    attribute: Ident


@dataclass(frozen=True)
class Fixed(Clause):
    kind = "fixed"
    attribute: Ident
    value: Ident | Number


@dataclass(frozen=True)
class Copies(Clause):
    kind = "copies"
    count: Number


@dataclass(frozen=True)
class Face(Clause):
    kind = "face"
    template: str
    language: Ident | None


@dataclass(frozen=True)
class Mark(Clause):
    kind = "mark"
    name: Ident
    count: Number | None
    where: Expr | None


@dataclass(frozen=True)
class Zone(Clause):
    kind = "zone"
    name: Ident
    scope: str  # "per_seat" or "shared"
    visibility: str  # "hidden", "owner" or "public"
    layout: str  # "cards" or "piles"


# -- procedure


@dataclass(frozen=True)
class Setup(Clause):
    kind = "setup"


@dataclass(frozen=True)
class Cleanup(Clause):
    kind = "cleanup"


@dataclass(frozen=True)
class Shuffle(Clause):
    kind = "shuffle"
    zone: Ident


@dataclass(frozen=True)
class Deal(Clause):
    kind = "deal"
    count: Expr | None  # None: all
    source: Ident
    dest: Ident
    where: Expr | None


@dataclass(frozen=True)
class Move(Clause):
    kind = "move"
    count: Expr | None  # None: all
    source: Ident
    dest: Ident
    where: Expr | None


@dataclass(frozen=True)
class Let(Clause):
    kind = "let"
    name: Ident
    value: Expr


@dataclass(frozen=True)
class Play(Clause):
    kind = "play"
    name: Ident


@dataclass(frozen=True)
class CardFrom(Clause):
    """`card from ZONE [where C]`: the card a play lays."""

    kind = "card"
    zone: Ident
    where: Expr | None


@dataclass(frozen=True)
class With(Clause):
    kind = "with"
    name: Ident
    zone: Ident
    where: Expr | None


# a seat a play aims at: "any_seat", "other_seat", "self_seat", or an expression naming one
Seats: TypeAlias = "str | Expr"


@dataclass(frozen=True)
class To(Clause):
    kind = "to"
    zone: Ident
    seats: Seats | None  # None: a shared zone


@dataclass(frozen=True)
class NewPile(Clause):
    kind = "new_pile"
    when: Expr | None


@dataclass(frozen=True)
class OntoPile(Clause):
    kind = "onto_pile"
    when: Expr | None


@dataclass(frozen=True)
class Choose(Clause):
    """`choose seat NAME of SEATS` or `choose pile NAME of ZONE of SEATS`, with `where`."""

    kind = "choose"
    what: str  # "seat" or "pile"
    name: Ident
    zone: Ident | None  # a pile's zone
    seats: Seats
    where: Expr | None


@dataclass(frozen=True)
class ChooseValue(Clause):
    kind = "choose_value"
    name: Ident
    attribute: Ident
    where: Expr | None


@dataclass(frozen=True)
class Meld(Clause):
    kind = "meld"
    name: Ident
    low: Number
    high: Number
    zone: Ident
    where: Expr | None


@dataclass(frozen=True)
class MoveCards(Effect):
    kind = "move_cards"
    count: Expr | None  # None: all
    random: bool
    var: Ident | None
    source: Expr
    dest: Expr
    where: Expr | None


@dataclass(frozen=True)
class MovePile(Effect):
    kind = "move_pile"
    pile: Expr
    dest: Expr


@dataclass(frozen=True)
class SetValue(Effect):
    kind = "set_value"
    name: Ident
    value: Expr


@dataclass(frozen=True)
class EndTurn(Effect):
    kind = "end_turn"


@dataclass(frozen=True)
class Merge(Effect):
    kind = "merge"
    var: Ident
    collection: Expr
    where: Expr | None


@dataclass(frozen=True)
class Reverse(Effect):
    kind = "reverse"


@dataclass(frozen=True)
class NextTurn(Effect):
    kind = "next_turn"
    seat: Expr


@dataclass(frozen=True)
class Swap(Effect):
    kind = "swap"
    zones: tuple[Ident, ...]
    seat: Expr
    other: Expr


@dataclass(frozen=True)
class PassZone(Effect):
    kind = "pass_zone"
    zone: Ident


@dataclass(frozen=True)
class NoAnswer(Effect):
    kind = "no_answer"
    seat: Expr


@dataclass(frozen=True)
class Guarded(Effect):
    """`then EFFECT when COND`."""

    kind = "guarded"
    effect: Effect
    when: Expr


@dataclass(frozen=True)
class Window(Clause):
    kind = "window"


@dataclass(frozen=True)
class WindowPlays(Clause):
    kind = "window_plays"
    plays: tuple[Ident, ...]


@dataclass(frozen=True)
class WindowOpen(Clause):
    kind = "window_open"


@dataclass(frozen=True)
class WindowWhen(Clause):
    kind = "window_when"
    when: Expr


@dataclass(frozen=True)
class Turn(Clause):
    kind = "turn"


@dataclass(frozen=True)
class PlayStep(Clause):
    """`play one of ... [or pass]`, `may play ...` (`optional`), `may play any of ...` (`repeat`)."""

    kind = "play_step"
    plays: tuple[Ident, ...]
    or_pass: bool
    when: Expr | None
    optional: bool
    repeat: bool = False


@dataclass(frozen=True)
class Draw(Clause):
    kind = "draw"
    count: Expr
    source: Ident
    dest: Ident
    when: Expr | None


@dataclass(frozen=True)
class RoundEnd(Clause):
    kind = "round_end"
    name: Ident
    when: Expr


@dataclass(frozen=True)
class Final(Clause):
    """`final round NAME when COND [in seat order] { steps }`."""

    kind = "final"
    name: Ident
    when: Expr
    seat_order: bool


@dataclass(frozen=True)
class Score(Clause):
    kind = "score"
    seat: Ident
    value: Expr


@dataclass(frozen=True)
class Match(Clause):
    kind = "match"


@dataclass(frozen=True)
class Until(Clause):
    kind = "until"
    when: Expr


@dataclass(frozen=True)
class Winner(Clause):
    kind = "winner"
    which: str  # "highest" or "lowest"


@dataclass(frozen=True)
class Starter(Clause):
    kind = "starter"
    seat: Expr


@dataclass(frozen=True)
class DeckRule(Clause):
    kind = "deck"
    name: Ident
    when: Expr


@dataclass(frozen=True)
class Decks(Clause):
    kind = "decks"
    count: Number


@dataclass(frozen=True)
class Display(Clause):
    kind = "display"


@dataclass(frozen=True)
class Look(Clause):
    kind = "look"
    attribute: Ident
    value: Ident | Number
    colour: Ident | None
    symbol: str | None


@dataclass(frozen=True)
class Teams(Clause):
    kind = "teams"
    how: str  # "opposite" or "listed"
    teams: tuple[tuple[Number, ...], ...]


# -- editions and variants


@dataclass(frozen=True)
class Edition(Clause):
    kind = "edition"
    name: Ident


@dataclass(frozen=True)
class Variant(Clause):
    kind = "variant"
    name: Ident


@dataclass(frozen=True)
class Language(Clause):
    kind = "language"
    language: Ident


@dataclass(frozen=True)
class Requires(Clause):
    kind = "requires"
    editions: tuple[Ident, ...]


@dataclass(frozen=True)
class Combines(Clause):
    kind = "combines"
    variants: tuple[Ident, ...]


@dataclass(frozen=True)
class Replace(Clause):
    kind = "replace"
    clause: Clause


@dataclass(frozen=True)
class Extend(Clause):
    kind = "extend"
    clause: Clause


@dataclass(frozen=True)
class Add(Clause):
    kind = "add"
    clause: Clause


@dataclass(frozen=True)
class Remove(Clause):
    """`remove KIND [NAME]`, the kind as `options.key` names clauses."""

    kind = "remove"
    what: str
    name: Ident | None


@dataclass(frozen=True)
class For(Clause):
    kind = "for"
    editions: tuple[Ident, ...]
