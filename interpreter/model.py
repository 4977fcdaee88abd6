"""The checked, resolved ruleset: plain frozen data, the one thing that export, diff and the
engine read. Every name here is resolved and every expression typed; nothing points back into
the text except the line and column of each clause's provenance.

Types of expressions are short strings: `int`, `bool`, `seat`, `card`, `pile`, `zone` (of
cards), `zone:piles`, `enum:ATTR`, and `list:T` for a list of T.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

from .dispatch import depth_first, unknown


@dataclass(frozen=True)
class Provenance:
    """Where a clause comes from: the book it cites, a ruling, an assumption, each with why."""

    sources: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()
    line: int = 0
    column: int = 0


NO_PROVENANCE = Provenance()

# ------------------------------------------------------------------ expressions


@dataclass(frozen=True)
class Const:
    value: int | bool | str | tuple[str, ...] | tuple[int, ...]  # a tuple: the values of an attribute
    type: str


@dataclass(frozen=True)
class Ref:
    """A name bound by the context (self, card, pile, target, owner, seats, players, round,
    totals) or by a quantifier or an each-argument."""

    name: str
    type: str


@dataclass(frozen=True)
class ParamRef:
    name: str
    type: str = "int"


@dataclass(frozen=True)
class ZoneRef:
    zone: str
    seat: object | None  # an expression of type seat, or None for a shared zone
    piles: bool
    type: str = "zone"


@dataclass(frozen=True)
class ValueRef:
    """A named value that lasts (`let NAME = ...` in setup or match), read by its name."""

    name: str
    type: str


@dataclass(frozen=True)
class AttrOf:
    obj: object
    attr: str
    type: str  # enum:ATTR or int, or list:... when obj is a list (the attribute of each)


@dataclass(frozen=True)
class Call:
    function: str
    args: tuple[Any, ...]  # expressions, as every field of this module that holds one
    type: str


@dataclass(frozen=True)
class Each:
    """`function(var in collection: body)` or `function(var in collection where body)`."""

    function: str
    var: str
    collection: object
    body: object
    filter: bool
    type: str


@dataclass(frozen=True)
class Defined:
    """A call of a `define`: shown as the call, run as its body with the arguments filled in."""

    name: str
    args: tuple[Any, ...]  # expressions, as every field of this module that holds one
    body: object
    type: str


@dataclass(frozen=True)
class Op:
    op: str
    left: object
    right: object
    type: str


@dataclass(frozen=True)
class Unary:
    op: str  # "not" or "-"
    operand: object
    type: str


@dataclass(frozen=True)
class If:
    cond: object
    then: object
    otherwise: object
    type: str


@dataclass(frozen=True)
class Quantifier:
    kind: str  # "some" or "every"
    var: str
    collection: object
    body: object
    type: str = "bool"


# a typed expression: every class has its `type`
Expr: TypeAlias = (Const | Ref | ParamRef | ZoneRef | ValueRef | AttrOf | Call | Each | Defined | Op | Unary | If
                   | Quantifier)


def children(e: object) -> tuple[object, ...]:
    """The sub-expressions of an expression, in the order they are written; a define's call is
    its body (the arguments are in it already). An unknown node is an error."""
    match e:
        case Const() | Ref() | ParamRef() | ValueRef():
            return ()
        case ZoneRef(seat=seat):
            return () if seat is None else (seat,)
        case AttrOf(obj=x) | Unary(operand=x) | Defined(body=x):
            return (x,)
        case Call(args=args):
            return tuple(args)
        case Each(collection=coll, body=body) | Quantifier(collection=coll, body=body):
            return (coll, body)
        case Op(left=a, right=b):
            return (a, b)
        case If(cond=c, then=a, otherwise=b):
            return (c, a, b)
    raise unknown(children, e)


def walk(e: object) -> Iterator[object]:
    """An expression and every expression inside it, depth first (jinja2's `find_all`)."""
    return depth_first(e, children)


def conjuncts(where: object) -> list[object]:
    """`a and b and c` as [a, b, c], in order."""
    out: list[object] = []
    todo = [where]
    while todo:
        e = todo.pop()
        if isinstance(e, Op) and e.op == "and":
            todo += [e.right, e.left]
        else:
            out.append(e)
    return out


def all_of(parts: list[object]) -> object:
    """[a, b, c] as `a and b and c` (at least one part): what `conjuncts` takes apart."""
    condition = parts[0]
    for e in parts[1:]:
        condition = Op("and", condition, e, "bool")
    return condition


def reads_only(e: object, names: frozenset[str] | set[str]) -> bool:
    """Whether an expression reads nothing but numbers, params, these context names, the
    attributes of what they name, and defines made of the same: known before play for
    `players`, the same for every copy of a face for `card`."""
    match e:
        case Const() | ParamRef():
            return True
        case Ref(name=name):
            return name in names
        case ZoneRef() | ValueRef() | Call() | Each() | Quantifier():
            return False
        case AttrOf() | Defined() | Op() | Unary() | If():
            return all(reads_only(x, names) for x in children(e))
    raise unknown(reads_only, e)


def names_read(e: object) -> frozenset[str]:
    """The context names (`round`, `totals`, `self`, a seat variable ...) an expression reads,
    ZONES when it reads a zone and VALUES a named value; names bound inside it (quantifiers,
    each-arguments) are not counted."""
    match e:
        case Ref(name=name):
            return frozenset((name,))
        case ValueRef():
            return frozenset((VALUES,))
        case ZoneRef():
            return frozenset((ZONES,)).union(*map(names_read, children(e)))
        case Each(var=var, collection=coll, body=body) | Quantifier(var=var, collection=coll, body=body):
            return names_read(coll) | (names_read(body) - {var})
    return frozenset().union(*map(names_read, children(e)))


ZONES = "@zones"  # in `names_read`: the expression reads a zone (no name has an @)
VALUES = "@values"  # in `names_read`: the expression reads a named value


# ------------------------------------------------------------------ components


@dataclass(frozen=True)
class Document:
    id: str
    title: str
    provenance: Provenance


@dataclass(frozen=True)
class Param:
    name: str
    default: int
    low: int
    high: int
    provenance: Provenance


@dataclass(frozen=True)
class AttributeValue:
    name: str
    labels: tuple[tuple[str, str], ...]  # (language, text)


@dataclass(frozen=True)
class Attribute:
    name: str
    values: tuple[AttributeValue, ...]  # the enum's values; empty for an integer attribute
    low: int
    high: int
    provenance: Provenance

    @property
    def is_enum(self) -> bool:
        return bool(self.values)


@dataclass(frozen=True)
class Mark:
    """A mark printed on some copies of a card kind (a star, a "1"): the first `count` copies of
    each face (all, for None) whose attributes meet `where`. Marks choose the deck in play."""

    name: str
    count: int | None
    where: object | None  # reads `card`'s attributes
    provenance: Provenance


@dataclass(frozen=True)
class CardKind:
    name: str
    labels: tuple[tuple[str, str], ...]
    attributes: tuple[tuple[str, str | int | None], ...]  # (attribute, fixed value or None for each)
    copies: int
    face: str  # a template such as "{colour}{value}"
    provenance: Provenance
    copies_provenance: Provenance
    marks: tuple[Mark, ...] = ()
    faces: tuple[tuple[str, str], ...] = ()  # (language, template): the face in another language


@dataclass(frozen=True)
class Card:
    """One face of the deck: a kind with every attribute set, and how many copies it has."""

    face: str
    kind: str
    attributes: tuple[tuple[str, str | int], ...]
    copies: int
    names: tuple[tuple[str, str], ...] = ()  # (language, face): how the face reads in another language


@dataclass(frozen=True)
class Zone:
    name: str
    per_seat: bool
    visibility: str  # "hidden", "owner" or "public"
    piles: bool
    provenance: Provenance


# ------------------------------------------------------------------ procedure


@dataclass(frozen=True)
class Shuffle:
    zone: str
    provenance: Provenance


@dataclass(frozen=True)
class Deal:
    """`deal N from A to B [where C]`: each seat, from the starter on, gets N cards."""

    count: object | None  # None: all
    source: str
    dest: str
    where: object | None  # only cards for which this holds are taken, from the top down
    provenance: Provenance


@dataclass(frozen=True)
class Transfer:
    """`move N from A to B`: cards from the top of one shared zone to another; in cleanup, `A`
    may be per seat: every seat's, seat 0 first."""

    count: object | None  # None: all
    source: str
    dest: str
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Draw:
    count: object
    source: str
    dest: str
    when: object | None  # the step runs only when this holds
    provenance: Provenance


@dataclass(frozen=True)
class PlayStep:
    plays: tuple[str, ...]
    or_pass: bool  # a seat with no legal play passes
    when: object | None
    provenance: Provenance
    optional: bool = False  # `may play`: a pass is open even to a seat that could play
    repeat: bool = False  # `may play any of`: the seat plays until it passes


@dataclass(frozen=True)
class Condition:
    """A placement the play allows, with the condition under which it may be chosen."""

    expr: object | None  # None: always
    provenance: Provenance


@dataclass(frozen=True)
class Merge:
    var: str
    collection: object
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Reverse:
    """Turn order runs the other way from now on."""

    provenance: Provenance


@dataclass(frozen=True)
class NextTurn:
    """The seat that takes the next turn; several queue in the order they were given."""

    seat: object
    provenance: Provenance


@dataclass(frozen=True)
class Swap:
    """`then swap Z, ... of A with B`: the two seats trade what their zones hold."""

    zones: tuple[str, ...]
    seat: object
    other: object
    provenance: Provenance


@dataclass(frozen=True)
class PassZone:
    """`then pass Z`: every seat's Z goes to the next seat in the direction of play, at once."""

    zone: str
    provenance: Provenance


@dataclass(frozen=True)
class NoAnswer:
    """`then no answer from S`: seat S plays nothing in the response window after this play."""

    seat: object
    provenance: Provenance


@dataclass(frozen=True)
class SetValue:
    """`then set NAME to EXPR`: the named value takes the expression's value, now."""

    name: str
    expr: object
    provenance: Provenance


@dataclass(frozen=True)
class EndTurn:
    """`then end turn`: the turn under way is over once this step (or play) is done."""

    provenance: Provenance


@dataclass(frozen=True)
class Guarded:
    """`then EFFECT when COND`: the effect runs only when the condition holds as it is reached."""

    effect: Effect
    when: object
    provenance: Provenance


@dataclass(frozen=True)
class EffectStep:
    """`then EFFECT [when COND]` as a turn step: it runs by itself, for the seat whose turn it is."""

    effect: Effect
    when: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Let:
    """`let NAME = EXPR` in setup: the per-round value is set when setup reaches it."""

    name: str
    provenance: Provenance


@dataclass(frozen=True)
class Value:
    """A named value that lasts: set by `let` (in setup, for each round; in match, once for
    the match), changed by `then set`, read by its name."""

    name: str
    type: str
    init: object
    per_match: bool
    provenance: Provenance


@dataclass(frozen=True)
class MoveCards:
    """`move N [at random] [x] from SOURCE to DEST [where C]`: up to N cards (all, for None) of
    a zone of cards or a pile, from the top down (or at random), those for which C holds with
    `x` bound to the card; into a zone of piles each starts a new pile."""

    count: object | None
    random: bool
    var: str | None
    source: object
    dest: object
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class MovePile:
    """`move pile P to DEST`: the pile, with all that lies on it, to the end of a zone of piles."""

    pile: object
    dest: object
    provenance: Provenance


@dataclass(frozen=True)
class Mate:
    """The second card of a compound play: `with NAME from ZONE [where C]`. It is played with
    the first as one move; in a pile it lies on the first."""

    name: str
    zone: str
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Choose:
    """A target the move names besides the card: a seat, or a pile of a seat's zone. The move's
    @SEAT (or @SEAT/PILE) names it; the play's effects read it by `name`."""

    kind: str  # "seat", "pile" or "value"
    name: str
    zone: str | None  # the zone of piles, for a pile; the attribute, for a value
    seats: str  # "any" or "other"; "" for a value
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Meld:
    """`meld NAME of LOW..HIGH from ZONE [where C]`: a play of LOW to HIGH cards of the seat's
    zone at once, as one move; `C` reads the set as the list `NAME`."""

    name: str
    zone: str
    low: int
    high: int
    where: object | None
    provenance: Provenance


@dataclass(frozen=True)
class Window:
    """A response window: after every completed step of a turn, each seat in turn order from
    the one whose turn it is may make one of `plays` or pass; a full round of passes closes it."""

    plays: tuple[str, ...]
    when: object | None
    provenance: Provenance


# what a play's `then` or a turn's effect step does
Effect: TypeAlias = (Merge | Reverse | NextTurn | MoveCards | MovePile | Swap | PassZone | NoAnswer | Guarded | SetValue
                     | EndTurn)


@dataclass(frozen=True)
class Play:
    name: str
    card_zone: str  # "" for a play of no card: it chooses a value (`ask @1 7`)
    card_filter: object | None
    card_provenance: Provenance
    dest_zone: str
    dest_seats: str  # "any", "other", "self", or "seat" for the one `dest_seat` names; "" for a shared zone
    dest_provenance: Provenance
    new_pile: Condition | None
    onto_pile: Condition | None
    choose: Choose | None
    mate: Mate | None
    effects: tuple[Effect, ...]
    provenance: Provenance
    dest_seat: object | None = None  # the seat expression, for dest_seats "seat"
    value: Choose | None = None  # a chosen value: a play with one and no `card from` plays no card
    meld: Meld | None = None  # a play of several cards at once (card_zone is its zone)


@dataclass(frozen=True)
class RoundEnd:
    name: str
    cond: object
    provenance: Provenance


@dataclass(frozen=True)
class FinalRound:
    """When a turn ends with `when` true, each seat from the next one on takes one final turn
    of these steps, with no response window; then the round ends, by the name `name`. In
    seat order, the next seat is the next by number, whatever the direction of play."""

    name: str
    when: object
    steps: tuple[PlayStep | Draw | EffectStep, ...]
    provenance: Provenance
    seat_order: bool = False


@dataclass(frozen=True)
class Score:
    var: str
    expr: object
    provenance: Provenance


@dataclass(frozen=True)
class Match:
    until: object
    until_provenance: Provenance
    winner: str  # "highest" or "lowest"
    winner_provenance: Provenance
    starter: object
    starter_provenance: Provenance


@dataclass(frozen=True)
class Define:
    """A `define` as declared: its body typed once with its parameters as names, the types
    they had at its first call. The diff compares defines here, and calls by name and args."""

    name: str
    params: tuple[str, ...]
    body: object
    provenance: Provenance


@dataclass(frozen=True)
class DeckRule:
    """`deck NAME where COND`: the copies in play are those every deck rule keeps."""

    name: str
    where: object  # reads `card` (its attributes and marks), players and params
    provenance: Provenance


@dataclass(frozen=True)
class Teams:
    """`teams opposite` or `teams 0+2, 1+3`: the seats that play together. A team's total is
    the sum of its seats' totals, and the winners are every seat of the best team."""

    kind: str  # "opposite" (each seat with the seat across the table) or "listed"
    listed: tuple[tuple[int, ...], ...]  # the seats of each team, for "listed"
    provenance: Provenance

    @property
    def text(self) -> str:
        """The clause as a file writes it: `teams opposite`, `teams 0+2, 1+3`."""
        return "teams opposite" if self.kind == "opposite" else "teams " + ", ".join(
            "+".join(map(str, team)) for team in self.listed)

    def at(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams at this player count, each its seats in order, the team of seat 0 first."""
        if self.kind == "opposite":
            half = players // 2
            return tuple((s, s + half) for s in range(half))
        return tuple(sorted(tuple(sorted(team)) for team in self.listed))


def team_of(teams: Teams | None, players: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's team (its seats in order): the seat alone when the ruleset has no teams."""
    if teams is None:
        return tuple((s,) for s in range(players))
    by_seat = {}
    for team in teams.at(players):
        for seat in team:
            by_seat[seat] = team
    return tuple(by_seat[s] for s in range(players))


@dataclass(frozen=True)
class Option:
    """An edition or a variant the file declares, and what it combines with."""

    kind: str  # "edition" or "variant"
    name: str
    labels: tuple[tuple[str, str], ...]
    requires: tuple[str, ...]  # the editions a variant exists in; empty: all
    combines: tuple[str, ...]  # the variants it may be chosen with
    provenance: Provenance


@dataclass(frozen=True)
class Look:
    """`display { ATTRIBUTE VALUE as COLOUR "SYMBOL" }`: how people see a value of an attribute,
    a terminal colour for the cards that have it, a symbol in their face for it. Play ignores it."""

    attribute: str
    value: str | int
    colour: str | None  # a terminal colour name (as rich knows them), or None
    symbol: str | None  # written in a face in place of the value, or None
    provenance: Provenance


def selection_text(edition: str | None, variants: tuple[str, ...], house: str | None = None) -> str:
    """An edition, variants and house rules as the command line writes them after the file:
    `@ru+minimum+house:short.yaml`."""
    return ((f"@{edition}" if edition else "") + "".join(f"+{v}" for v in variants)
            + (f"+house:{house}" if house else ""))


@dataclass(frozen=True)
class Ruleset:
    file: str
    title: str
    names: tuple[tuple[str, str], ...]
    documents: tuple[Document, ...]
    players: tuple[int, int]
    players_provenance: Provenance
    params: tuple[Param, ...]
    attributes: tuple[Attribute, ...]
    kinds: tuple[CardKind, ...]
    deck: tuple[Card, ...]
    zones: tuple[Zone, ...]
    setup: tuple[Shuffle | Deal | Transfer | Let, ...]
    plays: tuple[Play, ...]
    turn: tuple[PlayStep | Draw | EffectStep, ...]
    window: Window | None
    round_ends: tuple[RoundEnd, ...]
    final: FinalRound | None
    score: Score
    match: Match
    player_counts: tuple[int, ...] = ()  # the allowed counts, when not every one in `players`
    deck_rules: tuple[DeckRule, ...] = ()
    sets: int = 1  # `decks N`: the game uses N sets of the cards
    sets_provenance: Provenance = NO_PROVENANCE
    marks: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()  # every edition and variant of the file
    edition: str | None = None  # the selection this model was made for
    variants: tuple[str, ...] = ()
    language: str | None = None  # the language the edition shows cards in, when it says
    defines: tuple[Define, ...] = ()  # the defines some clause calls, in file order
    house: str | None = None  # the house-rules file applied, if any
    house_name: str = ""
    cleanup: tuple[Transfer, ...] = ()  # what happens when a round has ended, before it is scored
    display: tuple[Look, ...] = ()  # how cards are drawn for people, in file order
    display_provenance: Provenance = NO_PROVENANCE
    values: tuple[Value, ...] = ()  # the named values that last, per match first
    teams: Teams | None = None  # the seats that play together, if any

    @property
    def counts(self) -> tuple[int, ...]:
        """Every player count the ruleset allows."""
        return self.player_counts or tuple(range(self.players[0], self.players[1] + 1))

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the game is named in or gives faces in: a card without a face in one
        shows its own face there."""
        return tuple(
            dict.fromkeys([*(lang for lang, _ in self.names), *(lang for card in self.deck for lang, _ in card.names)])
        )

    @property
    def selection(self) -> str:
        return selection_text(self.edition, self.variants, self.house)

    def zone(self, name: str) -> Zone:
        return next(z for z in self.zones if z.name == name)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def play(self, name: str) -> Play:
        return next(p for p in self.plays if p.name == name)

    @property
    def round_end_names(self) -> tuple[str, ...]:
        """Every way a round can end, the final round's last."""
        return tuple(r.name for r in self.round_ends) + ((self.final.name,) if self.final else ())

    @property
    def deck_size(self) -> int:
        return sum(card.copies for card in self.deck)
