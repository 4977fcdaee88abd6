"""AST to model. Resolves every name, types every expression, checks counts and ranges, and
reports every error it can find in one run, each located, with a hint. Unused definitions are
warnings. The model is built only when there is no error.

This module is the driver: the first pass over the names, the header, cards, setup, the match
and the whole-ruleset checks. Expressions are typed by expressions.py, plays, turn steps and
the window read by plays.py."""
from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator
from typing import TypeAlias, TypeVar

from . import model as m
from . import syntax as s
from .diagnostics import Sink, Span
from .dispatch import unknown, visit
from .drawing import fill
from .expressions import (
    CONTEXT_NAMES,
    DECK,
    FACE,
    FUNCTIONS,
    GLOBAL,
    LET_ROUND,
    MATCH_STARTER,
    MATCH_UNTIL,
    SETUP,
    SETUP_FILTER,
    VALUE_TYPES,
    Names,
    Typer,
    near,
    provenance,
    show,
)
from .plays import Plays

MAX_PLAYERS = 64
MAX_DECK = 20_000
MAX_COPIES = 1_000
MAX_ATTRIBUTE_VALUES = 10_000
MAX_SYMBOL = 8  # characters of a `display` symbol: a suit, a rank, a short word

_C = TypeVar("_C", bound=s.Clause)
_Players: TypeAlias = "tuple[tuple[int, int], m.Provenance, tuple[int, ...]]"  # (low, high), provenance, counts listed
_SetupStep: TypeAlias = "m.Shuffle | m.Deal | m.Transfer | m.Let"


def _terminal_colours() -> dict[str, int]:
    """The colour names of the 256-colour terminal palette, as rich knows them (it draws them)."""
    from rich.color import ANSI_COLOR_NAMES

    return ANSI_COLOR_NAMES


def _in_expressions(space: str) -> bool:
    """Whether names of this space can stand alone in an expression."""
    return space in ("param", "zone", "attribute", "value") or space.startswith("value of")


def _both_values(a: str, b: str) -> bool:
    """Two attributes may share a value's name; a use of it then asks which (see `Typer._name`)."""
    return a.startswith("value of") and b.startswith("value of")


class Checker:
    """One check of one ruleset's clauses: `run` gives the model, or None with the errors in `sink`."""

    def __init__(self, clauses: list[s.Clause], sink: Sink):
        self.clauses = clauses
        self.sink = sink
        self.names = Names()
        self.types = Typer(self.names, sink)
        self.plays = Plays(self.names, self.types, sink)

    # ---------------------------------------------------------------- entry

    def run(self) -> m.Ruleset | None:
        singles = self._singletons()

        def one(cls: type[_C]) -> _C | None:  # the clause of a kind a ruleset has once, if it has it
            c = singles.get(cls.kind)
            return c if isinstance(c, cls) else None

        teams_clause, display_clause, setup_clause = one(s.Teams), one(s.Display), one(s.Setup)
        self.types.teams = teams_clause is not None
        self._definitions()
        self.types.defines_sound()
        self._values(one(s.Match), setup_clause)
        header = self._game(one(s.Game))
        players = self._players(one(s.Players))
        kinds, deck = self._cards()
        plays = [self.plays.play(c) for c in self.names.plays.values()]
        setup = self._setup(setup_clause)
        cleanup = self._cleanup(one(s.Cleanup))
        turn = self.plays.turn(one(s.Turn))
        window = self.plays.window(one(s.Window))
        round_ends = self._round_ends()
        final = self._final()
        score = self._score(one(s.Score))
        match = self._match(one(s.Match))
        deck_rules = self._deck_rules()
        sets = self._sets(one(s.Decks))
        display = self._display(display_clause)
        teams = self._teams(teams_clause, players)
        if not deck_rules and sets[0] == 1:  # else the deck in play depends on the count: compile tells
            self._deck_deals(players, deck, setup)
        self._provenance_documents()
        self._unused()
        if self.sink.errors or header is None or players is None or score is None or match is None:
            return None
        return m.Ruleset(
            file=self.sink.file, title=header[0], names=header[1], documents=tuple(self.names.documents.values()),
            players=players[0], players_provenance=players[1], params=tuple(self.names.params.values()),
            attributes=tuple(self.names.attributes.values()), kinds=kinds, deck=deck,
            zones=tuple(self.names.zones.values()), setup=setup, cleanup=cleanup,
            plays=tuple(p for p in plays if p is not None),  # a play that does not check reported an error
            turn=turn, window=window, round_ends=round_ends, final=final, score=score, match=match,
            player_counts=players[2], deck_rules=deck_rules, sets=sets[0], sets_provenance=sets[1],
            marks=tuple(self.names.marks), display=display,
            display_provenance=provenance(display_clause.provs, display_clause.span)
            if display_clause is not None else m.NO_PROVENANCE,
            defines=self.types.declared(), teams=teams,
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
            visit(self, "_definition_", c)(c, provenance(c.provs, c.span))

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
        elif all(map(self.types.bindable, c.params)) and self._define("define", c.name):
            self.types.defines[c.name.text] = c

    def _definition_Game(self, c: s.Game, prov: m.Provenance) -> None:
        for item in c.items:
            if isinstance(item, s.Document) and self._define("document", item.id):
                self.names.documents[item.id.text] = m.Document(item.id.text, item.title,
                                                                provenance(item.provs, item.span))

    def _values(self, match: s.Clause | None, setup: s.Clause | None) -> None:
        """The named values: the match's `let`s, set once when it starts, then setup's, set
        every round where setup reaches them. Each is typed by its expression, which may read
        the values declared before it."""
        lets = [(item, True) for item in (match.items if match else ()) if isinstance(item, s.Let)]
        lets += [(item, False) for item in (setup.items if setup else ()) if isinstance(item, s.Let)]
        for item, per_match in lets:
            ident, expr = item.name, item.value
            typed = self.types.expr(expr, GLOBAL if per_match else LET_ROUND)
            if typed is not None and typed.type not in VALUE_TYPES and not typed.type.startswith("enum:"):
                holds = show(typed.type)
                self.sink.error(f"a value holds a number, a truth value, a seat, a card or an enum value, not {holds}",
                                expr.span, "e.g. let trump = top(stock).suit")
                typed = None
            if self._define("value", ident) and typed is not None:
                self.names.values[ident.text] = m.Value(ident.text, typed.type, typed, per_match,
                                                        provenance(item.provs, item.span))

    def _range(self, low: s.Number, high: s.Number) -> bool:
        if low.value > high.value:
            self.sink.error(f"the range {low.value}..{high.value} is empty", low.span,
                            "write the smaller number first")
            return False
        return True

    # ---------------------------------------------------------------- header

    def _game(self, c: s.Game | None) -> tuple[str, tuple[tuple[str, str], ...]] | None:
        if c is None:
            return None
        names: list[tuple[str, str]] = []
        for item in c.items:
            if isinstance(item, s.Label):
                lang, text = item.language, item.text
                if any(lang.text == known for known, _ in names):
                    self.sink.error(f"a second name in '{lang.text}'", lang.span, "give each language one name")
                names.append((lang.text, text))
        if not c.title.strip():
            self.sink.error("the game has an empty title", c.span, 'write its title: game "Crazy Eights" { }')
        return c.title, tuple(names)

    def _players(self, c: s.Players | None) -> _Players | None:
        if c is None:
            return None
        low, high, listed = c.low, c.high, c.counts
        if listed is not None:
            listed_counts = [n.value for n in listed]
            if listed_counts != sorted(set(listed_counts)):
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
        return (low.value, high.value), provenance(c.provs, c.span), counts

    # ---------------------------------------------------------------- cards

    def _cards(self) -> tuple[tuple[m.CardKind, ...], tuple[m.Card, ...]]:
        kinds: list[m.CardKind] = []
        deck: list[m.Card] = []
        faces: dict[str, str] = {}
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
        copies, copies_prov, face, ok = 1, m.NO_PROVENANCE, None, True
        labels: list[tuple[str, str]] = []
        faces: list[tuple[str, str]] = []
        marks: list[m.Mark] = []
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
                copies, copies_prov = item.count.value, provenance(item.provs, item.span)
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
                if mark is None:
                    ok = False
                else:
                    marks.append(mark)
            else:
                raise unknown(self, item)
        if face is None:
            face = name + "".join(f"-{{{a}}}" for a, v in attrs.items() if v is None)
        if not ok:
            return None
        return m.CardKind(name, tuple(labels), tuple(attrs.items()), copies, face,
                          provenance(c.provs, c.span), copies_prov, tuple(marks), tuple(faces))

    def _mark(self, item: s.Mark) -> m.Mark | None:
        ident, count, where = item.name, item.count, item.where
        if ident.text in self.names.attributes or ident.text in CONTEXT_NAMES:
            self.sink.error(f"'{ident.text}' already names an attribute or a name of the language", ident.span,
                            "name the mark otherwise")
            return None
        self.names.marks.setdefault(ident.text, ident.span)
        keep = self.types.condition(where, FACE) if where is not None else None
        if where is not None and keep is None:
            return None
        return m.Mark(ident.text, count.value if count is not None else None, keep,
                      provenance(item.provs, item.span))

    def _fixed(self, attr: str, value: s.Ident | s.Number) -> str | int | None:
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

    def _fill(self, template: str, values: dict[str, str | int], lang: str | None = None) -> str:
        return fill(template, values, self.names.attributes, lang)

    # ---------------------------------------------------------------- procedure

    def _setup(self, c: s.Setup | None) -> tuple[_SetupStep, ...]:
        steps: list[_SetupStep] = []
        for item in c.items if c else ():
            visit(self, "_setup_", item)(item, steps, provenance(item.provs, item.span))
        if c and not any(isinstance(step, m.Shuffle) for step in steps):
            self.sink.error("setup never puts the deck anywhere", c.span, "start it with: shuffle deck into ZONE")
        return tuple(steps)

    def _setup_Shuffle(self, item: s.Shuffle, steps: list[_SetupStep], prov: m.Provenance) -> None:
        if any(isinstance(step, m.Shuffle) for step in steps):
            self.sink.error("setup shuffles the deck a second time: that would put every card in play twice",
                            item.span, "shuffle the deck once, then deal or move cards from that zone")
            return
        zone = self.types.zone(item.zone, per_seat=False, piles=False)
        steps.append(m.Shuffle(zone.name if zone else "", prov))

    def _setup_Let(self, item: s.Let, steps: list[_SetupStep], prov: m.Provenance) -> None:
        if item.name.text in self.names.values:  # typed with the others (`_values`)
            steps.append(m.Let(item.name.text, prov))

    def _setup_Deal(self, item: s.Deal | s.Move, steps: list[_SetupStep], prov: m.Provenance) -> None:
        amount, source, dest, where = item.count, item.source, item.dest, item.where
        deal = isinstance(item, s.Deal)
        count = None if amount is None else self.types.number(amount, SETUP)
        if amount is not None and count is not None and not m.reads_only(count, {"players"}):
            self.sink.error("a setup count reads the table, which is not laid out yet", amount.span,
                            "make it of numbers, params and players, e.g. if players == 2 then 7 else 5")
            return
        # a move from a per-seat zone moves every seat's cards, each to its own zone if
        # that is per seat too, with `self` the seat whose cards move
        mine = not deal and self.names.zones.get(source.text) is not None \
            and self.names.zones[source.text].per_seat
        scope = {**SETUP_FILTER, "self": "seat"} if deal or mine else SETUP_FILTER
        keep = None if where is None else self.types.condition(where, scope)
        src = self.types.zone(source, per_seat=None if mine else False, piles=False)
        dst = self.types.zone(dest, per_seat=True if deal else None if mine else False, piles=False)
        if (count is not None or amount is None) and (keep is not None or where is None) and src and dst:
            make = m.Deal if deal else m.Transfer
            steps.append(make(count, src.name, dst.name, keep, prov))

    _setup_Move = _setup_Deal

    def _cleanup(self, c: s.Cleanup | None) -> tuple[m.Transfer, ...]:
        """`move` steps run when a round has ended: from a shared zone, or from every seat's."""
        steps: list[m.Transfer] = []
        for item in c.items if c else ():
            if not isinstance(item, s.Move):
                self.sink.error(f"cleanup only moves cards; a {item.kind} belongs in setup", item.span,
                                "write move COUNT from ZONE to ZONE")
                continue
            amount, source, dest, where = item.count, item.source, item.dest, item.where
            count = None if amount is None else self.types.number(amount, SETUP)
            if amount is not None and count is not None and not m.reads_only(count, {"players"}):
                self.sink.error("a cleanup count reads the table", amount.span,
                                "make it of numbers, params and players, or write all")
                continue
            src = self.types.zone(source, piles=False)
            dst = self.types.zone(dest, per_seat=False, piles=False)
            scope = {**SETUP_FILTER, "self": "seat"} if src and src.per_seat else SETUP_FILTER
            keep = None if where is None else self.types.condition(where, scope)
            if (count is not None or amount is None) and (keep is not None or where is None) and src and dst:
                steps.append(m.Transfer(count, src.name, dst.name, keep, provenance(item.provs, item.span)))
        return tuple(steps)

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
        when = self.types.condition(cond, GLOBAL)
        steps = self.plays.turn(c, "final round")
        return None if when is None else m.FinalRound(name.text, when, steps, provenance(c.provs, c.span), seat_order)

    def _round_ends(self) -> tuple[m.RoundEnd, ...]:
        ends: list[m.RoundEnd] = []
        for c in self.clauses:
            if isinstance(c, s.RoundEnd) and self._define("round end", c.name):
                cond = self.types.condition(c.when, GLOBAL)
                if cond is not None:
                    ends.append(m.RoundEnd(c.name.text, cond, provenance(c.provs, c.span)))
        return tuple(ends)

    def _score(self, c: s.Score | None) -> m.Score | None:
        if c is None:
            return None
        var, expr = c.seat, c.value
        typed = self.types.number(expr, {**GLOBAL, var.text: "seat"})
        return m.Score(var.text, typed, provenance(c.provs, c.span)) if typed is not None else None

    def _match(self, c: s.Match | None) -> m.Match | None:
        if c is None:
            return None
        until: tuple[m.Expr | None, m.Provenance] | None = None
        winner: tuple[str, m.Provenance] | None = None
        starter: tuple[m.Expr | None, m.Provenance] | None = None
        seen: dict[str, s.Clause] = {}
        for item in c.items:
            prov = provenance(item.provs, item.span)
            if item.kind in seen and not isinstance(item, s.Let):
                self.sink.error(f"a second '{item.kind}' in the match", item.span,
                                f"the first is at line {seen[item.kind].span.line}; keep one")
                continue
            seen[item.kind] = item
            if isinstance(item, s.Until):
                until = (self.types.condition(item.when, MATCH_UNTIL), prov)
            elif isinstance(item, s.Winner):
                winner = (item.which, prov)
            elif isinstance(item, s.Let):
                continue  # a value of the match, typed with the others (`_values`)
            elif isinstance(item, s.Starter):
                typed = self.types.expr(item.seat, MATCH_STARTER)
                if typed is not None and typed.type not in ("int", "seat"):
                    self.sink.error(f"the starter is {show(typed.type)}, not a seat number", item.seat.span,
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
        rules: list[m.DeckRule] = []
        for c in self.clauses:
            if isinstance(c, s.DeckRule) and self._define("deck rule", c.name):
                keep = self.types.condition(c.when, DECK)
                if keep is not None:
                    rules.append(m.DeckRule(c.name.text, keep, provenance(c.provs, c.span)))
        return tuple(rules)

    def _sets(self, c: s.Decks | None) -> tuple[int, m.Provenance]:
        if c is None:
            return 1, m.NO_PROVENANCE
        count = c.count
        if not 1 <= count.value <= 10:
            self.sink.error(f"decks {count.value}", count.span, "a game uses 1 to 10 sets of its cards")
            return 1, m.NO_PROVENANCE
        return count.value, provenance(c.provs, c.span)

    def _teams(self, c: s.Teams | None, players: _Players | None) -> m.Teams | None:
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
            return m.Teams("opposite", (), provenance(c.provs, c.span))
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
        return m.Teams("listed", tuple(tuple(n.value for n in team) for team in listed), provenance(c.provs, c.span))

    def _display(self, c: s.Display | None) -> tuple[m.Look, ...]:
        """Each item names a value of an attribute, once, and a colour the terminal knows or a
        symbol one can read."""
        looks: list[m.Look] = []
        seen: dict[tuple[str, str | int], int] = {}
        for item in c.items if c else ():
            if not isinstance(item, s.Look):
                raise unknown(self, item)
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
                                provenance(item.provs, item.span)))
        return tuple(looks)

    # ---------------------------------------------------------------- whole-ruleset checks

    def _deck_deals(self, players: _Players | None, deck: tuple[m.Card, ...], setup: tuple[_SetupStep, ...]) -> None:
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
            where = next((c.span for c in self.clauses if isinstance(c, s.Setup)), None)
            self.sink.error(f"the deck of {size} cards cannot deal {per_seat} to each of {most} players "
                            f"({per_seat * most + once} cards with the rest of setup)", where,
                            f"allow at most {fewest_ok} players, deal fewer cards, or add cards")

    def _constant(self, expr: object) -> int | None:
        """The value of a count made of numbers and params (at their defaults)."""
        if isinstance(expr, m.Const) and isinstance(expr.value, int):
            return expr.value
        if isinstance(expr, m.ParamRef):
            return self.names.params[expr.name].default
        if isinstance(expr, m.Op) and expr.op in "+-*":
            a, b = self._constant(expr.left), self._constant(expr.right)
            if a is None or b is None:
                return None
            return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b
        return None


    def _provenance_documents(self) -> None:
        """A ruling or an assumption says why; a source's document, the text before its first ':',
        must be one the game declares (when it declares any)."""

        def walk(c: s.Clause) -> Iterator[s.Clause]:
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


def check(clauses: list[s.Clause], sink: Sink) -> m.Ruleset | None:
    """The model of a parsed ruleset, or None when `sink` holds errors."""
    return Checker(clauses, sink).run()
