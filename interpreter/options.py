"""Editions and variants: one file, many rulesets.

A file's top-level clauses are the base. An `edition NAME { ... }` or `variant NAME { ... }`
changes named clauses of the base: `replace` one, `extend` one's block with more items, `remove`
one, or add a new clause. Choosing one edition and some variants turns the file into the
clauses of one ruleset, before the checker sees them, so every selection is checked exactly as
a file without options would be. Clauses are found by kind and name (`play draw`, `deck
first_game`); a clause the file has once (`setup`, `window`, `players`) by its kind.

A variant says which editions it exists in (`requires edition ru`) and which variants it may
be chosen with (`combines with first_game`); a selection outside that is an error located
at the variant that refuses it.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TypeAlias

from . import model as m
from . import syntax as s
from .diagnostics import Sink
from .errors import EXIT_USAGE, CardrulesError
from .expressions import near, provenance

OPTION_KINDS = ("edition", "variant")
NAMED = {"play", "card", "zone", "param", "define", "attribute", "deck", "round_end", "final"}
SINGLE = {"game", "players", "setup", "cleanup", "turn", "window", "score", "match", "decks", "teams", "display"}
# blocks whose header is a keyword and a name
EXTENDABLE = {"game", "card", "setup", "cleanup", "play", "turn", "window", "match", "display"}
KIND_WORDS = {"round_end": "end round", "final": "final round"}
Option: TypeAlias = "s.Edition | s.Variant"


class SelectionError(CardrulesError):
    """An edition or variant the file does not declare: a mistake on the command line."""

    exit_code = EXIT_USAGE


def key(c: s.Clause) -> tuple[str, str | None]:
    """How an option names a clause: its kind, and its name when the file may have several."""
    kind = "attribute" if c.kind in ("enum_attribute", "int_attribute") else c.kind
    return (kind, c.name.text) if kind in NAMED else (kind, None)  # type: ignore[attr-defined]


def show(k: tuple[str, str | None]) -> str:
    word = KIND_WORDS.get(k[0], k[0])
    return f"{word} '{k[1]}'" if k[1] is not None else f"the {word} clause"


def show_key(k: tuple[str, str | None]) -> str:
    """A clause's key as a file writes it: `play stop`, `end round empty`, `setup`."""
    word = KIND_WORDS.get(k[0], k[0])
    return f"{word} {k[1]}" if k[1] is not None else word


def read_key(text: str) -> tuple[str, str | None] | None:
    """`play stop` -> ("play", "stop"); `end round empty` -> ("round_end", "empty"); `setup` ->
    ("setup", None); None for text that names no clause."""
    words = text.split()
    for kind, word in KIND_WORDS.items():
        if " ".join(words[:2]) == word and len(words) == 3:
            return (kind, words[2])
    if len(words) == 2 and words[0] in NAMED:
        return (words[0], words[1])
    if len(words) == 1 and words[0] in SINGLE:
        return (words[0], None)
    return None


def _combine(d: Declared, a: str, b: str) -> bool:
    """Two variants may be chosen together when either says it combines with the other."""
    return b in d.combines(d.variants[a]) or a in d.combines(d.variants[b])


@dataclass(frozen=True)
class Declared:
    """The base clauses and the options of a file, in file order."""

    base: tuple[s.Clause, ...]
    editions: dict[str, Option]
    variants: dict[str, Option]

    @property
    def has_options(self) -> bool:
        return bool(self.editions or self.variants)

    def language(self, edition: str | None) -> str | None:
        """The language an edition shows its cards in, when it says."""
        items = self.editions[edition].items if edition in self.editions else ()
        return next((i.language.text for i in items if isinstance(i, s.Language)), None)

    def requires(self, variant: str) -> tuple[str, ...]:
        items = self.variants[variant].items
        return tuple(i.text for item in items if isinstance(item, s.Requires) for i in item.editions)

    def combines(self, option: Option) -> tuple[str, ...]:
        return tuple(i.text for item in option.items if isinstance(item, s.Combines) for i in item.variants)

    def options(self) -> tuple[m.Option, ...]:
        out = []
        for kind, table in (("edition", self.editions), ("variant", self.variants)):
            for name, c in table.items():
                labels = tuple((i.language.text, i.text) for i in c.items if isinstance(i, s.Label))
                out.append(m.Option(kind, name, labels, self.requires(name) if kind == "variant" else (),
                                    self.combines(c), provenance(c.provs, c.span)))
        return tuple(out)


def declared(clauses: list[s.Clause], sink: Sink) -> Declared:
    """Split a file into its base and its options, reporting options that are declared wrong:
    twice, nested, or naming an edition or variant the file does not have."""
    base: list[s.Clause] = []
    editions: dict[str, Option] = {}
    variants: dict[str, Option] = {}
    for c in clauses:
        if not isinstance(c, (s.Edition, s.Variant)):
            base.append(c)
            continue
        table = editions if isinstance(c, s.Edition) else variants
        name = c.name
        if name.text in editions or name.text in variants:
            sink.error(f"'{name.text}' is declared twice as an edition or variant", name.span,
                       "give every edition and variant its own name")
            continue
        table[name.text] = c
    d = Declared(tuple(base), editions, variants)
    for c in (*editions.values(), *variants.values()):
        _check_items(d, c, c.items, sink)
    return d


def _check_items(d: Declared, option: Option, items: tuple[s.Clause, ...], sink: Sink) -> None:
    edition = isinstance(option, s.Edition)
    for item in items:
        if isinstance(item, s.Add) and isinstance(item.clause, (s.Edition, s.Variant)):
            sink.error(f"an {item.clause.kind} inside {option.kind} '{option.name.text}'", item.span,
                       "declare editions and variants at the top level of the file")
        elif isinstance(item, s.Requires):
            if edition:
                sink.error("an edition cannot require an edition", item.span, "`requires edition` is for variants")
            _known(item.editions, d.editions, "edition", sink)
        elif isinstance(item, s.For):
            if edition:
                sink.error("`for edition` belongs in a variant", item.span, "write the clauses in the edition itself")
            _known(item.editions, d.editions, "edition", sink)
            _check_items(d, option, item.items, sink)
        elif isinstance(item, s.Language) and not edition:
            sink.error("a variant has no language of its own", item.span, "give the edition its `language`")
        elif isinstance(item, s.Combines):
            if edition:
                sink.error("editions do not combine: one is chosen", item.span, "`combines with` is for variants")
            _known(item.variants, d.variants, "variant", sink)


def _known(idents: tuple[s.Ident, ...], table: dict[str, Option], what: str, sink: Sink) -> None:
    for ident in idents:
        if ident.text not in table:
            sink.error(f"no {what} '{ident.text}'", ident.span,
                       near(ident.text, table) or f"the file's {what}s: " + (", ".join(table) or "none"))


def choose(d: Declared, edition: str | None,
           variants: tuple[str, ...] | list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The edition (the file's first when none is given) and the variants in file order, or a
    `SelectionError` for a name the file does not declare."""
    for what, names, table in (("edition", [edition] if edition is not None else [], d.editions),
                               ("variant", variants, d.variants)):
        for name in names:
            if name not in table:
                guess = near(name, table)
                raise SelectionError(f"the ruleset has no {what} '{name}'", (guess + " " if guess else "")
                                     + f"Its {what}s: {', '.join(table) or 'none'}.")
    edition = edition if edition is not None else next(iter(d.editions), None)
    return edition, tuple(v for v in d.variants if v in variants)


def legal(d: Declared, edition: str | None, variants: tuple[str, ...], sink: Sink) -> bool:
    """Whether the variants exist in the edition and combine with each other; each refusal is
    reported at the clause of the variant that refuses."""
    ok = True
    for v in variants:
        needs = d.requires(v)
        if needs and edition not in needs:
            item = next(i for i in d.variants[v].items if isinstance(i, s.Requires))
            sink.error(f"variant '{v}' is for edition {' or '.join(needs)}, not {edition or 'the base'}", item.span,
                       f"choose --edition {needs[0]}, or leave out --variant {v}")
            ok = False
    for a, b in itertools.combinations(variants, 2):
        if not _combine(d, a, b):
            clause = d.variants[b]
            mine = ", ".join(d.combines(clause)) or "no other variant"
            sink.error(f"variant '{b}' does not combine with variant '{a}'", clause.name.span,
                       f"'{b}' combines with: {mine}; add `combines with {a}` to one of them if they fit together")
            ok = False
    return ok


def apply(d: Declared, edition: str | None, variants: tuple[str, ...], sink: Sink) -> list[s.Clause]:
    """The base with the edition's changes, then each variant's, in file order."""
    clauses = list(d.base)
    for option in ([d.editions[edition]] if edition else []) + [d.variants[v] for v in variants]:
        _apply_items(clauses, option, option.items, edition, sink)
    return clauses


def _apply_items(clauses: list[s.Clause], option: Option, items: tuple[s.Clause, ...], edition: str | None,
                 sink: Sink) -> None:
    where = f"{option.kind} '{option.name.text}'"
    for item in items:
        if isinstance(item, s.For):
            if edition in {i.text for i in item.editions}:
                _apply_items(clauses, option, item.items, edition, sink)
            continue
        if isinstance(item, s.Remove):
            k = (item.what, item.name.text if item.name is not None else None)
            span = item.name.span if item.name is not None else item.span
        elif isinstance(item, (s.Replace, s.Extend, s.Add)):
            clause = item.clause
            if isinstance(clause, (s.Edition, s.Variant)):
                continue  # reported by declared()
            k, span = key(clause), (clause.name.span if key(clause)[1] is not None else clause.span)  # type: ignore[attr-defined]
        else:
            continue
        at = next((i for i, c in enumerate(clauses) if key(c) == k), None)
        if isinstance(item, s.Add):
            if at is not None:
                sink.error(f"{where} adds {show(k)}, which the ruleset already has", span,
                           "write `replace` to change it, or `extend` to add to its block")
            else:
                clauses.append(clause)
            continue
        if at is None:
            names = [key(c)[1] or "" for c in clauses if key(c)[0] == k[0] and k[1] is not None]
            sink.error(f"{where} cannot {item.kind} {show(k)}: the ruleset has none", span,
                       near(k[1], names) if k[1] is not None and near(k[1], names) else
                       f"{item.kind} a clause the base or an earlier option declares")
        elif isinstance(item, s.Remove):
            del clauses[at]
        elif isinstance(item, s.Replace):
            clauses[at] = clause
        elif clause.kind not in EXTENDABLE:
            sink.error(f"{show(k)} cannot be extended", clause.span,
                       f"extend a block ({', '.join(sorted(EXTENDABLE))}); replace this clause instead")
        else:
            base = clauses[at]
            clauses[at] = base.replace(items=base.items + clause.items, provs=base.provs + clause.provs)


def selections(d: Declared) -> list[tuple[str | None, tuple[str, ...]]]:
    """Every legal selection: each edition with each set of variants that exist in it and
    combine pairwise, in file order."""
    out: list[tuple[str | None, tuple[str, ...]]] = []
    editions: list[str | None] = [*d.editions] or [None]
    for edition in editions:
        names = [v for v in d.variants if not d.requires(v) or edition in d.requires(v)]
        for size in range(len(names) + 1):
            for combo in itertools.combinations(names, size):
                if all(_combine(d, a, b) for a, b in itertools.combinations(combo, 2)):
                    out.append((edition, combo))
    return out

