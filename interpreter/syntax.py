"""The abstract syntax tree: what the text says, before any name is resolved.

Every node carries its span as an attribute that takes no part in equality (CPython's `ast`
keeps positions outside `_fields` for the same reason): two trees that say the same thing are
equal wherever they stand in their files.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Span

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
    args: tuple
    span: Span = _span()


@dataclass(frozen=True)
class EachArg:
    """`x in COLLECTION: EXPR` or `x in COLLECTION where COND`, as a call's argument."""

    var: Ident
    collection: object
    body: object
    filter: bool  # True for `where`
    span: Span = _span()


@dataclass(frozen=True)
class Attr:
    obj: object
    attr: Ident
    span: Span = _span()


@dataclass(frozen=True)
class ZoneOf:
    zone: Ident
    seat: object
    span: Span = _span()


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / % == != < <= > >= and or
    left: object
    right: object
    span: Span = _span()


@dataclass(frozen=True)
class Unary:
    op: str  # "not" or "-"
    operand: object
    span: Span = _span()


@dataclass(frozen=True)
class If:
    cond: object
    then: object
    otherwise: object
    span: Span = _span()


@dataclass(frozen=True)
class Quantifier:
    kind: str  # "some" or "every"
    var: Ident
    collection: object
    body: object
    span: Span = _span()


# ------------------------------------------------------------------ clauses


@dataclass(frozen=True)
class Clause:
    """Common shape of clauses and block items: a keyword, its parts, its provenance."""

    kind: str
    parts: tuple
    provs: tuple[Prov, ...]
    span: Span = _span()
    items: tuple = ()  # the items of a block clause
