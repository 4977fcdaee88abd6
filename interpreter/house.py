"""House rules: a YAML file that changes a ruleset without editing it.

    # yaml-language-server: $schema=../../schemas/house-rules.schema.json
    ruleset: mygame.rules            # a path from this file's folder, or a shipped ruleset's name
    edition: second                  # a ruleset with editions and variants: which, and which options on
    variants: [short]
    name: Short hands
    description: Three cards are too few for six players.
    changes:
      - set: hand_size               # a param the ruleset declares, within its range
        to: 4
      - card: joker                  # a card kind's copies
        copies: 4
      - add: wild                    # more copies of a kind the ruleset defines
        copies: 2
      - remove: skip                 # a card kind out of the game
      - replace: play draw_two       # a named clause, by a snippet of the rules language
        with: |
          play draw_two { card from hand where card.rank == two  to discard  then next turn to self }
        why: we like a two that only skips    # any change may say why: shown as its ruling

Checked in three steps, each error at its place: the file against the schema (at the YAML
node), the patch against the ruleset (an unknown card, a clause the ruleset does not have, a
value out of range, options that do not combine, a snippet that does not parse: at the YAML
node, a snippet's error at its line inside the YAML), and the patched ruleset by the checker,
for every player count (a deck too small to deal). The patch works on the ruleset's clauses
after its edition and variants are applied, so the model that comes out is checked exactly
like a file. Nothing in the YAML is ever executed.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NotRequired, TypedDict, cast

import yaml

from . import options
from . import syntax as s
from .compile import ConfigError, compile_ruleset
from .diagnostics import RulesError, Sink, Span
from .expressions import near
from .load import Loaded, check_selection, load_all, named_ruleset, read
from .parse import parse
from .yamlfile import Located, NodePath, Schema, node_at, read_file, read_yaml, shipped_schema, validate

SCHEMA = "house-rules.schema.json"

# A change as the schema allows it: `set`+`to`, `card`+`copies`, `add` (+`copies`), `remove`, or
# `replace`+`with`; any of them `why`.
Change = TypedDict("Change", {"set": str, "to": int, "card": str, "add": str, "remove": str, "copies": int,
                              "replace": str, "with": str, "why": str}, total=False)


class HouseData(TypedDict):
    """A house-rules file that the schema passed."""

    ruleset: str
    name: str
    changes: list[Change]
    edition: NotRequired[str]
    variants: NotRequired[list[str]]
    description: NotRequired[str]


@dataclass(frozen=True)
class House:
    file: str  # the name to show
    text: str
    tree: yaml.Node  # the composed YAML: its nodes know their lines
    data: HouseData
    ruleset: Path

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def changes(self) -> list[Change]:
        return self.data["changes"]

    def here(self) -> Located:
        return Located(self.file, self.text, self.tree)


def read_house(path: str) -> House:
    """Step one: the file, read safely and valid against the schema; its ruleset found."""
    where = Path(path)
    text = read_file(path, "the house rules", "a house-rules YAML file")
    tree, raw = read_yaml(text, path, "ruleset")
    here = Located(path, text, tree)
    validate(raw, shipped_schema(SCHEMA), here)
    here.stop()
    data = cast(HouseData, raw)  # the schema passed it
    ruleset, problem = named_ruleset(data["ruleset"], where.parent)
    if ruleset is None:
        here.error(("ruleset",), problem, "the path is relative to this file's folder, or names a shipped ruleset")
        here.stop()
    assert ruleset is not None  # else stop() raised the error
    return House(path, text, tree, data, ruleset)


def apply_house(house: House) -> Loaded:
    """Steps two and three: the ruleset with the changes, checked; a `RulesError` located in
    the house file (or, for what the changes break elsewhere, in the ruleset)."""
    text, name = read(str(house.ruleset))
    clauses = parse(text, name)
    edition, variants = _selection(house, clauses, text, name)
    here = house.here()
    try:
        loaded = check_selection(clauses, text, name, edition, variants,
                                 patch=lambda chosen: _patch(chosen, house, here), others={house.file: house.text})
    except _PatchFailed:
        here.stop()
        raise
    _deals(loaded, house, here)
    model = replace(loaded.model, house=house.file, house_name=house.name)
    return Loaded(model, loaded.text, loaded.warnings)


def load_house(path: str) -> Loaded:
    return apply_house(read_house(path))


# ---------------------------------------------------------------- step two: the patch


class _PatchFailed(Exception):
    """The patch found errors, already located in the house file's `Located`."""


def _selection(house: House, clauses: list[s.Clause], text: str, name: str) -> tuple[str | None, tuple[str, ...]]:
    """The edition and variants the house file names, each refusal at its node."""
    here, data = house.here(), house.data
    d = options.declared(clauses, Sink(name, text))
    variants = tuple(data.get("variants", ()))
    try:
        edition, variants = options.choose(d, data.get("edition"), variants)
    except options.SelectionError as e:
        at = ("edition",) if "edition" in data and data["edition"] not in d.editions else (
            "variants", next(i for i, v in enumerate(data["variants"]) if v not in d.variants))
        here.error(at, e.message, e.hint)
        here.stop()
    refusals = Sink(name, text)
    if not options.legal(d, edition, variants, refusals):
        for diagnostic in refusals.errors:
            here.error(("variants",), diagnostic.message, diagnostic.hint)
        here.stop()
    return edition, variants


def _patch(chosen: list[s.Clause], house: House, here: Located) -> list[s.Clause]:
    clauses = list(chosen)
    for i, change in enumerate(house.changes):
        at = ("changes", i)
        why = s.Prov("ruling", f"house rules '{house.name}' ({house.file}): "
                     + change.get("why", house.data.get("description", "")).strip())
        if "set" in change:
            _set(clauses, change, at, why, here)
        elif "replace" in change:
            _replace(clauses, change, at, why, house, here)
        else:
            _cards(clauses, change, at, why, here)
    if here.items:
        raise _PatchFailed
    return clauses


def _find(clauses: list[s.Clause], key: tuple[str, str | None], at: NodePath, here: Located, what: str) -> int | None:
    index = next((i for i, c in enumerate(clauses) if options.key(c) == key), None)
    if index is None:
        names = [name for kind, name in map(options.key, clauses) if kind == key[0] and name]
        here.error(at, f"the ruleset has no {what} '{key[1]}'",
                   near(key[1] or "", names) or f"its {what}s: {', '.join(names) or 'none'}")
    return index


def _set(clauses: list[s.Clause], change: Change, at: NodePath, why: s.Prov, here: Located) -> None:
    index = _find(clauses, ("param", change["set"]), at + ("set",), here, "param")
    if index is None:
        return
    c = clauses[index]
    assert isinstance(c, s.Param)  # found by its key, ("param", NAME)
    name, default, low, high = c.name, c.default, c.low, c.high
    if not low.value <= change["to"] <= high.value:
        here.error(at + ("to",), f"'{name.text}' takes {low.value}..{high.value}, not {change['to']}",
                   f"the ruleset declares its range (line {c.span.line}); its default is {default.value}")
        return
    clauses[index] = c.replace(default=s.Number(change["to"], _in_house(here, at + ("to",))), provs=c.provs + (why,))


def _cards(clauses: list[s.Clause], change: Change, at: NodePath, why: s.Prov, here: Located) -> None:
    verb = next(k for k in ("card", "add", "remove") if k in change)
    index = _find(clauses, ("card", change[verb]), at + (verb,), here, "card")
    if index is None:
        return
    c = clauses[index]
    if verb == "remove":
        del clauses[index]
        return
    old = next((i for i in c.items if isinstance(i, s.Copies)), None)
    now = old.count.value if old else 1
    copies = change["copies"] if verb == "card" else now + change.get("copies", 1)
    if copies > 1000:
        here.error(at + ("copies",), f"{copies} copies of '{change[verb]}'", "a card has 1 to 1,000 copies")
        return
    span = _in_house(here, at + ("copies",) if "copies" in change else at)  # what the checker finds is told here
    item = s.Copies(s.Number(copies, span), provs=(why,), span=span)
    items = tuple(item if i is old else i for i in c.items) if old else c.items + (item,)
    clauses[index] = c.replace(items=items)


def _in_house(here: Located, path: NodePath) -> Span:
    """The span of a YAML node, naming the house file: a value it sets is reported there."""
    return replace(here.span(path), file=here.file)


def _replace(clauses: list[s.Clause], change: Change, at: NodePath, why: s.Prov, house: House, here: Located) -> None:
    key = options.read_key(change["replace"])
    if key is None:
        here.error(at + ("replace",), f"'{change['replace']}' does not name a clause",
                   "write its kind and name as the file does, e.g. play stop, end round empty, setup")
        return
    index = _find(clauses, key, at + ("replace",), here, options.KIND_WORDS.get(key[0], key[0]))
    if index is None:
        return
    node = node_at(house.tree, at + ("with",))
    if not isinstance(node, yaml.ScalarNode) or node.style != "|":
        here.error(at + ("with",), "a snippet is written as a literal block",
                   "write `with: |` and the clause on the lines below it, indented")
        return
    try:
        snippet = parse(_only(house.text, node), house.file, foreign=True)
    except RulesError as e:
        for d in e.diagnostics:
            here.items.append(d)
        return
    if len(snippet) != 1 or options.key(snippet[0]) != key:
        found = ", ".join(options.show_key(options.key(c)) for c in snippet) or "nothing"
        here.error(at + ("with",), f"the snippet must be one clause, {options.show_key(key)}; it holds {found}",
                   f"write {options.show_key(key)} {{ ... }} with the same kind and name")
        return
    clauses[index] = snippet[0].replace(provs=snippet[0].provs + (why,))


def _only(text: str, node: yaml.ScalarNode) -> str:
    """The YAML text with everything but the block scalar's lines blanked: the snippet parses
    where it stands, so its errors point at the house file's own lines and columns."""
    first, last = node.start_mark.line + 1, node.end_mark.line + (1 if node.end_mark.column else 0)
    return "\n".join(line if first <= i < last else "" for i, line in enumerate(text.split("\n")))


def describe(change: Change) -> str:
    """One change in words, as `house check` lists it."""
    if "set" in change:
        text = f"set {change['set']} to {change['to']}"
    elif "card" in change:
        text = f"{change['card']}: {change['copies']} copies of each face"
    elif "add" in change:
        text = f"{change['add']}: {change.get('copies', 1)} more of each face"
    elif "remove" in change:
        text = f"{change['remove']}: out of the game"
    else:
        text = f"{change['replace']}: rewritten"
    return text + (f" ({change['why']})" if change.get("why") else "")


# ---------------------------------------------------------------- step three: every player count


def _deals(loaded: Loaded, house: House, here: Located) -> None:
    """The patched deck must still deal every allowed player count: told at the change that
    takes cards away (or at `changes`)."""
    cutting = next((("changes", i) for i, c in enumerate(house.changes)
                    if "remove" in c or ("card" in c and "copies" in c)), ("changes",))
    for n in loaded.model.counts:
        try:
            compile_ruleset(loaded.model, n)
        except ConfigError as e:
            here.error(cutting, f"with {n} players: {e}", "the changes leave too few cards: deal fewer "
                       "(a param such as hand_size), or keep more copies")
    here.stop()


# ---------------------------------------------------------------- the schema of one ruleset


def ruleset_schema(path: str) -> Schema:
    """The house-rules schema narrowed to one ruleset, over all its legal selections: the names
    of its params (each with its range), cards, clauses, editions and variants, so that an
    editor completes and checks them as they are typed. A `RulesError` if the ruleset does not
    check."""
    text, name = read(path)
    clauses = parse(text, name)
    d = options.declared(clauses, Sink(name, text))
    chosen = [options.apply(d, e, v, Sink(name, text)) for e, v in (options.selections(d) if d.has_options
                                                                   else [(None, ())])]
    models = [loaded.model for _, loaded in load_all(text, name) if isinstance(loaded, Loaded)]
    if not models:
        raise next(e for _, e in load_all(text, name) if isinstance(e, RulesError))
    schema = copy.deepcopy(shipped_schema(SCHEMA))
    params = {p.name: p for m in models for p in m.params}
    defs, props = schema["$defs"], schema["properties"]
    schema["title"] = f"house rules for {models[0].title} ({name})"
    defs["param"] = {"enum": sorted(params), "description": "a param of the ruleset"}
    defs["card"] = {"enum": sorted({k.name for m in models for k in m.kinds}),
                    "description": "a card kind of the ruleset"}
    defs["clause"] = {"enum": sorted({options.show_key(options.key(c)) for cs in chosen for c in cs}),
                      "description": "a clause of the ruleset, by kind and name"}
    editions, variants = list(d.editions), list(d.variants)
    props["edition"] = {"enum": editions} if editions else {"not": {}, "description": "the ruleset has no editions"}
    props["variants"]["items"] = ({"enum": variants} if variants
                                  else {"not": {}, "description": "the ruleset has no variants"})
    defs["set"]["allOf"] = [{"if": {"properties": {"set": {"const": p.name}}},
                             "then": {"properties": {"to": {"minimum": p.low, "maximum": p.high,
                                                            "description": f"{p.low}..{p.high}, default {p.default}"}}}}
                            for p in params.values()]
    return schema
