"""AST to model. Resolves every name, types every expression, checks counts and ranges, and
reports every error it can find in one run, each located, with a hint. Unused definitions are
warnings. The model is built only when there is no error."""
from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from . import model as m
from . import syntax as s
from .diagnostics import Sink, Span
from .dispatch import unknown, visit
from .drawing import fill

MAX_PLAYERS = 64
MAX_DECK = 20_000
MAX_COPIES = 1_000
MAX_ATTRIBUTE_VALUES = 10_000
MAX_DEFINE_NESTING = 4  # a define inside a define ...: keeps filled-in expressions shallow

# The context names each kind of expression sees, beyond the ruleset's own names.
GLOBAL = {"seats": "list:seat", "players": "int", "passes": "int", "direction": "int"}
PLAY_CARD = {**GLOBAL, "self": "seat", "card": "card"}
PLAY_TARGET = {**PLAY_CARD, "target": "zone", "owner": "seat"}
TURN_STEP = {**GLOBAL, "self": "seat", "passed": "bool"}
PLAY_VALUE = {**GLOBAL, "self": "seat"}  # a play of no card sees the seat playing and the names it chooses
SETUP = {"players": "int"}  # setup counts are known before play: numbers, params and players
SETUP_FILTER = {**SETUP, "seats": "list:seat", "card": "card"}  # a setup `where` reads the table as set so far
MARKS = "@marks"  # in a scope: `card.MARK` may be read (never a name: no identifier has an @)
DECK = {**SETUP, "card": "card", MARKS: ""}  # a deck rule reads a copy's attributes and marks
FACE = {"card": "card"}  # a mark's condition reads the face's attributes

# The functions of the language: name -> the forms it takes, as the hint shows them.
FUNCTIONS = {
    "count": "count(LIST or ZONE) or count(x in LIST where COND)",
    "sum": "sum(LIST of numbers) or sum(x in LIST: NUMBER)",
    "max": "max(LIST of numbers) or max(x in LIST: NUMBER)",
    "min": "min(LIST of numbers) or min(x in LIST: NUMBER)",
    "product": "product(LIST of numbers) or product(x in LIST: NUMBER)",
    "distinct": "distinct(LIST)", "piles": "piles(ZONE of piles)", "tops": "tops(ZONE of piles)",
    "top": "top(PILE or ZONE of cards)", "bottom": "bottom(PILE or ZONE of cards)", "cards": "cards(ZONE or PILE)",
    "values": "values(ATTRIBUTE)",
    "seat": "seat(NUMBER): the seat of that number, counted round the table", "index": "index(SEAT): the seat's number",
    "best": "best(x in LIST: NUMBER): the first element of a list of seats or cards with the largest number",
    "played_by": "played_by(CARD): the seat that played it this round",
    "team": "team(SEAT): the seats of its team", "partner": "partner(SEAT): the next seat of its team",
    "team_total": "team_total(SEAT): the sum of its team's totals",
}
TEAM_FUNCTIONS = ("team", "partner", "team_total")  # need a `teams` clause
MATCH_UNTIL = {**GLOBAL, "totals": "list:int", "round": "int"}
MATCH_STARTER = {**GLOBAL, "round": "int"}
LET_ROUND = {**GLOBAL, "round": "int"}  # a setup `let` reads the table as setup has laid it out, and the round
VALUE_TYPES = ("int", "bool", "seat", "card")  # and enum:ATTR: what a named value may hold
CONTEXTS = {"SETUP": SETUP, "DECK": {k: v for k, v in DECK.items() if k != MARKS}, "GLOBAL": GLOBAL,
            "PLAY_CARD": PLAY_CARD, "PLAY_TARGET": PLAY_TARGET,
            "TURN_STEP": TURN_STEP, "MATCH_UNTIL": MATCH_UNTIL, "MATCH_STARTER": MATCH_STARTER}
CONTEXT_NAMES = {**PLAY_TARGET, **TURN_STEP, **MATCH_UNTIL, "pile": "pile"}  # no ruleset may define these


MAX_SYMBOL = 8  # characters of a `display` symbol: a suit, a rank, a short word


def _terminal_colours() -> dict[str, int]:
    """The colour names of the 256-colour terminal palette, as rich knows them (it draws them)."""
    from rich.color import ANSI_COLOR_NAMES

    return ANSI_COLOR_NAMES


def _list(t: str) -> str:
    return "list:" + t


def _element(t: str) -> str | None:
    return t[5:] if t.startswith("list:") else None


def _show(t: str) -> str:
    return {"zone": "a zone of cards", "zone:piles": "a zone of piles", "int": "a number", "bool": "a truth value",
            "seat": "a seat",
            "card": "a card", "pile": "a pile"}.get(t) or (
        f"a list of {_show(t[5:]).split(' ', 1)[1]}s" if t.startswith("list:")
        else f"a {t[5:]} value" if t.startswith("enum:") else t)


def near(word: str, choices) -> str:
    """A "did you mean" hint for a misspelled name, or ""."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"did you mean '{close[0]}'?" if close else ""


_ITEM_WORDS = {"card": "card from", "to": "to", "new_pile": "new pile", "onto_pile": "onto pile", "choose": "choose",
               "with": "with", "choose_value": "choose value", "meld": "meld"}
# the order a play's items are read in, the others after them in file order
_ITEM_ORDER = {s.To: 0, s.Choose: 1, s.CardFrom: 2, s.Meld: 2, s.With: 3, s.ChooseValue: 3}


def _in_expressions(space: str) -> bool:
    """Whether names of this space can stand alone in an expression."""
    return space in ("param", "zone", "attribute", "value") or space.startswith("value of")


def _both_values(a: str, b: str) -> bool:
    """Two attributes may share a value's name; a use of it then asks which (see `_name`)."""
    return a.startswith("value of") and b.startswith("value of")


def _free_names(e: s.Expr, bound: frozenset[str] = frozenset()) -> Iterator[s.Name]:
    """The names an expression reads that none of its own binders binds."""
    match e:
        case s.Name(id=name):
            if name not in bound:
                yield e
        case s.Quantifier(var=var, collection=coll, body=body) | s.EachArg(var=var, collection=coll, body=body):
            yield from _free_names(coll, bound)
            yield from _free_names(body, bound | {var.text})
        case _:
            for x in s.children(e):
                yield from _free_names(x, bound)


def _calls(e: s.Expr) -> Iterator[s.Call]:
    """Every call in an expression."""
    return (x for x in s.walk(e) if isinstance(x, s.Call))


def _substitute(e, args: dict, depth: int):
    """`e` with each free name in `args` replaced by its argument, and each variable that `e`
    binds renamed apart (a `~` cannot be written, so no argument can name it)."""
    match e:
        case s.Name(id=name):
            return args.get(name, e)
        case s.Quantifier(var=var, collection=coll, body=body) | s.EachArg(var=var, collection=coll, body=body):
            fresh = s.Ident(f"{var.text}~{depth}", var.span)
            inner = {**args, var.text: s.Name(fresh.text, var.span)}
            return replace(e, var=fresh, collection=_substitute(coll, args, depth),
                           body=_substitute(body, inner, depth))
        case s.Call(args=call_args):
            return replace(e, args=tuple(_substitute(a, args, depth) for a in call_args))
        case s.Attr(obj=obj):
            return replace(e, obj=_substitute(obj, args, depth))
        case s.ZoneOf(seat=seat):
            return replace(e, seat=_substitute(seat, args, depth))
        case s.Binary(left=left, right=right):
            return replace(e, left=_substitute(left, args, depth), right=_substitute(right, args, depth))
        case s.Unary(operand=x):
            return replace(e, operand=_substitute(x, args, depth))
        case s.If(cond=c, then=a, otherwise=b):
            return replace(e, cond=_substitute(c, args, depth), then=_substitute(a, args, depth),
                           otherwise=_substitute(b, args, depth))
        case s.Number():
            return e
    raise unknown(_substitute, e)


def _provenance(provs: tuple[s.Prov, ...], span: Span) -> m.Provenance:
    return m.Provenance(
        tuple(p.text for p in provs if p.kind == "source"),
        tuple(p.text for p in provs if p.kind == "ruling"),
        tuple(p.text for p in provs if p.kind == "assumed"),
        span.line, span.column)


@dataclass
class _Names:
    """What the first pass finds: every definition by name, with where it was defined."""

    params: dict[str, m.Param] = field(default_factory=dict)
    attributes: dict[str, m.Attribute] = field(default_factory=dict)
    enum_values: dict[str, list[str]] = field(default_factory=dict)  # value -> attributes
    zones: dict[str, m.Zone] = field(default_factory=dict)
    plays: dict[str, s.Play] = field(default_factory=dict)
    values: dict[str, m.Value] = field(default_factory=dict)  # the named values, per match first
    documents: dict[str, m.Document] = field(default_factory=dict)
    spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)  # attributes defined with an error already reported
    partial: set[str] = field(default_factory=set)  # enum attributes with a value refused (reported)
    marks: dict[str, Span] = field(default_factory=dict)  # mark -> where first set
    used: set[tuple[str, str]] = field(default_factory=set)


@dataclass
class _PlayParts:
    """What the items of one play have said so far, and the names its expressions see."""

    name: str
    chooser: dict[str, str]  # what a `choose` item's condition sees
    target: dict[str, str]  # what the play's conditions and effects see
    pile_scope: dict[str, str]  # the same, with the pile the card goes onto
    card: tuple[str, object | None, m.Provenance] | None = None  # (zone, where, provenance)
    to: tuple[m.Zone | None, str, m.Provenance] | None = None  # (zone, seats, provenance)
    new_pile: m.Condition | None = None
    onto: m.Condition | None = None
    choose: m.Choose | None = None
    mate: m.Mate | None = None
    dest_seat: object | None = None
    value: m.Choose | None = None
    meld: m.Meld | None = None
    effects: list[object] = field(default_factory=list)
    seen: dict[str, s.Clause] = field(default_factory=dict)  # item kind -> the item

    def name_(self, names: dict[str, str]) -> None:
        """Names a later condition or effect of the play may read."""
        self.target, self.pile_scope = {**self.target, **names}, {**self.pile_scope, **names}


@dataclass(frozen=True)
class _EffectScope:
    """Where an effect stands: the names it sees (`seat_scope` for `next turn to`), its provenance."""

    scope: dict[str, str]
    seat_scope: dict[str, str]
    prov: m.Provenance
    in_turn: bool  # a turn step, not a play's `then`


class Checker:
    def __init__(self, clauses: list[s.Clause], sink: Sink):
        self.clauses = clauses
        self.sink = sink
        self.names = _Names()
        self.defines: dict[str, s.Define] = {}
        self._expanding: list[str] = []  # the defines being filled in, outermost first
        self._recursive: set[str] = set()  # defines that call themselves: reported, never filled in
        self._declared: dict[str, m.Define] = {}  # each called define, typed as declared
        self._own_only: dict[str, bool] = {}  # define -> whether it reads only its parameters and the ruleset's names

    # ---------------------------------------------------------------- entry

    def run(self) -> m.Ruleset | None:
        singles = self._singletons()
        self.teams_clause = singles.get("teams")
        self._definitions()
        self._defines_sound()
        self._values(singles.get("match"), singles.get("setup"))
        header = self._game(singles.get("game"))
        players = self._players(singles.get("players"))
        kinds, deck = self._cards()
        plays = {name: self._play(c) for name, c in self.names.plays.items()}
        setup = self._setup(singles.get("setup"))
        cleanup = self._cleanup(singles.get("cleanup"))
        turn = self._turn(singles.get("turn"))
        window = self._window(singles.get("window"))
        round_ends = self._round_ends()
        final = self._final()
        score = self._score(singles.get("score"))
        match = self._match(singles.get("match"))
        deck_rules = self._deck_rules()
        sets = self._sets(singles.get("decks"))
        display = self._display(singles.get("display"))
        teams = self._teams(self.teams_clause, players)
        if not deck_rules and sets[0] == 1:  # else the deck in play depends on the count: compile tells
            self._deck_deals(players, deck, setup)
        self._provenance_documents()
        self._unused()
        if self.sink.errors or None in (header, players, score, match):
            return None
        return m.Ruleset(
            file=self.sink.file, title=header[0], names=header[1], documents=tuple(self.names.documents.values()),
            players=players[0], players_provenance=players[1], params=tuple(self.names.params.values()),
            attributes=tuple(self.names.attributes.values()), kinds=kinds, deck=deck,
            zones=tuple(self.names.zones.values()), setup=setup, cleanup=cleanup, plays=tuple(plays.values()),
            turn=turn, window=window, round_ends=round_ends, final=final, score=score, match=match,
            player_counts=players[2], deck_rules=deck_rules, sets=sets[0], sets_provenance=sets[1],
            marks=tuple(self.names.marks), display=display,
            display_provenance=_provenance(singles["display"].provs, singles["display"].span)
            if "display" in singles else m.NO_PROVENANCE,
            defines=tuple(self._declared[n] for n in self.defines if n in self._declared), teams=teams,
            values=tuple(self.names.values.values()))

    # ---------------------------------------------------------------- first pass

    def _singletons(self) -> dict[str, s.Clause]:
        seen: dict[str, s.Clause] = {}
        if not self.clauses:  # one message, not one per missing clause
            self.sink.error("the file holds no rules: it is empty or only comments", Span.point(1, 1),
                            'start with game "NAME" { }; a ruleset needs players, card, zone, setup, play, '
                            'turn, end round, score and match')
            return seen
        for c in self.clauses:
            if c.kind in ("game", "players", "setup", "cleanup", "turn", "window", "score", "match", "decks", "teams",
                          "display"):
                if c.kind in seen:
                    self.sink.error(f"a second '{c.kind}' clause", c.span,
                                    f"a ruleset has one; the first is at line {seen[c.kind].span.line}")
                else:
                    seen[c.kind] = c
        last = self.clauses[-1].span if self.clauses else Span.point(1, 1)
        end = Span.point(last.end_line, max(1, last.end_column - 1))
        for kind, example in (("game", 'game "My game" { }'), ("players", "players 2..4"),
                              ("setup", "setup { shuffle deck into draw }"), ("turn",
                                                                              "turn { play one of put or pass }"),
                              ("score", "score s = count(hand of s)"), ("match", "match { until round >= 1 }")):
            if kind not in seen:
                self.sink.error(f"the ruleset has no '{kind}' clause", end, f"add one, e.g. {example}")
        if not any(isinstance(c, s.Card) for c in self.clauses):
            self.sink.error("the ruleset defines no card", end, "add one, e.g. card token { copies 10 }")
        if not any(isinstance(c, (s.RoundEnd, s.Final)) for c in self.clauses):
            self.sink.error("the ruleset has no 'end round' clause: a round would never end", end,
                            "add one, e.g. end round empty when count(draw) == 0")
        return seen

    def _define(self, space: str, ident: s.Ident) -> bool:
        key = (space, ident.text)
        if key in self.names.spans:
            first = self.names.spans[key]
            self.sink.error(f"{space} '{ident.text}' is defined twice", ident.span,
                            f"the first definition is at line {first.line}; rename or remove one")
            return False
        if _in_expressions(space):
            if ident.text in CONTEXT_NAMES:
                self.sink.error(f"'{ident.text}' is a name the language gives to expressions", ident.span,
                                f"pick another name for this {space}")
                return False
            other = next(((sp, name) for sp, name in self.names.spans
                          if name == ident.text and _in_expressions(sp) and not _both_values(sp, space)), None)
            if other is not None:
                self.sink.error(f"'{ident.text}' already names a {other[0]} (line {self.names.spans[other].line})",
                                ident.span, "a name in expressions must name one thing: rename one of them")
                return False
        self.names.spans[key] = ident.span
        return True

    def _definitions(self) -> None:
        for c in self.clauses:
            visit(self, "_definition_", c)(c, _provenance(c.provs, c.span))

    def _definition_Clause(self, c: s.Clause, prov: m.Provenance) -> None:
        """Most clauses define no name."""

    def _definition_Param(self, c: s.Param, prov: m.Provenance) -> None:
        name, default, low, high = c.name, c.default, c.low, c.high
        if self._range(low, high) and not low.value <= default.value <= high.value:
            self.sink.error(f"the default {default.value} of '{name.text}' is outside {low.value}..{high.value}",
                            default.span, "make the default one of the allowed values")
        if self._define("param", name):
            self.names.params[name.text] = m.Param(name.text, default.value, low.value, high.value, prov)

    def _definition_EnumAttribute(self, c: s.EnumAttribute, prov: m.Provenance) -> None:
        n, name = self.names, c.name
        if self._define("attribute", name):
            vals = []
            for value in c.values:
                if self._define(f"value of {name.text}", value.name):
                    vals.append(m.AttributeValue(value.name.text, value.labels))
                    n.enum_values.setdefault(value.name.text, []).append(name.text)
                else:
                    n.partial.add(name.text)
            n.attributes[name.text] = m.Attribute(name.text, tuple(vals), 0, len(vals) - 1, prov)

    def _definition_IntAttribute(self, c: s.IntAttribute, prov: m.Provenance) -> None:
        name, low, high = c.name, c.low, c.high
        ok = self._range(low, high)
        if ok and high.value - low.value + 1 > MAX_ATTRIBUTE_VALUES:
            self.sink.error(f"'{name.text}' spans {high.value - low.value + 1:,} values", c.span,
                            f"an attribute has at most {MAX_ATTRIBUTE_VALUES:,} values")
            ok = False
        if self._define("attribute", name):  # a bad range still defines it (with one value), so
            self.names.attributes[name.text] = m.Attribute(  # its uses do not cascade into more errors
                name.text, (), low.value, high.value if ok else low.value, prov)
            if not ok:
                self.names.broken.add(name.text)

    def _definition_Zone(self, c: s.Zone, prov: m.Provenance) -> None:
        if self._define("zone", c.name):
            self.names.zones[c.name.text] = m.Zone(c.name.text, c.scope == "per_seat", c.visibility,
                                                   c.layout == "piles", prov)

    def _definition_Play(self, c: s.Play, prov: m.Provenance) -> None:
        if self._define("play", c.name):
            self.names.plays[c.name.text] = c

    def _definition_Define(self, c: s.Define, prov: m.Provenance) -> None:
        if c.name.text in FUNCTIONS:
            self.sink.error(f"'{c.name.text}' is a function of the language", c.name.span, "pick another name")
        elif self._define("define", c.name):
            self.defines[c.name.text] = c

    def _definition_Game(self, c: s.Game, prov: m.Provenance) -> None:
        for item in c.items:
            if isinstance(item, s.Document) and self._define("document", item.id):
                self.names.documents[item.id.text] = m.Document(item.id.text, item.title,
                                                                _provenance(item.provs, item.span))

    def _values(self, match: s.Clause | None, setup: s.Clause | None) -> None:
        """The named values: the match's `let`s, set once when it starts, then setup's, set
        every round where setup reaches them. Each is typed by its expression, which may read
        the values declared before it."""
        lets = [(item, True) for item in (match.items if match else ()) if isinstance(item, s.Let)]
        lets += [(item, False) for item in (setup.items if setup else ()) if isinstance(item, s.Let)]
        for item, per_match in lets:
            ident, expr = item.name, item.value
            typed = self._expr(expr, GLOBAL if per_match else LET_ROUND)
            if typed is not None and typed.type not in VALUE_TYPES and not typed.type.startswith("enum:"):
                holds = _show(typed.type)
                self.sink.error(f"a value holds a number, a truth value, a seat, a card or an enum value, not {holds}",
                                expr.span, "e.g. let trump = top(stock).suit")
                typed = None
            if self._define("value", ident) and typed is not None:
                self.names.values[ident.text] = m.Value(ident.text, typed.type, typed, per_match,
                                                        _provenance(item.provs, item.span))

    def _range(self, low: s.Number, high: s.Number) -> bool:
        if low.value > high.value:
            self.sink.error(f"the range {low.value}..{high.value} is empty", low.span,
                            "write the smaller number first")
            return False
        return True

    # ---------------------------------------------------------------- header

    def _game(self, c: s.Game | None):
        if c is None:
            return None
        names = []
        for item in c.items:
            if isinstance(item, s.Label):
                lang, text = item.language, item.text
                if any(lang.text == known for known, _ in names):
                    self.sink.error(f"a second name in '{lang.text}'", lang.span, "give each language one name")
                names.append((lang.text, text))
        if not c.title.strip():
            self.sink.error("the game has an empty title", c.span, 'write its title: game "Crazy Eights" { }')
        return c.title, tuple(names)

    def _players(self, c: s.Players | None):
        if c is None:
            return None
        low, high, listed = c.low, c.high, c.counts
        if listed is not None:
            counts = [n.value for n in listed]
            if counts != sorted(set(counts)):
                self.sink.error("the player counts are not listed from the fewest up, each once", c.span,
                                "e.g. players 4, 6, 8")
                return None
        elif not self._range(low, high):
            return None
        if low.value < 1 or high.value > MAX_PLAYERS:
            self.sink.error(f"players {low.value}..{high.value} is outside 1..{MAX_PLAYERS}", c.span,
                            f"a game has 1 to {MAX_PLAYERS} players")
            return None
        counts = tuple(n.value for n in listed) if listed is not None else ()
        return (low.value, high.value), _provenance(c.provs, c.span), counts

    # ---------------------------------------------------------------- cards

    def _cards(self):
        kinds, deck, faces = [], [], {}
        size, too_big = 0, None  # too_big: the card clause that takes the deck past MAX_DECK
        for c in self.clauses:
            if not isinstance(c, s.Card) or not self._define("card", c.name):
                continue
            kind = self._card(c)
            if kind is None:
                continue
            kinds.append(kind)
            clashes = []
            for card in self._faces(kind, c):  # a face in any language names one card in every move
                spellings = {card.face.lower(), *(text.lower() for _, text in card.names)}
                clash = next((f for f in spellings if f in faces), None)
                if clash is not None:
                    clashes.append(clash)
                    continue
                faces.update(dict.fromkeys(spellings, kind.name))
                deck.append(card)
                size += card.copies
            if clashes:  # one error per kind, not one per face
                more = f", and {len(clashes) - 1} more of its faces clash" if len(clashes) > 1 else ""
                self.sink.error(f"two cards have the face '{clashes[0]}'{more}", c.span,
                                f"the other is of kind '{faces[clashes[0].lower()]}'; give the kinds "
                                "face templates that tell them apart")
            if size > MAX_DECK and too_big is None:  # told at the card, or at house rules' copies of it
                too_big = next((i.span for i in c.items if isinstance(i, s.Copies) and i.span.file), c.span)
        if too_big is not None:
            self.sink.error(f"the deck holds {size:,} cards", too_big, f"a deck holds at most {MAX_DECK:,}")
        return tuple(kinds), tuple(deck)

    def _card(self, c: s.Card) -> m.CardKind | None:
        name = c.name.text
        attrs: dict[str, str | int | None] = {}
        copies, copies_prov, face, labels, ok = 1, m.NO_PROVENANCE, None, [], True
        faces, marks = [], []
        for item in c.items:
            if isinstance(item, (s.Each, s.Fixed)):
                attr = item.attribute
                if attr.text not in self.names.attributes:
                    self.sink.error(f"no attribute '{attr.text}'", attr.span,
                                    near(attr.text, self.names.attributes) or "define it: attribute NAME in 1..10")
                    ok = False
                    continue
                self.names.used.add(("attribute", attr.text))
                ok = ok and attr.text not in self.names.broken
                if attr.text in attrs:
                    self.sink.error(f"'{attr.text}' is set twice in card '{name}'", attr.span, "set it once")
                    continue
                attrs[attr.text] = None if isinstance(item, s.Each) else self._fixed(attr.text, item.value)
                ok = ok and (isinstance(item, s.Each) or attrs[attr.text] is not None)
            elif isinstance(item, s.Copies):
                copies, copies_prov = item.count.value, _provenance(item.provs, item.span)
                if not 1 <= copies <= MAX_COPIES:
                    self.sink.error(f"{copies} copies", item.count.span, f"a card has 1 to {MAX_COPIES} copies")
                    ok = False
            elif isinstance(item, s.Face):
                template, lang = item.template, item.language
                if lang is not None:
                    if any(lang.text == known for known, _ in faces):
                        self.sink.error(f"a second face in '{lang.text}'", lang.span, "give each language one face")
                    faces.append((lang.text, template))
                else:
                    face = template
                for hole in re.findall(r"{([^}]*)}", template):
                    if hole not in [a for a in attrs] + [i.attribute.text for i in c.items
                                                         if isinstance(i, (s.Each, s.Fixed))]:
                        self.sink.error(f"the face template names '{hole}', which card '{name}' does not set",
                                        item.span, "use {ATTRIBUTE} for an attribute the card sets")
                        ok = False
                if not template.strip() or re.search(r"[\s@/+]", re.sub(r"{[^}]*}", "x", template)):
                    self.sink.error(f"the face {template!r} has a space, '@', '/' or '+'", item.span,
                                    "faces are typed in moves: use letters, digits, - or _")
                    ok = False
            elif isinstance(item, s.Label):
                labels.append((item.language.text, item.text))
            elif isinstance(item, s.Mark):
                mark = self._mark(item)
                ok = ok and mark is not None
                marks.append(mark)
            else:
                raise unknown(self, item)
        if face is None:
            face = name + "".join(f"-{{{a}}}" for a, v in attrs.items() if v is None)
        if not ok:
            return None
        return m.CardKind(name, tuple(labels), tuple(attrs.items()), copies, face,
                          _provenance(c.provs, c.span), copies_prov, tuple(marks), tuple(faces))

    def _mark(self, item: s.Mark) -> m.Mark | None:
        ident, count, where = item.name, item.count, item.where
        if ident.text in self.names.attributes or ident.text in CONTEXT_NAMES:
            self.sink.error(f"'{ident.text}' already names an attribute or a name of the language", ident.span,
                            "name the mark otherwise")
            return None
        self.names.marks.setdefault(ident.text, ident.span)
        keep = self._bool(where, FACE) if where is not None else None
        if where is not None and keep is None:
            return None
        return m.Mark(ident.text, count.value if count is not None else None, keep,
                      _provenance(item.provs, item.span))

    def _fixed(self, attr: str, value) -> str | int | None:
        a = self.names.attributes[attr]
        if a.is_enum:
            if isinstance(value, s.Ident) and value.text in [v.name for v in a.values]:
                return value.text
            self.sink.error(f"'{getattr(value, 'text', getattr(value, 'value', value))}' is not a value of '{attr}'",
                            value.span, "one of: " + ", ".join(v.name for v in a.values))
            return None
        if isinstance(value, s.Number) and a.low <= value.value <= a.high:
            return value.value
        self.sink.error(f"'{attr}' takes a number in {a.low}..{a.high}", value.span, "write a number in that range")
        return None

    def _faces(self, kind: m.CardKind, c: s.Card) -> list[m.Card]:
        axes = []
        for attr, fixed in kind.attributes:
            a = self.names.attributes[attr]
            if fixed is not None:
                axes.append([(attr, fixed)])
            elif a.is_enum:
                axes.append([(attr, v.name) for v in a.values])
            else:
                axes.append([(attr, v) for v in range(a.low, a.high + 1)])
        if sum(1 for _ in itertools.islice(itertools.product(*axes), MAX_DECK + 1)) > MAX_DECK:
            self.sink.error(f"card '{kind.name}' has more than {MAX_DECK:,} faces", c.span, "narrow its attributes")
            return []
        cards = []
        for combo in itertools.product(*axes):
            values = dict(combo)
            cards.append(m.Card(self._fill(kind.face, values), kind.name, tuple(combo), kind.copies,
                                tuple((lang, self._fill(t, values, lang)) for lang, t in kind.faces)))
        unseen = next(((face, ch) for card in cards for face in (card.face, *(t for _, t in card.names))
                       for ch in face if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")), None)
        if unseen is not None:  # one error per kind: its faces would look like others and could not be typed
            face, ch = unseen
            where = next((i.span for i in c.items if isinstance(i, s.Face)), c.span)
            self.sink.error(f"the face '{face.encode('unicode_escape').decode()}' holds the invisible character "
                            f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character').lower()})", where,
                            "faces are typed in moves: use letters, digits, - or _")
            return []
        return cards

    def _fill(self, template: str, values: dict, lang: str | None = None) -> str:
        return fill(template, values, self.names.attributes, lang)

    # ---------------------------------------------------------------- zones used by clauses

    def _zone(self, ident: s.Ident, *, per_seat: bool | None = None, piles: bool | None = None) -> m.Zone | None:
        zone = self.names.zones.get(ident.text)
        if zone is None:
            self.sink.error(f"no zone '{ident.text}'", ident.span,
                            near(ident.text, self.names.zones) or "define it: zone NAME shared hidden")
            return None
        self.names.used.add(("zone", ident.text))
        if per_seat is not None and zone.per_seat != per_seat:
            self.sink.error(f"zone '{zone.name}' is {'per seat' if zone.per_seat else 'shared'}", ident.span,
                            f"this needs a {'per seat' if per_seat else 'shared'} zone")
            return None
        if piles is not None and zone.piles != piles:
            self.sink.error(f"zone '{zone.name}' {'holds piles' if zone.piles else 'holds cards, not piles'}",
                            ident.span, "this needs a zone declared with `piles`" if piles
                            else "this needs a zone of cards (declared without `piles`)")
            return None
        return zone

    # ---------------------------------------------------------------- procedure

    def _setup(self, c: s.Setup | None) -> tuple[object, ...]:
        steps: list[object] = []
        for item in c.items if c else ():
            visit(self, "_setup_", item)(item, steps, _provenance(item.provs, item.span))
        if c and not any(isinstance(step, m.Shuffle) for step in steps):
            self.sink.error("setup never puts the deck anywhere", c.span, "start it with: shuffle deck into ZONE")
        return tuple(steps)

    def _setup_Shuffle(self, item: s.Shuffle, steps: list[object], prov: m.Provenance) -> None:
        if any(isinstance(step, m.Shuffle) for step in steps):
            self.sink.error("setup shuffles the deck a second time: that would put every card in play twice",
                            item.span, "shuffle the deck once, then deal or move cards from that zone")
            return
        zone = self._zone(item.zone, per_seat=False, piles=False)
        steps.append(m.Shuffle(zone.name if zone else "", prov))

    def _setup_Let(self, item: s.Let, steps: list[object], prov: m.Provenance) -> None:
        if item.name.text in self.names.values:  # typed with the others (`_values`)
            steps.append(m.Let(item.name.text, prov))

    def _setup_Deal(self, item: s.Deal | s.Move, steps: list[object], prov: m.Provenance) -> None:
        amount, source, dest, where = item.count, item.source, item.dest, item.where
        deal = isinstance(item, s.Deal)
        count = None if amount is None else self._int(amount, SETUP)
        if count is not None and not m.reads_only(count, {"players"}):
            self.sink.error("a setup count reads the table, which is not laid out yet", amount.span,
                            "make it of numbers, params and players, e.g. if players == 2 then 7 else 5")
            return
        # a move from a per-seat zone moves every seat's cards, each to its own zone if
        # that is per seat too, with `self` the seat whose cards move
        mine = not deal and self.names.zones.get(source.text) is not None \
            and self.names.zones[source.text].per_seat
        scope = {**SETUP_FILTER, "self": "seat"} if deal or mine else SETUP_FILTER
        keep = None if where is None else self._bool(where, scope)
        src = self._zone(source, per_seat=None if mine else False, piles=False)
        dst = self._zone(dest, per_seat=True if deal else None if mine else False, piles=False)
        if (count is not None or amount is None) and (keep is not None or where is None) and src and dst:
            make = m.Deal if deal else m.Transfer
            steps.append(make(count, src.name, dst.name, keep, prov))

    _setup_Move = _setup_Deal

    def _cleanup(self, c: s.Cleanup | None) -> tuple[m.Transfer, ...]:
        """`move` steps run when a round has ended: from a shared zone, or from every seat's."""
        steps = []
        for item in c.items if c else ():
            if not isinstance(item, s.Move):
                self.sink.error(f"cleanup only moves cards; a {item.kind} belongs in setup", item.span,
                                "write move COUNT from ZONE to ZONE")
                continue
            amount, source, dest, where = item.count, item.source, item.dest, item.where
            count = None if amount is None else self._int(amount, SETUP)
            if count is not None and not m.reads_only(count, {"players"}):
                self.sink.error("a cleanup count reads the table", amount.span,
                                "make it of numbers, params and players, or write all")
                continue
            src = self._zone(source, piles=False)
            dst = self._zone(dest, per_seat=False, piles=False)
            scope = {**SETUP_FILTER, "self": "seat"} if src and src.per_seat else SETUP_FILTER
            keep = None if where is None else self._bool(where, scope)
            if (count is not None or amount is None) and (keep is not None or where is None) and src and dst:
                steps.append(m.Transfer(count, src.name, dst.name, keep, _provenance(item.provs, item.span)))
        return tuple(steps)

    def _play(self, c: s.Play) -> m.Play | None:
        name = c.name.text
        p = _PlayParts(name, PLAY_CARD, PLAY_TARGET, {**PLAY_TARGET, "pile": "pile"})
        if any(isinstance(item, s.ChooseValue) for item in c.items):  # a play of no card: no card, no target
            p.chooser = p.target = p.pile_scope = PLAY_VALUE
        # where the card goes decides what `target` is, and a chosen target is named for the
        # effects, wherever the `to` and `choose` items stand
        for item in sorted(c.items, key=lambda i: _ITEM_ORDER.get(type(i), 4)):
            if item.kind in p.seen:
                self.sink.error(f"a second '{_ITEM_WORDS[item.kind]}' in play '{name}'", item.span,
                                f"the first is at line {p.seen[item.kind].span.line}; keep one")
                continue
            if not isinstance(item, s.Effect):
                p.seen[item.kind] = item
            visit(self, "_item_", item)(item, p, _provenance(item.provs, item.span))
        if p.value is not None or "choose_value" in p.seen:  # a play of no card: it chooses a value
            if p.value is None:
                return None
            return m.Play(name, "", None, p.value.provenance, "", "", m.NO_PROVENANCE, None, None, p.choose, None,
                          tuple(p.effects), _provenance(c.provs, c.span), None, p.value)
        if p.meld is not None or "meld" in p.seen:
            return self._meld_play(c, p)
        return self._card_play(c, p)

    def _card_play(self, c: s.Play, p: _PlayParts) -> m.Play | None:
        """A play of one card: it must say which card, and where it goes."""
        name, to = p.name, p.to
        if p.card is None:
            self.sink.error(f"play '{name}' does not say which card is played", c.span,
                            "add: card from hand, or choose value NAME of ATTRIBUTE")
        if to is None:
            self.sink.error(f"play '{name}' does not say where the card goes", c.span, "add: to row of any seat")
        elif to[0] is not None:
            if to[0].piles and p.new_pile is None and p.onto is None:
                self.sink.error(f"play '{name}' puts a card in zone '{to[0].name}' of piles but allows no placement",
                                c.span, "add `new pile` or `onto pile`, each with an optional `when` condition")
            if not to[0].piles and (p.new_pile or p.onto):
                self.sink.error(f"zone '{to[0].name}' holds cards, not piles", c.span,
                                "declare it with `piles`, or drop `new pile` and `onto pile`")
        if p.card is None or to is None or to[0] is None:
            return None
        return m.Play(name, p.card[0], p.card[1], p.card[2], to[0].name, to[1], to[2], p.new_pile, p.onto, p.choose,
                      p.mate, tuple(p.effects), _provenance(c.provs, c.span), p.dest_seat)

    # -- the items of a play, each adding to `p` what it says

    def _item_CardFrom(self, item: s.CardFrom, p: _PlayParts, prov: m.Provenance) -> None:
        zone = self._zone(item.zone, per_seat=True, piles=False)
        where = self._bool(item.where, PLAY_CARD) if item.where is not None else None
        p.card = (zone.name if zone else "", where, prov)

    def _item_To(self, item: s.To, p: _PlayParts, prov: m.Provenance) -> None:
        zone = self._zone(item.zone, per_seat=item.seats is not None)
        whose = item.seats
        if isinstance(whose, str) or whose is None:
            seats = {"any_seat": "any", "other_seat": "other", "self_seat": "self", None: ""}[whose]
        else:
            seats, p.dest_seat = "seat", self._expr(whose, PLAY_CARD)
            if p.dest_seat is not None and p.dest_seat.type != "seat":
                self.sink.error(f"'to {item.zone.text} of ...' needs a seat, not {_show(p.dest_seat.type)}",
                                whose.span, "write any seat, any other seat, self, or an expression of a seat")
                p.dest_seat = None
            if p.dest_seat is None:
                zone = None
        p.to = (zone, seats, prov)
        if zone is not None:
            target = {**PLAY_TARGET, "target": "zone:piles" if zone.piles else "zone"}
            if not zone.per_seat:
                del target["owner"]  # a shared zone has no owner
            p.target, p.pile_scope = target, {**target, "pile": "pile"}

    def _item_NewPile(self, item: s.NewPile, p: _PlayParts, prov: m.Provenance) -> None:
        p.new_pile = m.Condition(self._bool(item.when, p.target) if item.when is not None else None, prov)

    def _item_OntoPile(self, item: s.OntoPile, p: _PlayParts, prov: m.Provenance) -> None:
        p.onto = m.Condition(self._bool(item.when, p.pile_scope) if item.when is not None else None, prov)

    def _item_Merge(self, item: s.Merge, p: _PlayParts, prov: m.Provenance) -> None:
        if p.to is not None and p.to[0] is not None and not p.to[0].piles:
            self.sink.error(f"merge needs a zone of piles; '{p.to[0].name}' holds cards", item.span,
                            "declare the zone with `piles`, or drop the merge")
            return
        coll_t = self._expr(item.collection, p.pile_scope)
        if coll_t is not None and coll_t.type != "list:pile":
            self.sink.error(f"merge takes a list of piles, not {_show(coll_t.type)}", item.collection.span,
                            "write e.g. merge p in piles(target) where ...")
            coll_t = None
        where = item.where
        cond = self._bool(where, {**p.pile_scope, item.var.text: "pile"}) if where is not None else None
        if coll_t is not None:
            p.effects.append(m.Merge(item.var.text, coll_t, cond, prov))

    def _item_With(self, item: s.With, p: _PlayParts, prov: m.Provenance) -> None:
        ident, where = item.name, item.where
        zone = self._zone(item.zone, per_seat=True, piles=False)
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "name the card otherwise")
            return
        keep = self._bool(where, {**PLAY_CARD, ident.text: "card"}) if where is not None else None
        if zone is not None and (where is None or keep is not None):
            p.mate = m.Mate(ident.text, zone.name, keep, prov)
            p.name_({ident.text: "card"})

    def _item_Choose(self, item: s.Choose, p: _PlayParts, prov: m.Provenance) -> None:
        p.choose = self._choose(p.name, item, p.to, p.chooser)
        if p.choose is not None:
            p.name_({p.choose.name: p.choose.kind})

    def _item_Meld(self, item: s.Meld, p: _PlayParts, prov: m.Provenance) -> None:
        p.meld = self._meld(item, prov)
        if p.meld is not None:  # the play lays no one card: its names are the set's
            p.target = {**{k: v for k, v in p.target.items() if k != "card"}, p.meld.name: "list:card"}
            p.pile_scope = {**p.target, "pile": "pile"}

    def _item_ChooseValue(self, item: s.ChooseValue, p: _PlayParts, prov: m.Provenance) -> None:
        value = self._choose_value(p.name, item, p.to, p.card, p.chooser)
        if value is not None:
            p.name_({value[0]: value[1]})
            p.value = value[2]

    def _item_Effect(self, item: s.Effect, p: _PlayParts, prov: m.Provenance) -> None:
        scope = p.pile_scope if p.to and p.to[0] and p.to[0].piles else p.target
        effect = self._effect(item, scope, p.target, prov)
        if effect is not None:
            p.effects.append(effect)

    def _meld(self, item: s.Meld, prov: m.Provenance) -> m.Meld | None:
        """`meld NAME of LOW..HIGH from ZONE [where C]`: C reads the set as the list NAME."""
        ident, low, high, zone_ident, where = item.name, item.low, item.high, item.zone, item.where
        zone = self._zone(zone_ident, per_seat=True, piles=False)
        if not 1 <= low.value <= high.value:
            self.sink.error(f"a meld of {low.value}..{high.value} cards: it lays one card at least, and LOW <= HIGH",
                            low.span, "e.g. meld m of 3..4 from hand")
            return None
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "name the set otherwise")
            return None
        keep = self._bool(where, {**PLAY_VALUE, ident.text: "list:card"}) if where is not None else None
        if zone is None or (where is not None and keep is None):
            return None
        return m.Meld(ident.text, zone.name, low.value, high.value, keep, prov)

    def _meld_play(self, c: s.Play, p: _PlayParts) -> m.Play | None:
        """A play of a meld: its cards go together to a zone of cards, or start a new pile."""
        name, to, meld = p.name, p.to, p.meld
        if any(k in p.seen for k in ("card", "with", "choose", "choose_value")) or (p.choose or p.mate) is not None:
            self.sink.error(f"play '{name}' lays a meld: it takes no single card, second card or target", c.span,
                            "write the single card in a play of its own")
            return None
        if to is None:
            self.sink.error(f"play '{name}' does not say where the cards go", c.span, "add: to table")
            return None
        if (p.new_pile or p.onto) is not None:
            self.sink.error(f"play '{name}' lays a meld, which starts a pile of its own", c.span,
                            "drop `new pile` and `onto pile`: a meld into a zone of piles is a new pile")
            return None
        if meld is None or to[0] is None:
            return None
        return m.Play(name, meld.zone, None, meld.provenance, to[0].name, to[1], to[2], None, None, None, None,
                      tuple(p.effects), _provenance(c.provs, c.span), p.dest_seat, meld=meld)

    def _effect(self, item: s.Effect, scope: dict[str, str], seat_scope: dict[str, str], prov: m.Provenance, *,
                in_turn: bool = False) -> object | None:
        """One `then` effect of a play (or, `in_turn`, a turn step), typed in `scope`
        (`seat_scope` for `next turn to`); None when it does not check."""
        return visit(self, "_effect_", item)(item, _EffectScope(scope, seat_scope, prov, in_turn))

    def _effect_Guarded(self, item: s.Guarded, at: _EffectScope) -> object | None:
        effect = self._effect(item.effect, at.scope, at.seat_scope, at.prov, in_turn=at.in_turn)
        when = self._bool(item.when, at.scope)
        return None if effect is None or when is None else m.Guarded(effect, when, at.prov)

    def _effect_Merge(self, item: s.Merge, at: _EffectScope) -> None:
        """A merge stands in a play (`_item_Merge`), on its own: a turn step or a guard has no pile to merge onto."""
        self.sink.error("a merge gathers piles onto the pile a play's card went to: a turn step has none"
                        if at.in_turn else "a merge gathers every pile its `where` keeps: it takes no `when`",
                        item.span, "write the merge in the play" if at.in_turn else "fold the condition into its where")

    def _effect_MoveCards(self, item: s.MoveCards, at: _EffectScope) -> m.MoveCards | None:
        return self._move_cards(item, at.scope, at.prov)

    def _effect_MovePile(self, item: s.MovePile, at: _EffectScope) -> m.MovePile | None:
        pile, dest = self._expr(item.pile, at.scope), self._expr(item.dest, at.scope)
        if pile is not None and pile.type != "pile":
            self.sink.error(f"'move pile' moves a pile, not {_show(pile.type)}", item.pile.span,
                            "name a pile: e.g. one chosen with `choose pile NAME of ZONE of any other seat`")
        elif dest is not None and dest.type != "zone:piles":
            self.sink.error(f"a pile goes to a zone of piles, not {_show(dest.type)}", item.dest.span,
                            "e.g. move pile loot to row of self")
        elif pile is not None and dest is not None:
            return m.MovePile(pile, dest, at.prov)
        return None

    def _effect_Reverse(self, item: s.Reverse, at: _EffectScope) -> m.Reverse:
        return m.Reverse(at.prov)

    def _effect_EndTurn(self, item: s.EndTurn, at: _EffectScope) -> m.EndTurn:
        return m.EndTurn(at.prov)

    def _effect_SetValue(self, item: s.SetValue, at: _EffectScope) -> m.SetValue | None:
        ident, expr = item.name, item.value
        value = self.names.values.get(ident.text)
        if value is None:
            self.sink.error(f"no value '{ident.text}'", ident.span, near(ident.text, self.names.values) or
                            f"declare it in setup (each round) or match (once): let {ident.text} = ...")
            return None
        self.names.used.add(("value", ident.text))
        typed = self._expr(expr, at.scope)
        if typed is not None and typed.type != value.type:
            self.sink.error(f"value '{value.name}' holds {_show(value.type)}, not {_show(typed.type)}", expr.span,
                            f"set it to {_show(value.type)}")
            return None
        return None if typed is None else m.SetValue(value.name, typed, at.prov)

    def _effect_Swap(self, item: s.Swap, at: _EffectScope) -> m.Swap | None:
        seats = self._seats((item.seat, item.other), at.scope)
        if seats is None:
            return None
        zones = [self._zone(z, per_seat=True) for z in item.zones]
        return None if None in zones else m.Swap(tuple(z.name for z in zones), seats[0], seats[1], at.prov)

    def _effect_NoAnswer(self, item: s.NoAnswer, at: _EffectScope) -> m.NoAnswer | None:
        seats = self._seats((item.seat,), at.scope)
        return None if seats is None else m.NoAnswer(seats[0], at.prov)

    def _seats(self, exprs: tuple[s.Expr, ...], scope: dict[str, str]) -> list[object] | None:
        """Each expression typed as a seat, or None when one is not."""
        seats = [self._expr(e, scope) for e in exprs]
        for e, typed in zip(exprs, seats, strict=True):
            if typed is not None and typed.type != "seat":
                self.sink.error(f"this names {_show(typed.type)}, not a seat", e.span, "e.g. self, or a chosen seat")
        if any(x is None or x.type != "seat" for x in seats):
            return None
        return seats

    def _effect_PassZone(self, item: s.PassZone, at: _EffectScope) -> m.PassZone | None:
        zone = self._zone(item.zone, per_seat=True)
        return None if zone is None else m.PassZone(zone.name, at.prov)

    def _effect_NextTurn(self, item: s.NextTurn, at: _EffectScope) -> m.NextTurn | None:
        who = self._expr(item.seat, at.seat_scope)
        if who is not None and who.type != "seat":
            self.sink.error(f"'next turn to' takes a seat, not {_show(who.type)}", item.seat.span,
                            "e.g. next turn to self")
            return None
        return None if who is None else m.NextTurn(who, at.prov)

    def _choose_value(self, play: str, item: s.ChooseValue, to, card, scope):
        """`choose value NAME of ATTRIBUTE [where C]`: (name, its type, the Choose), or None."""
        ident, attr, where = item.name, item.attribute, item.where
        if card is not None or (to is not None and to[0] is not None):
            said = f"play '{play}' chooses a value and plays a card"
            self.sink.error(f"{said}: a play chooses a value instead of playing a card", item.span,
                            "take out `card from` and `to`, or the `choose value`")
            return None
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params \
                or ident.text in self.names.values:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "choose another name")
            return None
        attribute = self.names.attributes.get(attr.text)
        if attribute is None:
            self.sink.error(f"no attribute '{attr.text}'", attr.span, near(attr.text, self.names.attributes) or
                            "a value is chosen among an attribute's values, e.g. choose value r of rank")
            return None
        self.names.used.add(("attribute", attr.text))
        typ = "enum:" + attribute.name if attribute.is_enum else "int"
        keep = self._bool(where, {**scope, ident.text: typ}) if where is not None else None
        if where is not None and keep is None:
            return None
        return ident.text, typ, m.Choose("value", ident.text, attribute.name, "", keep,
                                         _provenance(item.provs, item.span))

    def _choose(self, play: str, item: s.Choose, to, scope) -> m.Choose | None:
        kind, ident, zone_ident, seats, where = item.what, item.name, item.zone, item.seats, item.where
        if not isinstance(seats, str):
            self.sink.error(f"a chosen {kind} is of any seat, any other seat or self", seats.span,
                            f"write e.g. choose {kind} {ident.text} of any other seat where ...")
            return None
        if to is not None and to[0] is not None and (to[0].per_seat or to[0].piles):
            self.sink.error(f"play '{play}' chooses a {kind} but puts its card in a seat's zone or a zone of piles",
                            item.span, "a play that chooses a target puts its card in a shared zone of cards, "
                            "e.g. to discard: the move's @SEAT names the chosen target")
            return None
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "choose another name")
            return None
        zone = None
        if kind == "pile":
            z = self._zone(zone_ident, per_seat=True, piles=True)
            if z is None:
                return None
            zone = z.name
        keep = self._bool(where, {**scope, ident.text: kind}) if where is not None else None
        if where is not None and keep is None:
            return None
        return m.Choose(kind, ident.text, zone, "other" if seats == "other_seat" else "any" if seats == "any_seat"
                        else "self", keep, _provenance(item.provs, item.span))

    def _move_cards(self, item: s.MoveCards, scope: dict[str, str], prov: m.Provenance) -> m.MoveCards | None:
        amount, random, var = item.count, item.random, item.var
        source, dest, where = item.source, item.dest, item.where
        count = None if amount is None else self._int(amount, scope)
        # the destination may read the card it receives: `to row of holder(x.colour)`
        src, dst = self._expr(source, scope), self._expr(dest, {**scope, var.text: "card"} if var else scope)
        if src is not None and src.type not in ("zone", "pile"):
            self.sink.error(f"cards are moved from a zone of cards or a pile, not {_show(src.type)}", source.span,
                            "e.g. move 1 from hand of chosen to hand of self")
            return None
        if dst is not None and dst.type not in ("zone", "zone:piles", "pile"):
            self.sink.error(f"cards are moved to a zone or a pile, not {_show(dst.type)}", dest.span,
                            "e.g. to discard, to row of self (each card a new pile there), or to pile (on top of it)")
            return None
        if where is not None and var is None:
            self.sink.error("a where-condition here needs a name for the card it tests", item.span,
                            "name it after the count: "
                            "move 2 x from hand of chosen to row of self where x.colour == ...")
            return None
        keep = self._bool(where, {**scope, var.text: "card"}) if where is not None else None
        if None in (src, dst) or (amount is not None and count is None) or (where is not None and keep is None):
            return None
        return m.MoveCards(count, random, var.text if var else None, src, dst, keep, prov)

    def _turn(self, c: s.Turn | s.Final | None, what: str = "turn") -> tuple[object, ...]:
        steps: list[object] = []
        for item in c.items if c else ():
            visit(self, "_step_", item)(item, steps, _provenance(item.provs, item.span))
        if c and not any(isinstance(step, m.PlayStep) for step in steps):
            self.sink.error(f"the {what} has no play step: nothing would ever happen", c.span,
                            "add: play one of NAME or pass")
        return tuple(steps)

    def _step_PlayStep(self, item: s.PlayStep, steps: list[object], prov: m.Provenance) -> None:
        plays = tuple(self._step_plays(item.plays))
        when = self._bool(item.when, TURN_STEP) if item.when is not None else None
        steps.append(m.PlayStep(plays, item.or_pass, when, prov, item.optional, item.repeat))

    def _step_Draw(self, item: s.Draw, steps: list[object], prov: m.Provenance) -> None:
        count = self._int(item.count, TURN_STEP)
        when = self._bool(item.when, TURN_STEP) if item.when is not None else None
        src = self._zone(item.source, per_seat=False, piles=False)
        dst = self._zone(item.dest, per_seat=True, piles=False)
        if count is not None and src and dst:
            steps.append(m.Draw(count, src.name, dst.name, when, prov))

    def _step_Effect(self, item: s.Effect, steps: list[object], prov: m.Provenance) -> None:
        """`then EFFECT [when COND]`: an effect as a step of its own, its guard the step's."""
        inner, guard = (item.effect, item.when) if isinstance(item, s.Guarded) else (item, None)
        when = self._bool(guard, TURN_STEP) if guard is not None else None
        effect = self._effect(inner, TURN_STEP, TURN_STEP, prov, in_turn=True)
        if effect is not None and (guard is None or when is not None):
            steps.append(m.EffectStep(effect, when, prov))

    def _final(self) -> m.FinalRound | None:
        finals = [c for c in self.clauses if isinstance(c, s.Final)]
        for extra in finals[1:]:
            self.sink.error("a second 'final round'", extra.span, f"the first is at line {finals[0].span.line}")
        if not finals:
            return None
        c = finals[0]
        name, cond, seat_order = c.name, c.when, c.seat_order
        if not self._define("round end", name):
            return None
        when = self._bool(cond, GLOBAL)
        steps = self._turn(c, "final round")
        return None if when is None else m.FinalRound(name.text, when, steps, _provenance(c.provs, c.span), seat_order)

    def _window(self, c: s.Window | None) -> m.Window | None:
        if c is None:
            return None
        plays, when, opens = (), None, False
        for item in c.items:
            if isinstance(item, s.WindowPlays):
                plays += tuple(self._step_plays(item.plays))
            elif isinstance(item, s.WindowOpen):
                opens = True
            elif isinstance(item, s.WindowWhen):
                when = self._bool(item.when, TURN_STEP)
            else:
                raise unknown(self, item)
        if not plays:
            self.sink.error("the window offers no play", c.span, "add: play any of NAME, NAME")
        if not opens:
            self.sink.error("the window does not say when it opens", c.span, "add: open after every step")
        return m.Window(plays, when, _provenance(c.provs, c.span))

    def _step_plays(self, names) -> list[str]:
        """The plays a turn step or a window offers: each must exist, and is then used."""
        for ident in names:
            if ident.text not in self.names.plays:
                self.sink.error(f"no play '{ident.text}'", ident.span,
                                near(ident.text, self.names.plays) or "define it: play NAME { ... }")
            self.names.used.add(("play", ident.text))
        return [ident.text for ident in names]

    def _round_ends(self):
        ends = []
        for c in self.clauses:
            if isinstance(c, s.RoundEnd) and self._define("round end", c.name):
                cond = self._bool(c.when, GLOBAL)
                if cond is not None:
                    ends.append(m.RoundEnd(c.name.text, cond, _provenance(c.provs, c.span)))
        return tuple(ends)

    def _score(self, c: s.Score | None):
        if c is None:
            return None
        var, expr = c.seat, c.value
        typed = self._int(expr, {**GLOBAL, var.text: "seat"})
        return m.Score(var.text, typed, _provenance(c.provs, c.span)) if typed is not None else None

    def _match(self, c: s.Match | None):
        if c is None:
            return None
        until = winner = starter = None
        seen: dict[str, s.Clause] = {}
        for item in c.items:
            prov = _provenance(item.provs, item.span)
            if item.kind in seen and not isinstance(item, s.Let):
                self.sink.error(f"a second '{item.kind}' in the match", item.span,
                                f"the first is at line {seen[item.kind].span.line}; keep one")
                continue
            seen[item.kind] = item
            if isinstance(item, s.Until):
                until = (self._bool(item.when, MATCH_UNTIL), prov)
            elif isinstance(item, s.Winner):
                winner = (item.which, prov)
            elif isinstance(item, s.Let):
                continue  # a value of the match, typed with the others (`_values`)
            elif isinstance(item, s.Starter):
                typed = self._expr(item.seat, MATCH_STARTER)
                if typed is not None and typed.type not in ("int", "seat"):
                    self.sink.error(f"the starter is {_show(typed.type)}, not a seat number", item.seat.span,
                                    "write e.g. starter round % players")
                    typed = None
                starter = (typed, prov)
            else:
                raise unknown(self, item)
        if until is None:
            self.sink.error("the match never ends: it has no 'until'", c.span, "add e.g. until max(totals) >= 100")
            return None
        if until[0] is None:
            return None
        winner = winner or ("highest", m.NO_PROVENANCE)
        starter = starter or (m.Op("%", m.Ref("round", "int"), m.Ref("players", "int"), "int"), m.NO_PROVENANCE)
        if starter[0] is None:
            return None
        return m.Match(until[0], until[1], winner[0], winner[1], starter[0], starter[1])

    def _deck_rules(self) -> tuple[m.DeckRule, ...]:
        rules = []
        for c in self.clauses:
            if isinstance(c, s.DeckRule) and self._define("deck rule", c.name):
                keep = self._bool(c.when, DECK)
                if keep is not None:
                    rules.append(m.DeckRule(c.name.text, keep, _provenance(c.provs, c.span)))
        return tuple(rules)

    def _sets(self, c: s.Decks | None) -> tuple[int, m.Provenance]:
        if c is None:
            return 1, m.NO_PROVENANCE
        count = c.count
        if not 1 <= count.value <= 10:
            self.sink.error(f"decks {count.value}", count.span, "a game uses 1 to 10 sets of its cards")
            return 1, m.NO_PROVENANCE
        return count.value, _provenance(c.provs, c.span)

    def _teams(self, c: s.Teams | None, players) -> m.Teams | None:
        """Every seat on one team at every player count, and two teams at least."""
        if c is None or players is None:
            return None
        kind, listed = c.how, c.teams
        counts = players[2] or tuple(range(players[0][0], players[0][1] + 1))
        if kind == "opposite":
            odd = [n for n in counts if n % 2 or n < 4]
            if odd:
                self.sink.error(f"teams opposite needs an even number of players, 4 or more; players allows {odd[0]}",
                                c.span,
                                "allow even counts only, e.g. players 4, 6, 8, or list the teams: teams 0+2, 1+3")
                return None
            return m.Teams("opposite", (), _provenance(c.provs, c.span))
        seats = [n for team in listed for n in team]
        numbers = sorted(n.value for n in seats)
        twice = next((n for n in seats if numbers.count(n.value) > 1), None)
        if twice is not None:
            self.sink.error(f"seat {twice.value} is on two teams", twice.span,
                            "name every seat from 0 up once, e.g. teams 0+2, 1+3")
            return None
        missing = next((k for k in range(len(numbers)) if k not in numbers), None)
        if missing is not None:
            self.sink.error(f"the teams leave out seat {missing}", c.span,
                            "name every seat from 0 up once, e.g. teams 0+2, 1+3")
            return None
        if len(listed) < 2:
            self.sink.error("one team: nobody plays against it", c.span, "name two teams at least, e.g. teams 0+2, 1+3")
            return None
        wrong = [n for n in counts if n != len(numbers)]
        if wrong:
            self.sink.error(f"the teams seat {len(numbers)} players, but players allows {wrong[0]}", c.span,
                            f"write players {len(numbers)}, or teams opposite for any even count")
            return None
        return m.Teams("listed", tuple(tuple(n.value for n in team) for team in listed), _provenance(c.provs, c.span))

    def _display(self, c: s.Display | None) -> tuple[m.Look, ...]:
        """Each item names a value of an attribute, once, and a colour the terminal knows or a
        symbol one can read."""
        looks, seen = [], {}
        for item in c.items if c else ():
            attr, value, colour, symbol = item.attribute, item.value, item.colour, item.symbol
            a = self.names.attributes.get(attr.text)
            if a is None:
                self.sink.error(f"no attribute '{attr.text}'", attr.span,
                                near(attr.text, self.names.attributes) or "display names an attribute the cards have")
                continue
            shown = value.text if isinstance(value, s.Ident) else value.value
            if (attr.text, shown) in seen:
                self.sink.error(f"'{attr.text} {shown}' is displayed twice", value.span,
                                f"the first is at line {seen[attr.text, shown]}; keep one")
                continue
            seen[attr.text, shown] = item.span.line
            if attr.text in self.names.broken | self.names.partial or self._fixed(attr.text, value) is None:
                continue  # a broken attribute was reported where it is defined
            if colour is not None and colour.text not in _terminal_colours():
                self.sink.error(f"'{colour.text}' is not a terminal colour", colour.span,
                                near(colour.text, _terminal_colours()) or
                                "e.g. cyan, magenta, gold1, grey50 (the 256 colours' names)")
                continue
            if symbol is not None and (not symbol.strip() or len(symbol) > MAX_SYMBOL
                                       or any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in symbol)):
                self.sink.error(f"the symbol {symbol!r} is empty, too long or holds an invisible character",
                                item.span, f'write what a card shows in 1 to {MAX_SYMBOL} characters: "K", "♠", "10"')
                continue
            looks.append(m.Look(attr.text, shown, colour.text if colour else None, symbol,
                                _provenance(item.provs, item.span)))
        return tuple(looks)

    # ---------------------------------------------------------------- whole-ruleset checks

    def _deck_deals(self, players, deck, setup) -> None:
        """The deck must deal every seat its hand for every allowed player count."""
        if players is None or not deck:
            return
        size = sum(card.copies for card in deck)
        per_seat = once = 0
        for step in setup:
            if isinstance(step, (m.Deal, m.Transfer)) and step.where is None and step.count is not None:
                count = self._constant(step.count)
                if count is None:
                    continue
                if count < 0:
                    start = (step.provenance.line, step.provenance.column)
                    items = next((c.items for c in self.clauses if isinstance(c, s.Setup)), ())
                    item = next((i.span for i in items if (i.span.line, i.span.column) == start), Span.point(*start))
                    self.sink.error(f"setup moves {count} cards", item, "move a count of zero or more")
                if isinstance(step, m.Deal):
                    per_seat += max(count, 0)
                else:
                    once += max(count, 0)
        most = players[0][1]
        if per_seat * most + once > size:
            fewest_ok = (size - once) // per_seat if per_seat else 0
            self.sink.error(f"the deck of {size} cards cannot deal {per_seat} to each of {most} players "
                            f"({per_seat * most + once} cards with the rest of setup)", self._clause_span("setup"),
                            f"allow at most {fewest_ok} players, deal fewer cards, or add cards")

    def _constant(self, expr) -> int | None:
        """The value of a count made of numbers and params (at their defaults)."""
        if isinstance(expr, m.Const):
            return int(expr.value)
        if isinstance(expr, m.ParamRef):
            return self.names.params[expr.name].default
        if isinstance(expr, m.Op) and expr.op in "+-*":
            a, b = self._constant(expr.left), self._constant(expr.right)
            if a is None or b is None:
                return None
            return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b
        return None

    def _clause_span(self, kind: str) -> Span | None:
        return next((c.span for c in self.clauses if c.kind == kind), None)

    def _provenance_documents(self) -> None:
        """A ruling or an assumption says why; a source's document, the text before its first ':',
        must be one the game declares (when it declares any)."""

        def walk(c: s.Clause):
            yield c
            for item in c.items:
                yield from walk(item)

        for clause in self.clauses:
            for c in walk(clause):
                for p in c.provs:
                    if p.kind != "source" or not self.names.documents:
                        continue
                    doc = p.text.split(":", 1)[0].strip()
                    if doc in self.names.documents:
                        self.names.used.add(("document", doc))
                    else:
                        self.sink.warning(f"the source cites '{doc}', which the game does not declare",
                                          p.span, "declare it in game { document \"ID\" \"title\" } or fix the id")
                for p in c.provs:
                    if p.kind in ("ruling", "assumed") and not p.text.strip():
                        self.sink.error(f"an empty {p.kind}", p.span,
                                        f"say why: {p.kind} \"the book is silent on ...\"")

    def _unused(self) -> None:
        for (space, name), span in self.names.spans.items():
            if space in ("param", "zone", "attribute", "play", "document", "define", "value") and (
                    space, name) not in self.names.used:
                self.sink.warning(f"{space} '{name}' is never used", span, "use it or remove it")

    # ---------------------------------------------------------------- expressions

    def _bool(self, expr, scope) -> object | None:
        return self._typed(expr, scope, "bool")

    def _int(self, expr, scope) -> object | None:
        return self._typed(expr, scope, "int")

    def _typed(self, expr, scope, want: str):
        typed = self._expr(expr, scope)
        if typed is not None and typed.type != want:
            self.sink.error(f"this is {_show(typed.type)}, but {_show(want)} is needed here", expr.span,
                            "compare it (==, <, ...) to make a truth value" if want == "bool"
                            else "count(...) or sum(...) make a number")
            return None
        return typed

    def _expr(self, e, scope: dict[str, str]):
        """Type one expression; report and return None when it does not fit."""
        match e:
            case s.Number(value):
                return m.Const(value, "int")
            case s.Name():
                return self._name(e, scope)
            case s.ZoneOf(zone, seat):
                z = self._zone(zone, per_seat=True)
                who = self._expr(seat, scope)
                if who is not None and who.type != "seat":
                    self.sink.error(f"'{zone.text} of ...' needs a seat, not {_show(who.type)}", seat.span,
                                    "write e.g. hand of self, or row of s inside `some s in seats: ...`")
                    return None
                return m.ZoneRef(z.name, who, z.piles, "zone:piles" if z.piles else "zone") if z and who else None
            case s.Attr():
                return self._attr(e, scope)
            case s.Call():
                return self._call(e, scope)
            case s.Unary(op, operand):
                inner = self._typed(operand, scope, "bool" if op == "not" else "int")
                return m.Unary(op, inner, inner.type) if inner else None
            case s.If(cond, then, otherwise):
                c = self._bool(cond, scope)
                a, b = self._expr(then, scope), self._expr(otherwise, scope)
                if a and b and a.type != b.type:
                    self.sink.error(f"the branches differ: {_show(a.type)} and {_show(b.type)}", e.span,
                                    "make both branches the same kind of value")
                    return None
                return m.If(c, a, b, a.type) if c and a and b else None
            case s.Quantifier(kind, var, coll, body):
                c = self._expr(coll, scope)
                if c is None:
                    return None
                elem = _element(c.type)
                if elem is None:
                    self.sink.error(f"'{kind}' ranges over a list, not {_show(c.type)}", coll.span,
                                    "e.g. some s in seats: ...")
                    return None
                b = self._bool(body, {**scope, var.text: elem})
                return m.Quantifier(kind, var.text, c, b) if b else None
            case s.Binary():
                return self._binary(e, scope)
        self.sink.error("this expression cannot be used here", getattr(e, "span", None), "")
        return None

    def _name(self, e: s.Name, scope):
        name = e.id
        if name in scope:
            return m.Ref(name, scope[name])
        if name in self.names.params:
            self.names.used.add(("param", name))
            return m.ParamRef(name)
        if name in self.names.values:
            if "seats" not in scope:  # a count known before play, a deck rule, a mark
                self.sink.error(f"'{name}' is a value of the play, read once the round is under way", e.span,
                                "read values in conditions, effects and the score")
                return None
            self.names.used.add(("value", name))
            return m.ValueRef(name, self.names.values[name].type)
        if name in self.names.zones:
            zone = self.names.zones[name]
            self.names.used.add(("zone", name))
            zone_type = "zone:piles" if zone.piles else "zone"
            if not zone.per_seat:
                return m.ZoneRef(name, None, zone.piles, zone_type)
            if "self" in scope:
                return m.ZoneRef(name, m.Ref("self", "seat"), zone.piles, zone_type)
            self.sink.error(f"zone '{name}' is per seat: say whose", e.span, f"write e.g. {name} of s")
            return None
        if name in self.names.enum_values:
            attrs = self.names.enum_values[name]
            if len(attrs) > 1:
                self.sink.error(f"'{name}' is a value of {', '.join(attrs)}", e.span,
                                "rename one of the values so each names one thing")
                return None
            return m.Const(name, "enum:" + attrs[0])
        if name in self.names.attributes:
            self.sink.error(f"'{name}' is an attribute: say of which card", e.span,
                            f"write e.g. card.{name}, or values({name}) for all its values")
            return None
        known = list(scope) + list(self.names.params) + list(self.names.zones)
        self.sink.error(f"unknown name '{name}'", e.span, near(name, known) or
                        "names here: " + ", ".join(sorted(n for n in scope if n != MARKS)))
        return None

    def _attr(self, e: s.Attr, scope):
        obj = self._expr(e.obj, scope)
        if obj is None:
            return None
        name = e.attr.text
        if name in self.names.marks and name not in self.names.attributes:
            if MARKS not in scope:
                self.sink.error(f"'{name}' is a mark, read only where the deck is chosen", e.attr.span,
                                "copies of one face are alike in play: read marks in a `deck` clause")
                return None
            if obj.type != "card":
                self.sink.error(f"'.{name}' reads a card, not {_show(obj.type)}", e.attr.span, f"write card.{name}")
                return None
            return m.AttrOf(obj, name, "bool")
        if name not in self.names.attributes:
            self.sink.error(f"no attribute '{name}'", e.attr.span, near(name, self.names.attributes) or
                            "attributes: " + ", ".join(self.names.attributes))
            return None
        self.names.used.add(("attribute", name))
        a = self.names.attributes[name]
        value_type = "enum:" + name if a.is_enum else "int"
        if obj.type == "card":
            return m.AttrOf(obj, name, value_type)
        if obj.type == "list:card":
            return m.AttrOf(obj, name, _list(value_type))
        self.sink.error(f"'.{name}' reads a card, not {_show(obj.type)}", e.attr.span,
                        "e.g. top(pile).colour or tops(row of s).value")
        return None

    def _expand(self, call: s.Call, scope):
        """A call of a `define`: its body with the arguments put in place of its parameters,
        typed where it is called. The body's own variables are renamed first, so an argument
        can never be captured by them."""
        name = call.function.text
        clause = self.defines[name]
        params, body = clause.params, clause.body
        if name in self._recursive:  # reported where the define stands, by _defines_sound
            return None
        if len(self._expanding) >= MAX_DEFINE_NESTING:
            self.sink.error(f"defines nest deeper than {MAX_DEFINE_NESTING} here", call.span,
                            "write out one of the inner defines")
            return None
        if len(call.args) != len(params) or any(isinstance(a, s.EachArg) for a in call.args):
            self.sink.error(f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}", call.span,
                            f"write {name}({', '.join(p.text for p in params)})")
            return None
        self.names.used.add(("define", name))
        if not self._reads_only_its_own(name, clause):  # reported by _defines_sound
            return None
        filled = _substitute(body, {p.text: a for p, a in zip(params, call.args, strict=True)}, len(self._expanding))
        self._expanding.append(name)
        try:
            typed = self._expr(filled, scope)
        finally:
            self._expanding.pop()
        args = tuple(self._expr(a, scope) for a in call.args)
        if typed is None or None in args:
            return None
        if name not in self._declared:
            self._declare(clause, args)
        return m.Defined(name, args, typed, typed.type)

    def _declare(self, clause: s.Define, args) -> None:
        """The define typed as written, its parameters bound to the types of its first call's
        arguments. It typed there, so it types here; any message would repeat one already given."""
        name, params, body = clause.name, clause.params, clause.body
        sink, self.sink = self.sink, Sink(self.sink.file, self.sink.text)
        self._expanding.append(name.text)
        try:
            typed = self._expr(body, {**GLOBAL, **{p.text: a.type for p, a in zip(params, args, strict=True)}})
        finally:
            self._expanding.pop()
            self.sink = sink
        if typed is not None:
            self._declared[name.text] = m.Define(name.text, tuple(p.text for p in params), typed,
                                                 _provenance(clause.provs, clause.span))

    def _defines_sound(self) -> None:
        """Every define reads only what it is given, and none calls itself, directly or not."""
        for clause in self.defines.values():
            self._free_names_ok(clause)
        calls = {name: {c.function.text for c in _calls(clause.body) if c.function.text in self.defines}
                 for name, clause in self.defines.items()}
        for name, clause in self.defines.items():
            seen, todo = set(), list(calls[name])
            while todo:
                callee = todo.pop()
                if callee == name:
                    self._recursive.add(name)
                    self.sink.error(f"define '{name}' calls itself", clause.name.span,
                                    "a define may use other defines, but not in a circle")
                    break
                if callee not in seen:
                    seen.add(callee)
                    todo.extend(calls[callee])

    def _free_names_ok(self, clause: s.Define) -> bool:
        """A define sees its parameters, the ruleset's names and the global ones, nothing of
        the place it is called from: what it means does not depend on where it is used."""
        params, body = clause.params, clause.body
        allowed = self._allowed(clause)
        for name in _free_names(body):
            if name.id not in allowed:
                self.sink.error(f"define '{clause.name.text}' reads '{name.id}', which it is not given",
                                name.span, f"add it as a parameter: define {clause.name.text}("
                                + ", ".join([p.text for p in params] + [name.id]) + ")")
                return False
        return True

    def _reads_only_its_own(self, name: str, clause: s.Define) -> bool:
        """Whether the define reads only what `_allowed` gives it: asked at every call, worked
        out once a check."""
        known = self._own_only.get(name)
        if known is None:
            allowed = self._allowed(clause)
            known = self._own_only[name] = all(n.id in allowed for n in _free_names(clause.body))
        return known

    def _allowed(self, clause: s.Define) -> set[str]:
        return {p.text for p in clause.params} | set(GLOBAL) | set(self.names.params) | set(self.names.zones) \
            | set(self.names.enum_values) | set(self.names.attributes)

    def _call(self, e: s.Call, scope):
        fn = e.function.text
        signatures = FUNCTIONS
        if fn in self.defines:
            return self._expand(e, scope)
        if fn not in signatures:
            self.sink.error(f"no function '{fn}'", e.function.span,
                            near(fn, signatures) or "functions: " + ", ".join(signatures))
            return None
        if len(e.args) != 1:
            self.sink.error(f"{fn} takes one argument", e.span, signatures[fn])
            return None
        arg = e.args[0]
        if isinstance(arg, s.EachArg):
            return self._each(fn, arg, scope, signatures[fn])
        if fn == "values":
            if isinstance(arg, s.Name) and arg.id in self.names.attributes:
                self.names.used.add(("attribute", arg.id))
                a = self.names.attributes[arg.id]
                if a.is_enum:
                    return m.Const(tuple(v.name for v in a.values), "list:enum:" + a.name)
                return m.Const(tuple(range(a.low, a.high + 1)), "list:int")
            self.sink.error("values(...) takes an attribute's name", arg.span, signatures[fn])
            return None
        x = self._expr(arg, scope)
        if x is None:
            return None
        t = x.type
        if fn == "played_by":
            if t != "card":
                self.sink.error(f"played_by(...) takes a card, not {_show(t)}", arg.span, signatures[fn])
                return None
            return m.Call(fn, (x,), "seat")
        if fn == "best":
            self.sink.error("best(...) takes x in LIST: NUMBER", arg.span, signatures[fn])
            return None
        if fn in TEAM_FUNCTIONS:
            return self._team_call(fn, x, arg, scope)
        if fn in ("seat", "index"):
            want = "int" if fn == "seat" else "seat"
            if t != want:
                self.sink.error(f"{fn}(...) takes {_show(want)}, not {_show(t)}", arg.span, signatures[fn])
                return None
            return m.Call(fn, (x,), "seat" if fn == "seat" else "int")
        ok = {
            "count": t.startswith(("zone", "list:")),
            "sum": t == "list:int", "max": t == "list:int", "min": t == "list:int", "product": t == "list:int",
            "distinct": t.startswith("list:") and t != "list:pile",
            "piles": t == "zone:piles", "tops": t == "zone:piles",
            "top": t in ("pile", "zone"), "bottom": t in ("pile", "zone"), "cards": t in ("zone", "zone:piles", "pile"),
        }[fn]
        if not ok:
            self.sink.error(f"{fn}(...) does not take {_show(t)}", arg.span, signatures[fn])
            return None
        result = {"count": "int", "sum": "int", "max": "int", "min": "int", "product": "int", "distinct": t,
                  "piles": "list:pile", "tops": "list:card", "top": "card", "bottom": "card",
                  "cards": "list:card"}[fn]
        return m.Call(fn, (x,), result)

    def _team_call(self, fn: str, x, arg, scope):
        """`team(SEAT)`, `partner(SEAT)` and `team_total(SEAT)`: the ruleset's teams read."""
        if x.type != "seat":
            self.sink.error(f"{fn}(...) takes a seat, not {_show(x.type)}", arg.span, FUNCTIONS[fn])
            return None
        if self.teams_clause is None:
            self.sink.error(f"{fn}(...) reads the teams, and the ruleset has none", arg.span,
                            "add a teams clause, e.g. teams opposite")
            return None
        return m.Call(fn, (x,), {"team": "list:seat", "partner": "seat", "team_total": "int"}[fn])

    def _each(self, fn: str, arg: s.EachArg, scope, signature: str):
        if fn not in ("count", "sum", "max", "min", "product", "best") or (fn == "count") != arg.filter:
            self.sink.error(f"{fn}(x in ...) is not a form this function takes", arg.span, signature)
            return None
        coll = self._expr(arg.collection, scope)
        if coll is None:
            return None
        elem = _element(coll.type)
        if elem is None:
            self.sink.error(f"'{arg.var.text} in ...' ranges over a list, not {_show(coll.type)}",
                            arg.collection.span, "e.g. piles(row of s) or seats")
            return None
        if fn == "best" and elem not in ("seat", "card"):
            self.sink.error(f"best(...) picks a seat or a card, not {_show(elem)}", arg.collection.span,
                            "e.g. best(c in cards(trick): c.rank)")
            return None
        body = self._typed(arg.body, {**scope, arg.var.text: elem}, "bool" if arg.filter else "int")
        return m.Each(fn, arg.var.text, coll, body, arg.filter, elem if fn == "best" else "int") if body else None

    def _binary(self, e: s.Binary, scope):
        op = e.op
        if op in ("and", "or"):
            a, b = self._bool(e.left, scope), self._bool(e.right, scope)
            return m.Op(op, a, b, "bool") if a and b else None
        a, b = self._expr(e.left, scope), self._expr(e.right, scope)
        if a is None or b is None:
            return None
        if op in ("+", "-", "*", "/", "%"):
            for side, x in (("left", a), ("right", b)):
                if x.type != "int":
                    self.sink.error(f"'{op}' needs numbers; the {side} side is {_show(x.type)}",
                                    (e.left if side == "left" else e.right).span,
                                    "count(...) or sum(...) make a number")
                    return None
            return m.Op(op, a, b, "int")
        if a.type != b.type:
            self.sink.error(
                f"'{op}' compares {_show(a.type)} with {_show(b.type)}",
                e.span,
                "compare values of one kind, e.g. card.colour == top(pile).colour",
            )
            return None
        if op in ("<", "<=", ">", ">=") and a.type != "int":
            self.sink.error(f"'{op}' orders numbers, not {_show(a.type)}", e.span, "use == or != here")
            return None
        return m.Op(op, a, b, "bool")


def check(clauses: list[s.Clause], sink: Sink) -> m.Ruleset | None:
    """The model of a parsed ruleset, or None when `sink` holds errors."""
    return Checker(clauses, sink).run()
