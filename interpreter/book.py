"""A rulebook for players, built from the checked model of one selection: a small tree of
sections, paragraphs, lists and tables, with each rule's provenance as a numbered note.

Everything here is read from the model (never from the text), and every sentence is one of
the templates of `book_words` in the chosen language; the game's names (cards, zones, plays,
enum values) come from the model, in the chosen language where the ruleset gives them. A
condition the book cannot put in words is shown as the rules write it, in code style: the
book says less rather than something wrong. The worked scoring example is the engine's own:
a seeded match played by random moves to the end of its first round.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias, cast

from . import model as m
from .book_words import LANGUAGES, WORDS
from .bots import RandomBot
from .cards import FINAL, TURN, WINDOW, describe, faces_by_kind
from .compile import Compiled, compile_ruleset
from .engine import EngineError, Game
from .export import deals
from .unparse import unparse

EXAMPLE_SEED = 1
EXAMPLE_MAX_PLAYS = 20_000  # a round that random moves do not end by then gets no example


# ------------------------------------------------------------------ the tree


@dataclass(frozen=True)
class Code:
    """Text shown as the rules write it."""

    text: str


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Link:
    """A name that leads to the section `anchor` of the book."""

    text: str
    anchor: str


@dataclass(frozen=True)
class Note:
    """A reference to note `number` (from 1) of the book."""

    number: int


Inline: TypeAlias = str | Code | Strong | Link | Note
Line: TypeAlias = tuple[Inline, ...]


@dataclass(frozen=True)
class Paragraph:
    line: Line


@dataclass(frozen=True)
class Items:
    """A list; `ordered` for steps that go in order."""

    lines: tuple[Line, ...]
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    caption: Line
    header: tuple[Line, ...]
    rows: tuple[tuple[Line, ...], ...]


@dataclass(frozen=True)
class Section:
    anchor: str
    title: Line
    blocks: tuple[Block, ...]
    level: int = 2  # 2: a major section (a new page in print), 3: a subsection


Block: TypeAlias = Paragraph | Items | Table | Section
NoteItems: TypeAlias = tuple[tuple[str, str], ...]  # a note: (label, text) for each source, ruling, assumption
Faces: TypeAlias = list[str]  # cards, shown by their faces
Laid: TypeAlias = Faces | list[Faces] | list[list[Faces]]  # a zone's cards or piles, or either for each seat
Selection: TypeAlias = tuple[str | None, tuple[str, ...]]  # an edition and its variants


@dataclass(frozen=True)
class Book:
    lang: str
    title: str
    subtitle: tuple[Line, ...]
    sections: tuple[Section, ...]
    notes: tuple[NoteItems, ...]
    contents_title: str
    notes_title: str
    example: Example | None = None


@dataclass(frozen=True)
class Example:
    """The worked scoring example as data: the position the engine scored, and its scores."""

    players: int
    seed: int
    end: str
    zones: dict[str, Laid]  # zone name -> its faces or piles (a list of them per seat), every zone of the position
    shown: tuple[str, ...]  # the zones the score reads
    scores: tuple[int, ...]


# ------------------------------------------------------------------ building


def build(model: m.Ruleset, lang: str = "en") -> Book:
    """The book of one checked selection, in `lang` (one of LANGUAGES)."""
    return _Builder(model, lang).book()



def plain(line: Line) -> str:
    """A line of the book as plain text: code, strong words and links as their text, no notes."""
    return "".join(x if isinstance(x, str) else getattr(x, "text", "") for x in line)


def end_words(model: m.Ruleset, lang: str = "en") -> dict[str, str]:
    """Each way a round can end, by name -> the book's sentence for it, in plain text."""
    b = _Builder(model, lang if lang in LANGUAGES else "en", describe_cards=False)
    words = {r.name: plain(b.phrase(r.cond)) for r in model.round_ends}
    if model.final is not None:
        words[model.final.name] = plain(b.phrase(model.final.when))
    return words


@dataclass(frozen=True)
class Summary:
    """The rules in short, for a player at the table: (heading, lines) per part."""

    title: str
    parts: tuple[tuple[str, tuple[str, ...]], ...]


def summary(model: m.Ruleset, lang: str = "en") -> Summary:
    """The aim, a turn, the response window, each card kind in a line, the end and scoring: the
    book's own sentences, without its notes, tables and worked example."""
    b = _Builder(model, lang if lang in LANGUAGES else "en")
    w, mt = b.words, model.match
    aim = (b.say("aim_highest" if mt.winner == "highest" else "aim_lowest"), b.until(mt.until),
           b.say("players", counts=player_counts(model.counts)))
    turn = [b.say("turn_intro")] + [(f"{k}. ",) + b.turn_step(s) for k, s in enumerate(model.turn, 1)]
    window = b.window()
    cards = []
    for k in model.kinds:
        info = b.infos[k.name]
        uses = "; ".join(f"{use.play} ({plain(b.when(use.timing))})" for use in info.uses)
        faces = f"{info.faces[0]} … {info.faces[-1]}" if len(info.faces) > 2 else ", ".join(info.faces)
        cards.append((f"{b.kind_names[k.name]} ({faces}, {info.cards}): ", uses or plain(b.say("kind_unused"))))
    end = [(r.name, ": ") + b.say("round_end", cond=b.phrase(r.cond)) for r in model.round_ends]
    if model.final is not None:
        end.append((model.final.name, ": ") + b.say("final_text", cond=b.phrase(model.final.when)))
    score = [b.say("score", var=Code(model.score.var), expr=b.code(model.score.expr))]
    score += [(Code(f"{d.name}({', '.join(d.params)}) = {unparse(d.body)}"),) for d in model.defines]
    parts = [(w["aim"], aim), (w["turn"], turn)]
    if window is not None:
        parts.append((w["window"], [blk.line for blk in window.blocks if isinstance(blk, Paragraph)]))  # all are
    parts += [(w["cards_section"], cards), (w["end"], end), (w["scoring"], score)]
    title = dict(model.names).get(b.lang, model.title)
    return Summary(title, tuple((head, tuple(plain(x) for x in lines)) for head, lines in parts))

_FIELD = re.compile(r"(\{\w+\}|`[^`]+`)")


class _Builder:
    def __init__(self, model: m.Ruleset, lang: str, describe_cards: bool = True):
        if lang not in LANGUAGES:
            raise ValueError(f"no book language '{lang}'")
        self.model, self.lang, self.words = model, lang, WORDS[lang]
        self.notes: dict[NoteItems, int] = {}
        names = lang if lang in model.languages else None
        self.compiled = compile_ruleset(model, model.counts[0], None, names)
        self.labels = {v.name: dict(v.labels).get(lang, v.name) for a in model.attributes for v in a.values}
        self.kind_names = {k.name: _kind_name(k, lang) for k in model.kinds}
        self.example: Example | None = None
        self.infos = {k.name: describe(self.compiled, k.name) for k in model.kinds} if describe_cards else {}
        self.played_with: dict[str, list[str]] = {}  # play -> the kinds it may take, first card or second
        self.timing: dict[str, tuple[str, ...]] = {}
        for kind, info in self.infos.items():
            for use in info.uses:
                self.played_with.setdefault(use.play, []).append(kind)
                self.timing[use.play] = use.timing

    # -------------------------------------------------------------- words

    def say(self, key: str, **parts: Inline | Line) -> Line:
        """The template `key` with its fields filled: each part a string (plain words), an
        Inline, or a Line. A count of 1 takes the template `key_1` where the language has one."""
        if parts.get("count") == ("1",) and key + "_1" in self.words:
            key += "_1"
        out: list[Inline] = []
        for piece in _FIELD.split(self.words[key]):
            if not piece:
                continue
            if piece.startswith("{"):
                value = parts[piece[1:-1]]
                out.extend(value if isinstance(value, tuple) else (value,))
            elif piece.startswith("`"):
                out.append(Code(piece[1:-1]))
            else:
                out.append(piece)
        return tuple(out)

    def note(self, p: m.Provenance) -> Line:
        """A reference to the note of this provenance (notes with the same text are one), or nothing."""
        items = tuple([(self.words["source"], s) for s in p.sources] + [(self.words["ruling"], r) for r in p.rulings]
                      + [(self.words["assumed"], a) for a in p.assumptions])
        if not items:
            return ()
        number = self.notes.setdefault(items, len(self.notes) + 1)
        return (Note(number),)

    def code(self, e: object) -> Code:
        return Code(unparse(e))

    def phrase(self, e: object, outer: str = "", last: bool = True) -> Line:
        """A condition in words where its shape is one the book knows (and, or, comparisons,
        counts, a card's attribute, some/every player), each part it does not know in code.
        A quantifier is put in words only where nothing follows it, so its scope is plain."""
        match e:
            case m.Op(op="and" | "or" as op, left=left, right=right) if outer in ("", op):
                return self.phrase(left, op, False) + (self.words[op],) + self.phrase(right, op, last)
            case m.Op(op="==" | "!=" | "<" | "<=" | ">" | ">=" as op, left=left, right=right):
                return self.say(_COMPARE[op], a=self.term(left), b=self.term(right))
            case m.Quantifier(kind=kind, var=var, collection=m.Ref(name="seats"), body=body) \
                    if outer in ("", "and") and last:
                return self.say(f"q_{kind}", var=Code(var), body=self.phrase(body, "q"))
        return (self.code(e),)

    def term(self, e: object) -> Line:
        """A value inside a condition: a count, a card's attribute, a number, an enum value, a
        param with its default; else code."""
        match e:
            case m.Call(function="count", args=(m.Call(function="piles", args=(zone,)),)):
                return self.say("count_piles", zone=self.code(zone))
            case m.Call(function="count", args=(m.ZoneRef() as zone,)):
                return self.say("count_cards", zone=self.code(zone))
            case m.AttrOf(obj=m.Ref(name="card"), attr=attr):
                return self.say("card_attr", attr=Code(attr))
            case m.Const(value=bool()):
                return (self.code(e),)
            case m.Const(value=int() as n):
                return (str(n),)
            case m.Const(value=str() as name):
                return (Strong(self.labels.get(name, name)),)
            case m.ParamRef(name=name):
                return (Code(name), f" ({self.model.param(name).default})")
        return (self.code(e),)

    def listing(self, names: Iterable[str], style: Callable[[str], Inline] = Strong) -> Line:
        out: list[Inline] = []
        for i, name in enumerate(names):
            out += ([", "] if i else []) + [style(name)]
        return tuple(out)

    def count(self, e: object) -> Line:
        return (str(e.value),) if isinstance(e, m.Const) else (self.code(e),)

    # -------------------------------------------------------------- the book

    def book(self) -> Book:
        model = self.model
        title = dict(model.names).get(self.lang, model.title)
        sections = [self.aim(), self.reading(), self.components(), self.setup(), self.turn(), self.window(),
                    self.cards(), self.plays(), self.end(), self.scoring(), self.options(), self.params()]
        subtitle = [self.say("players", counts=player_counts(model.counts))]
        if model.documents:
            subtitle.append(self.say("documents", docs=tuple(
                x for i, d in enumerate(model.documents) for x in ((", " if i else ""), Strong(d.id), f" {d.title}")
                if x) + tuple(n for d in model.documents for n in self.note(d.provenance))))
        if model.selection:
            subtitle.append(self.say("selection", selection=Code(model.file + model.selection)))
        if model.house:
            subtitle.append(self.say("house", name=Strong(model.house_name or model.house)))
        ordered = sorted(self.notes, key=self.notes.__getitem__)
        return Book(self.lang, title, tuple(subtitle), tuple(s for s in sections if s is not None), tuple(ordered),
                    self.words["contents"], self.words["notes"], self.example)

    def section(self, anchor: str, title_key: str, blocks: list[Block], level: int = 2) -> Section:
        return Section(anchor, (self.words[title_key],), tuple(blocks), level)

    def reading(self) -> Section:
        return self.section("reading", "reading", [Paragraph(self.say("reading_text"))])

    def aim(self) -> Section:
        mt = self.model.match
        return self.section("aim", "aim", [
            Paragraph(self.say("aim_highest" if mt.winner == "highest" else "aim_lowest")
                      + self.note(mt.winner_provenance)),
            Paragraph(self.until(mt.until) + self.note(mt.until_provenance)),
            Paragraph(self.say("aim_starter", expr=self.code(mt.starter)) + self.note(mt.starter_provenance)),
            Paragraph(self.say("players", counts=player_counts(self.model.counts))
                      + self.note(self.model.players_provenance)),
            *self.teams(),
        ])

    def teams(self) -> list[Paragraph]:
        """Who plays with whom, when the ruleset has teams."""
        teams = self.model.teams
        if teams is None:
            return []
        line = self.say("teams_opposite") if teams.kind == "opposite" else self.say(
            "teams_listed", teams=", ".join("+".join(map(str, team)) for team in teams.listed))
        return [Paragraph(line + self.note(teams.provenance))]

    def until(self, e: object) -> Line:
        """When the match ends; a fixed number of rounds (`round >= N`) in words."""
        match e:
            case m.Op(op=">=", left=m.Ref(name="round"), right=m.Const(value=int() as n)):
                return self.say("aim_rounds", count=(str(n),))
        return self.say("aim_until", cond=self.phrase(e))

    def components(self) -> Section:
        model, w = self.model, self.words
        blocks: list[Block] = []
        attributes = Table((w["attributes"],), ((w["attribute"],), (w["values"],)), tuple(
            ((Code(a.name),) + self.note(a.provenance),
             self.listing([self.labels[v.name] for v in a.values], str) if a.is_enum else
             self.say("numbers", low=str(a.low), high=str(a.high))) for a in model.attributes))
        blocks.append(attributes)
        faces = faces_by_kind(model)
        shown = dict(zip(model.deck, self.compiled.faces, strict=True))
        rows: list[tuple[Line, ...]] = []
        for k in model.kinds:
            kind_faces = faces[k.name]
            rows.append(((Strong(self.kind_names[k.name]),) + self.note(k.provenance),
                         (Code(shown[kind_faces[0]]), " … ", Code(shown[kind_faces[-1]])) if len(kind_faces) > 2 else
                         self.listing([shown[c] for c in kind_faces], Code),
                         (str(k.copies),) + self.note(k.copies_provenance),
                         (str(sum(c.copies for c in kind_faces)),)))
        blocks.append(Table((w["kinds"],), ((w["kind"],), (w["face"],), (w["copies"],), (w["cards"],)), tuple(rows)))
        if model.sets > 1:
            blocks.append(Paragraph(self.say("sets", n=str(model.sets)) + self.note(model.sets_provenance)))
        marks = [(k, mk) for k in model.kinds for mk in k.marks]
        if marks:
            lines: list[Line] = []
            for k, mk in marks:
                where = self.say("mark_where", cond=self.phrase(mk.where)) if mk.where is not None else ()
                key = "mark" if mk.count is not None else "mark_all"
                lines.append((Strong(self.kind_names[k.name]), ": ") + self.say(
                    key, count=str(mk.count), where=where, name=Code(mk.name)) + self.note(mk.provenance))
            blocks.append(Items(tuple(lines)))
        if model.deck_rules:
            blocks.append(Paragraph(self.say("deck_rules")))
            blocks.append(Items(tuple(self.say("deck_rule", name=Code(r.name), cond=self.phrase(r.where))
                                      + self.note(r.provenance)
                                      for r in model.deck_rules)))
        blocks.append(self.deck_table())
        blocks.append(Table((w["zones"],), ((w["zone"],), (w["scope"],), (w["visibility"],), (w["holds"],)), tuple(
            ((Code(z.name),) + self.note(z.provenance), (w["per_seat_zone" if z.per_seat else "shared_zone"],),
             (w[z.visibility],), (w["piles" if z.piles else "plain_cards"],)) for z in model.zones)))
        return self.section("components", "components", blocks)

    def deck_table(self) -> Table:
        w = self.words
        dealt = deals(self.model)
        shared = [z.name for z in self.model.zones if not z.per_seat]
        rows: list[tuple[Line, ...]] = []
        for d in dealt:
            if "problem" in d:
                rows.append(((str(d["players"]),), self.say("problem", problem=d["problem"]))
                            + ((),) * (2 + len(shared)))
            else:
                rows.append(tuple((str(x),) for x in (d["players"], d["deck"], d["per_seat"], d["dealt"],
                                                       *(d["shared"][z] for z in shared))))
        header = ((w["n_players"],), (w["in_play"],), (w["per_seat"],), (w["dealt"],),
                  *(self.say("in_zone", zone=Code(z)) for z in shared))
        return Table((w["deck_table"],), header, tuple(rows))

    def setup(self) -> Section:
        steps = [self.setup_step(s) + self.note(s.provenance) for s in self.model.setup]
        return self.section("setup", "setup", [Items(tuple(steps), ordered=True)])

    def setup_step(self, s: m.Shuffle | m.Deal | m.Transfer | m.Let) -> Line:
        if isinstance(s, m.Shuffle):
            return self.say("shuffle", zone=Code(s.zone))
        if isinstance(s, m.Let):
            value = next(v for v in self.model.values if v.name == s.name)
            return self.say("let", name=Code(s.name), expr=self.code(value.init))
        if isinstance(s, m.Deal):
            line = (self.say("deal_all", source=Code(s.source), dest=Code(s.dest)) if s.count is None else
                    self.say("deal", count=self.count(s.count), source=Code(s.source), dest=Code(s.dest)))
            return line + (self.say("deal_where", cond=self.phrase(s.where)) if s.where is not None else ())
        line = (self.say("move_all", source=Code(s.source), dest=Code(s.dest)) if s.count is None else
                self.say("move", count=self.count(s.count), source=Code(s.source), dest=Code(s.dest)))
        if s.where is not None:
            line += self.say("move_where", cond=self.phrase(s.where))
        if self.model.zone(s.source).per_seat:
            line += self.say("move_each_seat", source=Code(s.source))
        return line

    def turn(self) -> Section:
        steps = tuple(self.turn_step(s) + self.note(s.provenance) for s in self.model.turn)
        return self.section("turn", "turn", [Paragraph(self.say("turn_intro")), Items(steps, ordered=True)])

    def turn_step(self, s: m.PlayStep | m.Draw | m.EffectStep) -> Line:
        if isinstance(s, m.EffectStep):
            line = self.say("step_then") + self.effect(s.effect)
            return line + (self.say("step_when", cond=self.phrase(s.when)) if s.when is not None else ())
        if isinstance(s, m.Draw):
            key = "draw" if self.model.zone(s.dest).per_seat else "draw_shared"
            line = self.say(key, count=self.count(s.count), source=Code(s.source), dest=Code(s.dest))
            return line + (self.say("draw_when", cond=self.phrase(s.when)) if s.when is not None else ())
        plays = self.play_links(s.plays)
        key = "step_any" if s.repeat else "step_may" if s.optional else "step_one"
        line = self.say(key, plays=plays)
        if s.or_pass and not s.optional:
            line += self.say("step_pass")
        return line + (self.say("step_when", cond=self.phrase(s.when)) if s.when is not None else ())

    def play_links(self, names: Iterable[str]) -> Line:
        return self.listing(names, lambda name: Link(name, f"play-{name}"))

    def window(self) -> Section | None:
        wd = self.model.window
        if wd is None:
            return None
        line = self.say("window_text", plays=self.play_links(wd.plays)) + self.note(wd.provenance)
        if wd.when is not None:
            line += self.say("window_when", cond=self.phrase(wd.when))
        return self.section("window", "window", [Paragraph(line)])

    def cards(self) -> Section:
        subsections: list[Block] = []
        for k in self.model.kinds:
            info = self.infos[k.name]
            blocks: list[Block] = [Paragraph(self.say("kind_line", count=(str(info.copies),), total=str(info.cards))
                                + self.note(k.provenance) + self.note(k.copies_provenance))]
            if len(info.faces) > 1:
                blocks.append(Paragraph(self.say("kind_faces", faces=self.listing(info.faces, Code))))
            if info.attributes:
                blocks.append(Paragraph(self.say("kind_attrs", attrs=tuple(
                    x for i, (a, v) in enumerate(info.attributes)
                    for x in ((", " if i else ""), Code(a), " = ", self.value_text(v)) if x))))
            uses: list[Line] = []
            for use in info.uses:
                line = self.say("use_second" if use.second else "use", play=Link(use.play, f"play-{use.play}"),
                                timing=self.when(use.timing))
                if use.condition:
                    line += self.say("use_if", cond=Code(use.condition))
                uses.append(line)
            blocks.append(Items(tuple(uses)) if uses else Paragraph(self.say("kind_unused")))
            title = self.kind_names[k.name]
            subsections.append(Section(f"card-{k.name}",
                                       (title,) if title == k.name else (title, " (", Code(k.name), ")"),
                                       tuple(blocks), 3))
        return self.section("cards", "cards_section", subsections)

    def when(self, timing: tuple[str, ...]) -> Line:
        words = {TURN: "when_turn", WINDOW: "when_window", FINAL: "when_final"}
        return tuple(x for i, when in enumerate(timing)
                     for x in ((self.words["or"] if i else ""), self.words[words[when]]) if x)

    def value_text(self, v: str) -> str:
        """An attribute's value as the card section shows it (`a/b/c` for a kind's varying ones), in the
        book's language."""
        return "/".join(self.labels.get(part, part) for part in v.split("/"))

    def plays(self) -> Section:
        subsections: list[Block] = [Section(f"play-{p.name}", (Strong(p.name),), tuple(self.play(p)), 3)
                                    for p in self.model.plays]
        return self.section("plays", "plays", subsections)

    def play(self, p: m.Play) -> list[Block]:
        if p.value is not None:
            return self.value_play(p)
        own = self.model.zone(p.card_zone).per_seat
        line = self.say("play_card_own" if own else "play_card", zone=Code(p.card_zone))
        if p.meld is not None:  # several cards at once, the condition over the set
            line = self.say("play_meld", low=str(p.meld.low), high=str(p.meld.high), zone=Code(p.card_zone),
                            name=Code(p.meld.name))
            if p.meld.where is not None:
                line += self.say("play_filter", cond=self.phrase(p.meld.where))
        if p.card_filter is not None:
            line += self.say("play_filter", cond=self.phrase(p.card_filter))
        line += self.note(p.card_provenance)
        if p.mate:
            line += self.say("play_mate", name=Code(p.mate.name), zone=Code(p.mate.zone))
            if p.mate.where is not None:
                line += self.say("play_mate_where", cond=self.phrase(p.mate.where))
            line += self.note(p.mate.provenance)
        key = {"": "dest_shared", "self": "dest_self", "any": "dest_any", "other": "dest_other",
               "seat": "dest_seat"}[p.dest_seats]
        line += self.say(key, zone=Code(p.dest_zone), seat=self.code(p.dest_seat) if p.dest_seat is not None else "")
        line += self.note(p.dest_provenance)
        kinds = self.played_with.get(p.name, [])
        header = (self.say("play_with", cards=self.listing(kinds, lambda k: Link(self.kind_names[k], f"card-{k}")),
                           timing=self.when(self.timing[p.name])) if kinds else self.say("play_with_none"))
        blocks: list[Block] = [Paragraph(header), Paragraph(line + self.note(p.provenance))]
        extra: list[Line] = []
        for key, placement in (("new_pile", p.new_pile), ("onto_pile", p.onto_pile)):
            if placement is not None:
                extra.append((self.say(key) if placement.expr is None else
                              self.say(key + "_when", cond=self.phrase(placement.expr)))
                             + self.note(placement.provenance))
        if p.choose:
            c = p.choose
            where = self.say("choose_where", cond=self.phrase(c.where)) if c.where is not None else ()
            key = f"choose_{c.kind}_{'other' if c.seats == 'other' else 'any'}"
            extra.append(self.say(key, name=Code(c.name), zone=Code(c.zone or ""), where=where)
                         + self.note(c.provenance))
        if extra:
            blocks.append(Items(tuple(extra)))
        if p.effects:
            blocks.append(Paragraph(self.say("then")))
            blocks.append(Items(tuple(self.effect(e) + self.note(e.provenance) for e in p.effects), ordered=True))
        return blocks

    def value_play(self, p: m.Play) -> list[Block]:
        """A play of no card: its choices, then its effects."""
        v = p.value
        assert v is not None and v.zone is not None  # `play` sends only plays of a value here
        where = self.say("choose_where", cond=self.phrase(v.where)) if v.where is not None else ()
        items: list[Line] = []
        if p.choose:
            c = p.choose
            chosen = self.say("choose_where", cond=self.phrase(c.where)) if c.where is not None else ()
            items.append(self.say(f"choose_seat_{'other' if c.seats == 'other' else 'any'}", name=Code(c.name),
                                  zone=Code(""), where=chosen) + self.note(c.provenance))
        items.append(self.say("play_value", attribute=Code(v.zone), name=Code(v.name), where=where)
                     + self.note(v.provenance))
        blocks: list[Block] = [Items(tuple(items))]
        if p.effects:
            blocks.append(Paragraph(self.say("then")))
            blocks.append(Items(tuple(self.effect(e) + self.note(e.provenance) for e in p.effects), ordered=True))
        return blocks

    def effect(self, e: object) -> Line:
        if isinstance(e, m.Guarded):
            return self.say("guarded", cond=self.phrase(e.when)) + self.effect(e.effect)
        if isinstance(e, m.SetValue):
            return self.say("set_value", name=Code(e.name), expr=self.code(e.expr))
        if isinstance(e, m.EndTurn):
            return self.say("end_turn")
        if isinstance(e, m.Merge):
            where = self.say("merge_where", cond=self.phrase(e.where)) if e.where is not None else ()
            return self.say("merge", var=Code(e.var), coll=self.code(e.collection), where=where)
        if isinstance(e, m.MoveCards):
            where = (self.say("move_cards_where", var=Code(e.var or "card"), cond=self.phrase(e.where))
                     if e.where is not None else ())
            parts: dict[str, Inline | Line] = dict(source=self.code(e.source), dest=self.code(e.dest), where=where,
                         random=self.words["at_random"] if e.random else "")
            return (self.say("move_cards_all", **parts) if e.count is None else
                    self.say("move_cards", count=self.count(e.count), **parts))
        if isinstance(e, m.MovePile):
            return self.say("move_pile", pile=self.code(e.pile), dest=self.code(e.dest))
        if isinstance(e, m.Reverse):
            return self.say("reverse")
        if isinstance(e, m.NextTurn):
            if isinstance(e.seat, m.Ref) and e.seat.name == "self":
                return self.say("next_turn_self")
            return self.say("next_turn", seat=self.code(e.seat))
        if isinstance(e, m.Swap):
            return self.say("swap", seat=self.code(e.seat), other=self.code(e.other), zones=self.listing(e.zones, Code))
        if isinstance(e, m.PassZone):
            return self.say("pass_zone", zone=Code(e.zone))
        if isinstance(e, m.NoAnswer):
            return self.say("no_answer", seat=self.code(e.seat))
        raise TypeError(f"not an effect: {e!r}")

    def end(self) -> Section:
        model = self.model
        blocks: list[Block] = [Items(tuple((Strong(r.name), ": ") + self.say("round_end", cond=self.phrase(r.cond))
                                    + self.note(r.provenance) for r in model.round_ends))] if model.round_ends else []
        if model.final is not None:
            f = model.final
            line = self.say("final_text", cond=self.phrase(f.when)) + self.note(f.provenance)
            if f.seat_order:
                line += self.say("final_seat_order")
            blocks.append(Section("final", (self.words["final"], " (", Strong(f.name), ")"), (
                Paragraph(line), Paragraph(self.say("final_steps")),
                Items(tuple(self.turn_step(s) + self.note(s.provenance) for s in f.steps), ordered=True)), 3))
        if model.cleanup:
            blocks.append(Paragraph(self.say("cleanup")))
            blocks.append(Items(tuple(self.setup_step(s) + self.note(s.provenance) for s in model.cleanup),
                                ordered=True))
        return self.section("end", "end", blocks)

    def scoring(self) -> Section:
        model = self.model
        sc = model.score
        blocks: list[Block] = [Paragraph(self.say("score", var=Code(sc.var), expr=self.code(sc.expr))
                                         + self.note(sc.provenance))]
        if model.defines:
            blocks.append(Paragraph(self.say("defines")))
            blocks.append(Items(tuple((Code(f"{d.name}({', '.join(d.params)}) = {unparse(d.body)}"),)
                                      + self.note(d.provenance) for d in model.defines)))
        blocks.append(self.worked_example())
        return self.section("scoring", "scoring", blocks)

    def worked_example(self) -> Section:
        w = self.words
        try:
            ex = example(self.compiled)
        except (EngineError, RuntimeError) as e:
            return Section("example", (w["example"],), (Paragraph(self.say("example_none", why=str(e))),), 3)
        self.example = ex
        shown = {z.name: z for z in self.model.zones}
        rows: list[tuple[Line, ...]] = []
        for seat in range(ex.players):
            cells: list[Line] = []
            for name in ex.shown:
                content = ex.zones[name][seat]  # a zone per seat: this seat's piles, or its cards
                if shown[name].piles:
                    cells.append(tuple(x for i, pile in enumerate(cast(list[Faces], content))
                                       for x in ((" " if i else ""), Code("[" + " ".join(pile) + "]"))))
                else:
                    cells.append(self.listing(cast(Faces, content), Code))
            rows.append(((str(seat),), *cells, (Strong(str(ex.scores[seat])),)))
        table = Table((), ((w["seat"],), *((Code(z),) for z in ex.shown), (w["score_col"],)), tuple(rows))
        intro = self.say("example_text", players=str(ex.players), seed=str(ex.seed), end=Strong(ex.end))
        return Section("example", (w["example"],), (Paragraph(intro), table), 3)

    def options(self) -> Section | None:
        model = self.model
        if not model.options:
            return None

        def label(o: m.Option) -> str:
            return dict(o.labels).get(self.lang, o.name)

        selection = Code(model.file + model.selection) if model.selection else self.words["the_base"]
        blocks: list[Block] = [Paragraph(self.say("options_intro", selection=selection))]
        for o in model.options:
            chosen = o.name == model.edition or o.name in model.variants
            lines: list[Line] = []
            if chosen:
                lines.append(self.say("chosen"))
            if o.requires:
                lines.append(self.say("requires", editions=self.listing(o.requires, Code)))
            if o.combines:
                lines.append(self.say("combines", names=self.listing(o.combines, Code)))
            lines.append(self.changes(o))
            title = (self.say(o.kind, name=label(o)) + (" (", Code(o.name), ")") + self.note(o.provenance))
            blocks.append(Section(f"{o.kind}-{o.name}", title, (Items(tuple(x for x in lines if x)),), 3))
        return self.section("options", "options", blocks)

    def changes(self, o: m.Option) -> Line:
        """What choosing the option changes, from the diff of the two checked selections: for a
        variant, this edition without it and with it; for an edition, the first edition and it."""
        model = self.model
        editions = [x.name for x in model.options if x.kind == "edition"]
        left: Selection
        right: Selection
        if o.kind == "edition":
            if not editions or o.name == editions[0]:
                return ()
            left, right = (editions[0], ()), (o.name, ())
        else:
            if o.requires and model.edition not in o.requires:
                return self.say("not_here")
            left, right = (model.edition, ()), (model.edition, (o.name,))
        what = _changes(model.file, left, right)
        if what is None:
            return self.say("not_here")
        other = Code(model.file + m.selection_text(*left)) if left != (None, ()) else self.words["the_base"]
        if not what:
            return self.say("changes_none", other=other)
        return self.say("changes", other=other, what=tuple(
            x for i, (kind, name) in enumerate(what) for x in ((", " if i else ""), *self.say(kind, what=Code(name)))
            if x))

    def params(self) -> Section | None:
        model, w = self.model, self.words
        if not model.params:
            return None
        table = Table(
            (),
            ((w["param"],), (w["default"],), (w["range"],)),
            tuple(
                ((Code(p.name),) + self.note(p.provenance), (Strong(str(p.default)),), (f"{p.low}..{p.high}",))
                for p in model.params
            ),
        )
        return self.section("params", "params", [Paragraph(self.say("params_intro")), table])


_COMPARE = {"==": "is", "!=": "is_not", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _kind_name(kind: m.CardKind, lang: str) -> str:
    """A kind as the book names it: its name in the language, else its one face there, else its own name."""
    names = dict(kind.labels)
    if lang in names:
        return names[lang]
    face = dict(kind.faces).get(lang, kind.face)
    return face if "{" not in face and lang in dict(kind.faces) else kind.name


def player_counts(counts: tuple[int, ...]) -> str:
    """The player counts a ruleset takes, as a person reads them: `4`, `2–6`, or `3, 5`."""
    if len(counts) == 1:
        return str(counts[0])
    return (
        f"{counts[0]}–{counts[-1]}"
        if list(counts) == list(range(counts[0], counts[-1] + 1))
        else ", ".join(map(str, counts))
    )


@lru_cache(maxsize=64)
def _changes(file: str, left: Selection, right: Selection) -> tuple[tuple[str, str], ...] | None:
    """(kind of change, fact) for each difference of two selections of a file; None when one
    of them is not legal. Cached: the books of many selections compare the same pairs."""
    from .diagnostics import RulesError
    from .diff import diff
    from .load import load
    from .options import SelectionError

    try:
        a, b = load(file, left[0], left[1]).model, load(file, right[0], right[1]).model
    except (RulesError, SelectionError):
        return None
    return tuple((d.kind, d.what) for d in diff(a, b).differences)


# ------------------------------------------------------------------ the worked example


def example(compiled: Compiled, seed: int = EXAMPLE_SEED) -> Example:
    """A match of `compiled` with this seed, played by random moves (their seed the same) to
    the end of its first round: the position the engine scored (after cleanup) and the scores."""
    game = Game(compiled, seed)
    bot = RandomBot(random.Random(seed))
    zones = game.state.zones
    plays = 0
    while not game.state.results:
        if plays >= EXAMPLE_MAX_PLAYS:
            raise RuntimeError(f"random moves did not end a round in {EXAMPLE_MAX_PLAYS:,} plays")
        zones = game.state.zones  # the engine lays out a new round in new lists: these hold the scored one
        game.play(bot.choose(game))
        plays += 1
    result = game.state.results[0]
    faces = compiled.faces
    face_of = compiled.face_of
    model = compiled.model
    position: dict[str, Laid] = {}
    for zone, content in zip(model.zones, zones, strict=True):

        def show(cards: Iterable[int]) -> Faces:
            return [faces[face_of[c]] for c in cards]

        if zone.per_seat:
            position[zone.name] = (
                [[show(p) for p in seat] for seat in content] if zone.piles else [show(seat) for seat in content]
            )
        else:
            position[zone.name] = [show(p) for p in content] if zone.piles else show(content)
    read = zones_read(model.score.expr)
    shown = tuple(z.name for z in model.zones if z.per_seat and z.name in read)
    return Example(compiled.players, seed, result.reason, position, shown, result.scores)


def zones_read(e: object) -> set[str]:
    """The zones an expression reads, through the defines it calls."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, m.ZoneRef):
            found.add(x.zone)
        if isinstance(x, tuple):
            for y in x:
                walk(y)
        elif hasattr(x, "__dataclass_fields__"):
            for name in x.__dataclass_fields__:
                walk(getattr(x, name))

    walk(e)
    return found
