"""What an editor asks of a rules text while it is being written: every diagnostic of every
selection of edition and variants, once each; where a name is defined and used; what stands at
a place (for hover); the names that may be written there (for completion); an outline.
Positions are the AST's own spans (1-based lines and columns, ends exclusive); the language
server turns them into LSP's.

A parse error stops the parser, so the broken clause is cut out and the rest parsed again:
a clause starts at a line's first column with a clause keyword (the layout of every shipped
ruleset and of the docs), and the broken one runs from the clause the error is
in (the one before, when the error is the keyword of the next: an unclosed block) to the next
such start. The blanked text keeps its line breaks, so every later span stays true. The checker
then sees the clauses that parsed; what the missing clause could cause (a name it declares or
uses reported unknown or unused, a clause or card the ruleset then lacks, the deck's size) is
held back rather than reported wrong.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cached_property
from typing import TypeAlias

from . import model as m
from . import options
from . import syntax as s
from .diagnostics import Diagnostic, RulesError, Sink, Span
from .expressions import CONTEXTS, FUNCTIONS, TRUTHS, show
from .load import Loaded, check_selection
from .parse import CLAUSE_KEYWORDS, MAX_TOKENS, parse

MAX_RECOVERIES = 20  # parse errors reported in one file; each costs a parse
_Said: TypeAlias = tuple[str, str, Span | None, str]  # a diagnostic without its file: severity, message, span, hint
_TOO_LONG = f"the file holds more than {MAX_TOKENS:,}"  # the token limit: cutting a clause out would not help
CLAUSE_WORDS = tuple(dict.fromkeys(words.split()[0] for words in CLAUSE_KEYWORDS.split(", ")))  # `end round`: end
_CLAUSE_START = re.compile(r"^(?:" + "|".join(CLAUSE_WORDS) + r")\b(?!\s*[.(])", re.MULTILINE)
_QUOTED = re.compile(r"'([^']+)'")
_DECLARES = re.compile(r"\s*(param|define|attribute|card|zone|play|deck|edition|variant|end\s+round|final\s+round)"
                       r"\s+([A-Za-z_]\w*)")
# whole-ruleset messages a missing clause can cause, held back while a clause is cut out
_WHOLE = ("the ruleset ", "the file holds no rules", "the deck ", "two cards have the face")
# what the names in each clause may read, beyond the ruleset's own (check.CONTEXTS by clause)
_SCOPES = {"play": "PLAY_TARGET", "turn": "TURN_STEP", "window": "TURN_STEP", "final": "TURN_STEP",
           "setup": "SETUP", "cleanup": "SETUP", "deck": "DECK", "match": "MATCH_UNTIL"}
# a list of names of one kind, written after these words
_LISTS = ((r"\bplay\s+(?:one|any)\s+of\s+[\w\s,]*$", ("play",)), (r"\bedition\s+[\w\s,]*$", ("edition",)),
          (r"\bcombines\s+with\s+[\w\s,]*$", ("variant",)))
# what an option changes: `remove card NAME`, `replace play NAME ...`, `extend play NAME ...`
_CHANGED = re.compile(r"^\s*(?:remove|replace|extend)\s+(end\s+round|final\s+round|play|card|zone|param|define|"
                      r"attribute|deck)\s+\w*$")
KINDS = {"param": "param", "define": "define", "enum_attribute": "attribute", "int_attribute": "attribute",
         "card": "card", "zone": "zone", "play": "play", "round_end": "round end", "final": "final round",
         "deck": "deck rule", "edition": "edition", "variant": "variant"}


@dataclass(frozen=True)
class Symbol:
    """A name's definition: what it names, where the name stands, the clause that defines it."""

    name: str
    kind: str  # param, define, attribute, value of ATTR, card, zone, play, mark, document, ...
    span: Span
    clause: s.Clause | None


@dataclass(frozen=True)
class Occurrence:
    """A name written in the text; `local` is the span of the binder a local name refers to."""

    name: str
    span: Span
    local: Span | None = None


@dataclass(frozen=True)
class Outline:
    """One entry of the document's outline, with the entries inside it."""

    name: str
    kind: str
    span: Span
    name_span: Span
    children: tuple[Outline, ...] = ()


@dataclass
class Analysis:
    """One text, parsed as far as it goes, its names indexed; checked in every selection when
    its diagnostics or models are first asked for (completion and hover need no check)."""

    text: str
    file: str
    clauses: list[s.Clause]
    parse_errors: list[Diagnostic]
    cut: list[tuple[int, int]]  # the offsets of the text cut out to parse the rest
    symbols: dict[str, list[Symbol]] = field(default_factory=dict)
    occurrences: list[Occurrence] = field(default_factory=list)
    kinds: dict[Span, tuple[str, ...]] = field(default_factory=dict)  # what a name at a span may name

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The parse errors, then the checker's errors and warnings of every selection, once each."""
        return self._checked[0]

    @property
    def checked(self) -> list[tuple[str, Loaded]]:
        """The selections that check, with their models."""
        return self._checked[1]

    @cached_property
    def _checked(self) -> tuple[list[Diagnostic], list[tuple[str, Loaded]]]:
        cut = [self.text[a:b] for a, b in self.cut]
        held = set(re.findall(r"[A-Za-z_]\w*", " ".join(cut)))
        lost = _declared_in(cut)
        touched = [c.span for c in self.clauses if any(o.name in lost for o in _occurrences(c))]
        seen: dict[_Said, list[str]] = {}
        found: dict[_Said, Diagnostic] = {}
        checked: list[tuple[str, Loaded]] = []
        d = options.declared(self.clauses, Sink(self.file, self.text))
        chosen = options.selections(d) if d.has_options else [(None, ())]
        for edition, variants in chosen:
            selection = m.selection_text(edition, variants)
            diagnostics: Sequence[Diagnostic]
            try:
                loaded = check_selection(self.clauses, self.text, self.file, edition, variants)
                checked.append((selection, loaded))
                diagnostics = loaded.warnings
            except RulesError as e:
                diagnostics = e.diagnostics
            for x in diagnostics:
                if held and (_held(x, held) or (x.span and any(_inside(x.span, t) for t in touched))):
                    continue
                key = (x.severity, x.message, x.span, x.hint)
                found.setdefault(key, x)
                seen.setdefault(key, []).append(selection or "the base")
        out = list(self.parse_errors)
        for key, x in found.items():
            where = seen[key]
            if len(chosen) > 1 and len(where) < len(chosen):
                x = Diagnostic(x.severity, f"{x.message} (in {', '.join(where)})", x.span, x.hint, x.file)
            out.append(x)
        return out, checked

    # -------------------------------------------------------------- lookups

    def at(self, line: int, column: int) -> Occurrence | None:
        """The name written at a 1-based line and column (or just after it: the cursor at its end)."""
        for o in self.occurrences:
            sp = o.span
            if sp.line == line == sp.end_line and sp.column <= column <= sp.end_column:
                return o
        return None

    def resolve(self, o: Occurrence) -> list[Symbol]:
        """What a name written there names: of the definitions of its spelling, those of the
        kinds the place takes (`play one of stop` a play, `card.type == stop` a value)."""
        found = self.symbols.get(o.name, [])
        wanted = self.kinds.get(o.span)
        return ([x for x in found if _fits(x.kind, wanted)] or found) if wanted else found

    def definitions(self, o: Occurrence) -> list[Span]:
        if o.local is not None:
            return [o.local]
        return [sym.span for sym in self.resolve(o)]

    def references(self, o: Occurrence, declarations: bool = True) -> list[Span]:
        """Where the thing named at `o` is written, its definitions first when asked for."""
        if o.local is not None:
            found = [x.span for x in self.occurrences if x.local == o.local and x.span != o.local]
            return ([o.local] if declarations else []) + found
        targets = self.resolve(o)
        sites = {sym.span for sym in self.symbols.get(o.name, [])}
        found = [x.span for x in self.occurrences if x.name == o.name and x.local is None and x.span not in sites
                 and any(_fits(sym.kind, self.kinds.get(x.span)) for sym in targets)]
        return ([sym.span for sym in targets] if declarations else []) + found

    def source(self, span: Span) -> str:
        """The text a span covers."""
        lines = self.text.split("\n")
        part = lines[span.line - 1:span.end_line]
        if not part:
            return ""
        if len(part) == 1:
            return part[0][span.column - 1:span.end_column - 1]
        return "\n".join([part[0][span.column - 1:], *part[1:-1], part[-1][:span.end_column - 1]])

    # -------------------------------------------------------------- hover

    def hover(self, line: int, column: int) -> str | None:
        """Markdown about the name at a place: a card's plays, a define's body and type, a
        zone's scope and visibility, a param's range and default; None when nothing is there."""
        o = self.at(line, column)
        if o is None:
            return None
        if o.local is not None:
            return f"`{o.name}`: a name bound at line {o.local.line}, column {o.local.column}"
        parts = [self._describe(sym) for sym in self.resolve(o)]
        return "\n\n---\n\n".join(p for p in parts if p) or None

    def _describe(self, sym: Symbol) -> str:
        c = sym.clause
        head = f"**{sym.kind}** `{sym.name}`"
        if sym.kind == "card":
            return head + "\n\n" + (self._card(sym.name) or self._code(c))
        if isinstance(c, s.Zone):
            seen = {"hidden": "hidden from every seat", "owner": "seen by its owner only", "public": "seen by all"}
            text = (f"{'one per seat' if c.scope == 'per_seat' else 'shared'}, {seen[c.visibility]}, "
                    f"holds {'piles' if c.layout == 'piles' else 'cards'}")
            return f"{head}: {text}{self.provenance(c)}"
        if isinstance(c, s.Param):
            return f"{head}: default {c.default.value}, range {c.low.value}..{c.high.value}{self.provenance(c)}"
        if sym.kind == "define":
            return f"{head}{self._define_type(sym.name)}\n\n{self._code(c)}"
        if sym.kind.startswith("value of "):
            return f"**{sym.kind.split(' ', 2)[2]}** value `{sym.name}`\n\n{self._code(c)}"
        return f"{head}\n\n{self._code(c)}" if c is not None else head

    def _code(self, c: s.Clause | None) -> str:
        return f"```cardrules\n{self.source(c.span)}\n```" if c is not None else ""

    @staticmethod
    def provenance(c: s.Clause) -> str:
        return "".join(f"\n\n{p.kind}: {p.text}" for p in c.provs)

    def _define_type(self, name: str) -> str:
        for _, loaded in self.checked:
            d = next((d for d in loaded.model.defines if d.name == name), None)
            if d is not None:
                return f": {show(d.body.type)}"  # type: ignore[attr-defined]  # an expression; model types it object
        return ""

    def _card(self, name: str) -> str:
        """What `card NAME` says of a card kind, from the first selection that has it."""
        from .cards import describe  # the engine's tables: only when a card is asked about
        from .compile import ConfigError, compile_ruleset

        for selection, loaded in self.checked:
            if any(k.name == name for k in loaded.model.kinds):
                try:
                    info = describe(compile_ruleset(loaded.model, loaded.model.counts[0]), name)
                except ConfigError:  # no table to lay out at the fewest players: the clause says it
                    return ""
                lines = [f"{len(info.faces)} face{'s' if len(info.faces) != 1 else ''} × {info.copies} "
                         f"cop{'y' if info.copies == 1 else 'ies'}; "
                         + ", ".join(f"{a} {v}" for a, v in info.attributes)]
                lines += [f"*{info.provenance}*"] if info.provenance else []
                lines += [f"*copies: {info.copies_provenance}*"] if info.copies_provenance else []
                lines.append(f"used in {len(info.uses)} play{'s' if len(info.uses) != 1 else ''}"
                             + (f" ({selection})" if selection else "") + (":" if info.uses else ""))
                for use in info.uses:
                    when = ", ".join(use.timing) or "never made"
                    lines.append(f"- **play {use.play}**{' (as its second card)' if use.second else ''}, {when}"
                                 + (f", if `{use.condition}`" if use.condition else "")
                                 + (f" *({use.provenance})*" if use.provenance else ""))
                    lines += [f"  - `{item.text}`" + (f" *({item.provenance})*" if item.provenance else "")
                              for item in use.items]
                return "\n".join(lines)
        return ""

    # -------------------------------------------------------------- completion

    def completions(self, line: int, column: int) -> list[tuple[str, str]]:
        """The words that may be written at a place, as (word, what it is): after `x.` the
        attributes; after `ATTR ==` the attribute's values first; after `play one of` the plays,
        after `remove KIND` the names of that kind; in an expression the names in scope there
        (the ruleset's, the clause's own, the local ones), the functions and the keywords;
        between clauses the clause keywords. A clause cut out to parse the rest still counts
        as the clause its first word says."""
        from ..grammar.textmate import keywords

        lines = self.text.split("\n")
        before = lines[line - 1][:column - 1] if 0 < line <= len(lines) else ""
        def named(*kinds: str) -> list[tuple[str, str]]:
            return [(n, k) for n, syms in self.symbols.items() for k in dict.fromkeys(x.kind for x in syms)
                    if k in kinds or any(k.startswith(x + " ") for x in kinds)]
        if re.search(r"\.\s*\w*$", before):
            return named("attribute", "mark")
        for pattern, kinds in _LISTS:
            if re.search(pattern, before):
                return named(*kinds)
        changed = _CHANGED.search(before)
        if changed:
            word = " ".join(changed.group(1).split())
            return named({"end round": "round end", "deck": "deck rule"}.get(word, word))
        kind = self._kind_at(line, column)
        if kind is None:
            return [(w, "keyword") for w in CLAUSE_WORDS]
        out: list[tuple[str, str]] = []
        compared = re.search(r"(\w+)\s*(?:==|!=|=)\s*\w*$", before)
        if compared:
            out += named(f"value of {compared.group(1)}")
        if re.search(r"\b(?:from|to|into|pass)\s+\w*$", before):
            out += named("zone")
        out += named("zone", "param", "value", "define", "attribute")
        scope = CONTEXTS.get(_SCOPES.get(kind, "GLOBAL"), {})
        out += [(n, f"name: {show(t)}") for n, t in scope.items()]
        out += [(n, "a truth value") for n in TRUTHS]
        clause = self._clause_at(line, column)
        if clause is not None:
            out += [(x.name, "bound here") for x in self.occurrences
                    if x.local is not None and x.local == x.span and _inside(x.span, clause.span)]
        out += [(f, FUNCTIONS[f]) for f in FUNCTIONS]
        out += [(w, "keyword") for w in keywords()]
        return list(dict.fromkeys(out))

    def _kind_at(self, line: int, column: int) -> str | None:
        """The kind of the clause a place is in (read from its first word when it was cut out)."""
        clause = self._clause_at(line, column)
        if clause is not None:
            return clause.kind
        lines = self.text.split("\n")
        offset = sum(len(x) + 1 for x in lines[:line - 1]) + column - 1
        for start, end in self.cut:
            if start < offset <= end:
                word = self.text[start:end].split(None, 1)[0]
                return {"end": "round_end", "attribute": "enum_attribute"}.get(word, word)
        return None

    def _clause_at(self, line: int, column: int) -> s.Clause | None:
        """The clause the place is inside, past its first keyword; None between clauses."""
        def past_keyword(c: s.Clause) -> bool:
            return (line, column) > (c.span.line, _keyword_span(c).end_column)
        return next((c for c in self.clauses if _inside(Span(line, column, line, column), c.span) and past_keyword(c)),
                    None)

    # -------------------------------------------------------------- outline

    def outline(self) -> list[Outline]:
        return [_outline(c) for c in self.clauses]


def _fits(kind: str, wanted: tuple[str, ...] | None) -> bool:
    """Whether a symbol of `kind` may be named where names of the `wanted` kinds stand (any, when None)."""
    return wanted is None or kind in wanted or any(kind.startswith(w + " ") for w in wanted)


def _inside(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def _name(c: s.Clause) -> s.Ident | None:
    """The name a clause gives to what it defines (`play NAME`, `card NAME`), if it has one."""
    name = getattr(c, "name", None)
    return name if isinstance(name, s.Ident) else None


def _keyword_span(c: s.Clause) -> Span:
    return Span(c.span.line, c.span.column, c.span.line, c.span.column + len(c.kind.split("_")[0]))


def _outline(c: s.Clause) -> Outline:
    name = c.seat if isinstance(c, s.Score) else _name(c)  # `score s = ...` shows its seat
    kind = KINDS.get(c.kind, c.kind)
    label = f"{kind} {name.text}" if name else (f'game "{c.title}"' if isinstance(c, s.Game) else kind)
    if isinstance(c, s.For):
        label = "for edition " + ", ".join(i.text for i in c.editions)
    children: list[Outline] = []
    if isinstance(c, s.EnumAttribute):
        children = [Outline(v.name.text, "value", v.name.span, v.name.span) for v in c.values]
    elif isinstance(c, (s.Edition, s.Variant, s.For)):
        for item in c.items:
            if isinstance(item, (s.Replace, s.Extend, s.Add)):
                inner = _outline(item.clause)
                children.append(Outline(f"{item.kind} {inner.name}", inner.kind, item.span, inner.name_span,
                                        inner.children))
            elif isinstance(item, s.For):
                children.append(_outline(item))
            elif isinstance(item, s.Remove):
                what = item.name.text if item.name is not None else ""
                children.append(Outline(f"remove {item.what} {what}".strip(), "remove", item.span, item.span))
    return Outline(label, kind, c.span, name.span if name else _keyword_span(c), tuple(children))


# ------------------------------------------------------------------ parsing with recovery


def parse_recovering(text: str, file: str) -> tuple[list[s.Clause], list[Diagnostic], list[tuple[int, int]]]:
    """The clauses that parse, every parse error found on the way, and the start and end
    offsets of each text cut out (blanked in place, so offsets and spans stay those of `text`)."""
    errors: list[Diagnostic] = []
    current = text
    cut: list[tuple[int, int]] = []
    for _ in range(MAX_RECOVERIES):
        try:
            return parse(current, file), errors, cut
        except RulesError as e:
            error = e.diagnostics[0]
            errors.append(error)
            region = _broken_clause(current, error.span)
            if region is None or error.message.startswith(_TOO_LONG):
                break
            start, end = region
            cut.append(region)
            current = current[:start] + re.sub(r"[^\n]", " ", current[start:end]) + current[end:]
    return [], errors, [(0, len(text))]


def _offset(text: str, line: int, column: int) -> int:
    at = 0
    for _ in range(line - 1):
        nl = text.find("\n", at)
        if nl < 0:
            return len(text)
        at = nl + 1
    end = text.find("\n", at)
    return min(at + column - 1, len(text) if end < 0 else end)


def _broken_clause(text: str, span: Span | None) -> tuple[int, int] | None:
    """The start and end offsets of the clause a parse error stands in, or None."""
    if span is None:
        return None
    error = _offset(text, span.line, span.column)
    starts = [m_.start() for m_ in _CLAUSE_START.finditer(text)]
    before = [x for x in starts if x < error]
    begin = before[-1] if before else 0
    end = error if error in starts else next((x for x in starts if x > error), len(text))
    return (begin, end) if begin < end else None


# ------------------------------------------------------------------ analysis


def analyze(text: str, file: str = "<input>") -> Analysis:
    """Parse (recovering) and index the names; the check waits until it is asked for."""
    clauses, errors, cut = parse_recovering(text, file)
    analysis = Analysis(text, file, clauses, errors, cut)
    _index(analysis)
    return analysis


def _declared_in(cut: list[str]) -> set[str]:
    """The names the cut-out texts declare: a clause's name, an attribute's values."""
    names = set()
    for text in cut:
        head = _DECLARES.match(text)
        if head is None:
            continue
        names.add(head.group(2))
        if head.group(1) == "attribute" and "{" in text:
            body = re.sub(r'"[^"\n]*"?', " ", text.split("{", 1)[1].split("}", 1)[0])
            names.update(re.findall(r"[A-Za-z_]\w*", body))
    return names


def _occurrences(c: s.Clause) -> list[Occurrence]:
    out: list[Occurrence] = []
    _names(c, {}, out)
    return out


def _held(d: Diagnostic, cut_words: set[str]) -> bool:
    """Whether the text cut out could be what the diagnostic is about."""
    if d.message.startswith(_WHOLE) or d.message.endswith("is never used"):
        return True
    return any(word in cut_words for quoted in _QUOTED.findall(d.message) for word in quoted.split())


# ------------------------------------------------------------------ the index of names


def _index(a: Analysis) -> None:
    def define(ident: s.Ident, kind: str, clause: s.Clause) -> None:
        a.symbols.setdefault(ident.text, []).append(Symbol(ident.text, kind, ident.span, clause))

    def definitions(c: s.Clause) -> None:
        kind, name = KINDS.get(c.kind), _name(c)
        if kind is not None and name is not None:
            define(name, kind, c)
        if isinstance(c, s.EnumAttribute):
            for value in c.values:
                define(value.name, f"value of {c.name.text}", c)
        for item in c.items:
            if isinstance(item, s.Document):
                define(item.id, "document", item)
            elif isinstance(item, s.Mark):
                define(item.name, "mark", item)
            elif isinstance(item, s.Let):  # a named value, of setup or of the match
                define(item.name, "named value", item)
            elif isinstance(item, (s.Replace, s.Extend, s.Add)):
                definitions(item.clause)
            elif isinstance(item, s.For):
                definitions(item)

    for c in a.clauses:
        definitions(c)
        _names(c, {}, a.occurrences)
    a.kinds.update({sym.span: (sym.kind,) for syms in a.symbols.values() for sym in syms})
    for c in a.clauses:
        _place_kinds(c, a.kinds)


_ZONE = ("zone",)
# what a bare name in an expression may name
_EXPRESSION = ("zone", "param", "value", "attribute", "define", "named value")
# clause or item class -> {field: the kinds of the names written there}
_PART_KINDS: dict[type[s.Clause], dict[str, tuple[str, ...]]] = {
    s.PlayStep: {"plays": ("play",)}, s.WindowPlays: {"plays": ("play",)}, s.Requires: {"editions": ("edition",)},
    s.For: {"editions": ("edition",)}, s.Combines: {"variants": ("variant",)}, s.CardFrom: {"zone": _ZONE},
    s.With: {"zone": _ZONE}, s.To: {"zone": _ZONE}, s.Choose: {"zone": _ZONE},
    s.ChooseValue: {"attribute": ("attribute",)}, s.SetValue: {"name": ("named value",)},
    s.Shuffle: {"zone": _ZONE}, s.Deal: {"source": _ZONE, "dest": _ZONE},
    s.Move: {"source": _ZONE, "dest": _ZONE}, s.Draw: {"source": _ZONE, "dest": _ZONE}, s.Swap: {"zones": _ZONE},
    s.PassZone: {"zone": _ZONE}, s.Each: {"attribute": ("attribute",)},
    s.Fixed: {"attribute": ("attribute",), "value": ("value",)},
}
_REMOVED = {"round_end": "round end", "final": "final round", "deck": "deck rule"}


def _place_kinds(node: object, kinds: dict[Span, tuple[str, ...]]) -> None:
    """Note, for each name whose place says what it names, the kinds it may name; a place
    already noted (a definition) keeps its own."""
    def note(ident: object, wanted: tuple[str, ...]) -> None:
        for x in (ident if isinstance(ident, tuple) else (ident,)):
            if isinstance(x, (s.Ident, s.Name)):
                kinds.setdefault(x.span, wanted)

    match node:
        case s.Name():
            note(node, _EXPRESSION)
        case s.Call(function=f):
            note(f, ("define",))
        case s.Attr(attr=attr):
            note(attr, ("attribute", "mark"))
        case s.ZoneOf(zone=zone):
            note(zone, _ZONE)
        case s.Remove(what=what, name=ident):
            note(ident, (_REMOVED.get(what, what),))
        case s.Clause():
            for name, wanted in _PART_KINDS.get(type(node), {}).items():
                note(getattr(node, name), wanted)
    match node:
        case s.Clause():
            for name in (*node.fields, "items"):
                _place_kinds(getattr(node, name), kinds)
        case tuple() | list():
            for x in node:
                _place_kinds(x, kinds)
        case _ if is_dataclass(node):
            for part in fields(node):
                if part.name not in ("span", "provs"):
                    _place_kinds(getattr(node, part.name), kinds)


def _names(node: object, bound: dict[str, Span], out: list[Occurrence]) -> None:
    """Every name written in a node, each with the binder it refers to when it is local."""
    match node:
        case s.Ident(text=text, span=span):
            out.append(Occurrence(text, span, bound.get(text)))
        case s.Name(id=text, span=span):
            out.append(Occurrence(text, span, bound.get(text)))
        case s.Quantifier(var=var, collection=coll, body=body) | s.EachArg(var=var, collection=coll, body=body):
            _names(coll, bound, out)
            out.append(Occurrence(var.text, var.span, var.span))
            _names(body, {**bound, var.text: var.span}, out)
        case s.Clause():
            _clause_names(node, bound, out)
        case tuple() | list():
            for x in node:
                _names(x, bound, out)
        case _ if is_dataclass(node):
            for f in fields(node):
                if f.name not in ("span", "provs"):
                    _names(getattr(node, f.name), bound, out)


# the play items that name what they bind: the field holding the name
_PLAY_BINDERS: dict[type[s.Clause], str] = {s.With: "name", s.Choose: "name", s.ChooseValue: "name", s.Merge: "var",
                                            s.MoveCards: "var"}


def _clause_names(c: s.Clause, bound: dict[str, Span], out: list[Occurrence]) -> None:
    binders: list[s.Ident] = []
    if isinstance(c, s.Define):
        binders = list(c.params)
    elif isinstance(c, s.Score):
        binders = [c.seat]
    elif isinstance(c, s.Play):
        for item in c.items:
            ident = getattr(item, _PLAY_BINDERS.get(type(item), ""), None)
            if isinstance(ident, s.Ident):
                binders.append(ident)
    inner = {**bound, **{b.text: b.span for b in binders}}
    for name in c.fields:
        if name == "language" and isinstance(c, (s.Label, s.Language, s.Face)):
            continue  # a language's code, not a name of the ruleset
        if (name, type(c)) in (("params", s.Define), ("seat", s.Score)):
            out.extend(Occurrence(b.text, b.span, b.span) for b in binders)
        else:
            _names(getattr(c, name), bound if isinstance(c, (s.Play, s.Define)) and name == "name" else inner, out)
    _names(c.items, inner, out)
