"""A semantic diff of two checked rulesets: what a rules author cares about, grouped.

Both sides are models, never text: a clause reads as the checker resolved it (a define is
shown as its call, its body compared once on its own), so layout, comments and the order of
clauses in the files make no difference. Each side is flattened into facts, keyed by section
and name (`play plus1`, `zone discard`, `deck with 4 players`), each with its text and its
provenance; the diff is the facts that differ, are added or are removed.

Card kinds are paired by name, and the rest by behaviour: two kinds whose plays go to the
same kind of place, with the same kind of target and effects, at the same timing, are one
role renamed (a card that cancels another, under two names). Plays are paired the same way, through the
cards they play. Renamed names are read as their new names when the two sides are compared,
so a renamed card whose rules are otherwise the same shows only as renamed.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass
from typing import TypeAlias

from . import model as m
from .cards import _effect, _items
from .compile import ConfigError, compile_ruleset
from .unparse import unparse

SECTIONS = ("players and setup", "components and deck", "timing and windows", "cards and their plays",
            "scoring", "end and final round", "match", "options")
BEHAVIOUR_PAIRING = 0.5  # the least similarity of two kinds' behaviour to call them one role renamed

Feature: TypeAlias = tuple[object, ...]  # one thing a play does, with no names in it: ("to", per_seat, ...)


@dataclass(frozen=True)
class Side:
    """One side of a fact: its text (one line an item), where the fact comes from, and where
    each line does when its items cite their own (a play's items)."""

    text: tuple[str, ...]
    provenance: m.Provenance
    cites: tuple[str, ...] = ()  # one a line, or none

    def cite_of(self, line: str) -> str:
        return self.cites[self.text.index(line)] if self.cites and line in self.text else ""


@dataclass(frozen=True)
class Difference:
    section: str
    what: str  # the fact's name, on the right side's terms: "play plus1", "zone discard"
    kind: str  # "changed", "added", "removed" or "renamed"
    left: Side | None
    right: Side | None

    @property
    def changed_lines(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The lines of each side that the other does not have."""
        left, right = (self.left.text if self.left else ()), (self.right.text if self.right else ())
        return tuple(x for x in left if x not in right), tuple(x for x in right if x not in left)


@dataclass(frozen=True)
class Pair:
    left: str
    right: str
    how: str  # "name" or "behaviour"


@dataclass(frozen=True)
class Diff:
    left: m.Ruleset
    right: m.Ruleset
    cards: tuple[Pair, ...]
    plays: tuple[Pair, ...]
    differences: tuple[Difference, ...]

    @property
    def same(self) -> bool:
        return not self.differences


def diff(left: m.Ruleset, right: m.Ruleset) -> Diff:
    cards = _pair_cards(left, right)
    plays = _pair_plays(left, right, cards)
    renames = {p.left: p.right for p in (*cards, *plays) if p.left != p.right}
    a, b = _facts(left, renames), _facts(right, {})
    differences = [Difference("components and deck", f"card {p.left} -> {p.right}", "renamed",
                              Side((p.left,), _kind(left, p.left).provenance),
                              Side((p.right,), _kind(right, p.right).provenance))
                   for p in cards if p.how == "behaviour"]
    for key in sorted(a.keys() | b.keys(), key=lambda k: (SECTIONS.index(k[0]), _order(k[1]))):
        x, y = a.get(key), b.get(key)
        if x is not None and y is not None and x.text == y.text:
            continue
        kind = "changed" if x and y else "removed" if x else "added"
        differences.append(Difference(key[0], key[1], kind, x, y))
    return Diff(left, right, tuple(cards), tuple(plays), tuple(differences))


def _order(name: str) -> list[int | str]:
    """Facts in a natural order: `deck with 10 players` after `deck with 9 players`."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


# ---------------------------------------------------------------- pairing


def _kind(model: m.Ruleset, name: str) -> m.CardKind:
    return next(k for k in model.kinds if k.name == name)


def _plays_of_kinds(model: m.Ruleset) -> dict[str, list[m.Play]]:
    """The plays each card kind can be played by: the faces a play's card filter keeps, by
    the part of it that reads only the card (worked out by the compiler)."""
    compiled = compile_ruleset(model, model.counts[-1])
    out: dict[str, list[m.Play]] = {k.name: [] for k in model.kinds}
    for play in compiled.plays:
        if play.value is not None:  # a play of no card plays no kind
            continue
        faces = play.faces if play.faces is not None else set(compiled.face_of)
        for kind in {model.deck[f].kind for f in faces}:
            out[kind].append(play.model)
    return out


def _timing(model: m.Ruleset) -> dict[str, str]:
    """When each play may be made: in the turn, in the response window, in the final round."""
    out: dict[str, set[str]] = {p.name: set() for p in model.plays}
    for step in model.turn:
        for name in getattr(step, "plays", ()):
            out[name].add("turn")
    for name in model.window.plays if model.window else ():
        out[name].add("window")
    for step in model.final.steps if model.final else ():
        for name in getattr(step, "plays", ()):
            out[name].add("final")
    return {name: "+".join(sorted(t)) for name, t in out.items()}


def _signature(model: m.Ruleset, play: m.Play, timing: dict[str, str]) -> frozenset[Feature]:
    """What a play does, with no names in it: its timing, where its card goes and how, what it
    targets and which effects follow."""
    parts: set[Feature]
    if play.value is not None:  # a play of no card: what it names instead
        parts = {("timing", timing[play.name]), ("value", play.value.zone)}
    else:
        zone = model.zone(play.dest_zone)
        parts = {("to", zone.per_seat, zone.visibility, zone.piles, play.dest_seats)}
    parts |= {("timing", timing[play.name]),
             ("new pile", play.new_pile is not None), ("onto pile", play.onto_pile is not None),
             ("with", play.mate is not None)}
    if play.choose:
        parts.add(("choose", play.choose.kind, play.choose.seats))
    parts |= {("effect", type(e).__name__, getattr(e, "random", None), _zone_name(getattr(e, "dest", None)))
              for e in play.effects}
    return frozenset(parts)


def _zone_name(e: object) -> str | None:
    """The zone an effect moves cards into, when it names one."""
    return e.zone if isinstance(e, m.ZoneRef) else None


def _similarity(a: Set[Feature], b: Set[Feature]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _pair_cards(left: m.Ruleset, right: m.Ruleset) -> list[Pair]:
    names_l, names_r = [k.name for k in left.kinds], [k.name for k in right.kinds]
    pairs = [Pair(n, n, "name") for n in names_l if n in names_r]
    plays_l, plays_r = _plays_of_kinds(left), _plays_of_kinds(right)
    timing_l, timing_r = _timing(left), _timing(right)
    lonely_l = [n for n in names_l if n not in names_r]
    lonely_r = [n for n in names_r if n not in names_l]
    own_l = {n: _own(plays_l, n) for n in lonely_l}
    own_r = {n: _own(plays_r, n) for n in lonely_r}
    # half what the plays do, half how their rules read with the card's own name taken out
    scored = sorted(((_similarity(_behaviour(left, own_l[a], timing_l), _behaviour(right, own_r[b], timing_r)) / 2
                      + difflib.SequenceMatcher(None, _rules_text(own_l[a], a).split(),
                                                _rules_text(own_r[b], b).split()).ratio() / 2,
                      a, b) for a in lonely_l for b in lonely_r), reverse=True)
    taken_l: set[str] = set()
    taken_r: set[str] = set()
    for score, a, b in scored:
        if score >= BEHAVIOUR_PAIRING and a not in taken_l and b not in taken_r:
            pairs.append(Pair(a, b, "behaviour"))
            taken_l.add(a)
            taken_r.add(b)
    return pairs


def _own(plays: dict[str, list[m.Play]], name: str) -> list[m.Play]:
    """A kind's own plays: not those that take most kinds alike, such as a discard."""
    return [p for p in plays[name] if sum(p in ps for ps in plays.values()) <= len(plays) // 2]


def _behaviour(model: m.Ruleset, plays: list[m.Play], timing: dict[str, str]) -> set[Feature]:
    return {part for p in plays for part in _signature(model, p, timing)}


def _rules_text(plays: list[m.Play], name: str) -> str:
    own = re.compile(rf"\b{re.escape(name)}\b")
    return "\n".join(own.sub("SELF", item.text) for p in plays for item in _items(p))


def _pair_plays(left: m.Ruleset, right: m.Ruleset, cards: list[Pair]) -> list[Pair]:
    """Plays by name, then by the cards they play: a left play and a right play whose cards
    are paired are one play renamed when they do the same kind of thing."""
    names_r = {p.name for p in right.plays}
    pairs = [Pair(p.name, p.name, "name") for p in left.plays if p.name in names_r]
    kinds_l, kinds_r = _plays_of_kinds(left), _plays_of_kinds(right)
    timing_l, timing_r = _timing(left), _timing(right)
    lonely_r = {p.name: p for p in right.plays if p.name not in {x.name for x in left.plays}}
    taken: set[str] = set()
    for play in (p for p in left.plays if p.name not in names_r):
        theirs = {q.name for card in cards for q in kinds_r.get(card.right, ())
                  if play in kinds_l.get(card.left, ()) and q.name in lonely_r and q.name not in taken}
        best = max(((_similarity(_signature(left, play, timing_l), _signature(right, lonely_r[q], timing_r)), q)
                    for q in theirs), default=None)
        if best is not None and best[0] >= BEHAVIOUR_PAIRING:
            pairs.append(Pair(play.name, best[1], "behaviour"))
            taken.add(best[1])
    return pairs


# ---------------------------------------------------------------- facts


def _facts(model: m.Ruleset, renames: dict[str, str]) -> dict[tuple[str, str], Side]:
    """Every fact of a model, keyed by (section, name), the names renamed to the other side's."""
    rename = _renamer(renames)
    out: dict[tuple[str, str], Side] = {}

    def add(section: str, name: str, lines: Iterable[str], provenance: m.Provenance = m.NO_PROVENANCE,
            cites: Iterable[str] = ()) -> None:
        out[(section, rename(name))] = Side(tuple(rename(line) for line in lines), provenance, tuple(cites))

    add("players and setup", "players", [counts_text(model.counts)], model.players_provenance)
    if model.teams is not None:
        add("players and setup", "teams", [model.teams.text], model.teams.provenance)
    for p in model.params:
        add("players and setup", f"param {p.name}", [f"default {p.default}, range {p.low}..{p.high}"], p.provenance)
    for z in model.zones:
        add("players and setup", f"zone {z.name}",
            [f"{'per seat' if z.per_seat else 'shared'}, {z.visibility}, {'piles' if z.piles else 'cards'}"],
            z.provenance)
    add("players and setup", "setup", [_setup_step(s) for s in model.setup], _merged(s.provenance for s in model.setup))
    for v in model.values:
        add("players and setup", f"value {v.name}",
            [f"let {v.name} = {unparse(v.init)}, {'for the match' if v.per_match else 'each round'}"], v.provenance)
    for a in model.attributes:
        add("components and deck", f"attribute {a.name}",
            [", ".join(v.name for v in a.values) if a.is_enum else f"{a.low}..{a.high}"], a.provenance)
    for k in model.kinds:
        lines = [f"copies {k.copies}", *(f"{a} {'each' if v is None else '= ' + str(v)}" for a, v in k.attributes),
                 *(f"mark {mk.name}{' ' + str(mk.count) if mk.count is not None else ''}"
                   f"{' where ' + unparse(mk.where) if mk.where is not None else ''}" for mk in k.marks)]
        add("components and deck", f"card {k.name}", lines, k.provenance)
    if model.sets != 1:
        add("components and deck", "decks", [f"{model.sets} sets of the cards"], model.sets_provenance)
    for r in model.deck_rules:
        add("components and deck", f"deck rule {r.name}", [unparse(r.where)], r.provenance)
    for n in model.counts:
        add("components and deck", f"deck with {n} players", _deck(model, n, rename))
    timing = _timing(model)
    add("timing and windows", "turn", [_step(s) for s in model.turn], _merged(s.provenance for s in model.turn))
    if model.window:
        add("timing and windows", "window", [f"play any of {', '.join(model.window.plays)}",
                                             *([f"when {unparse(model.window.when)}"] if model.window.when else [])],
            model.window.provenance)
    for play in model.plays:
        items = _items(play)
        add("cards and their plays", f"play {play.name}", [f"timing: {timing[play.name] or 'never offered'}",
                                                           *(i.text for i in items)], play.provenance,
            ["", *(i.provenance for i in items)])
    add("scoring", "score", [f"score {model.score.var} = {unparse(model.score.expr)}"], model.score.provenance)
    for d in model.defines:
        add("scoring", f"define {d.name}", [f"{d.name}({', '.join(d.params)}) = {unparse(d.body)}"], d.provenance)
    for end in model.round_ends:
        add("end and final round", f"end round {end.name}", [f"when {unparse(end.cond)}"], end.provenance)
    if model.final:
        add("end and final round", f"final round {model.final.name}",
            [*(["in seat order"] if model.final.seat_order else []), f"when {unparse(model.final.when)}",
             *(_step(s) for s in model.final.steps)], model.final.provenance)
    if model.cleanup:
        add("end and final round", "cleanup", [_setup_step(s) for s in model.cleanup],
            _merged(s.provenance for s in model.cleanup))
    mt = model.match
    add("match", "until", [unparse(mt.until)], mt.until_provenance)
    add("match", "winner", [mt.winner], mt.winner_provenance)
    add("match", "starter", [unparse(mt.starter)], mt.starter_provenance)
    for o in (o for o in model.options if o.kind == "variant" and (not o.requires or model.edition in o.requires)):
        add("options", f"variant {o.name}", [f"combines with {', '.join(o.combines) or 'nothing'}"], o.provenance)
    if model.house:
        add("options", "house rules", [model.house_name])
    return out


def _renamer(renames: dict[str, str]) -> Callable[[str], str]:
    if not renames:
        return lambda text: text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(renames, key=len, reverse=True))) + r")\b")
    return lambda text: pattern.sub(lambda found: renames[found.group(1)], text)


def counts_text(counts: tuple[int, ...]) -> str:
    """Player counts as a range when they have no gap: 2..6, else 4, 6, 8; one count alone."""
    if len(counts) == 1:
        return str(counts[0])
    return f"{counts[0]}..{counts[-1]}" if list(counts) == list(range(counts[0], counts[-1] + 1)) else \
        ", ".join(map(str, counts))


def _merged(given: Iterable[m.Provenance]) -> m.Provenance:
    provenances = list(given)
    return m.Provenance(
        tuple(x for p in provenances for x in p.sources),
        tuple(x for p in provenances for x in p.rulings),
        tuple(x for p in provenances for x in p.assumptions),
        provenances[0].line if provenances else 0,
        provenances[0].column if provenances else 0,
    )


def _setup_step(step: m.Shuffle | m.Deal | m.Transfer | m.Let) -> str:
    if isinstance(step, m.Shuffle):
        return f"shuffle deck into {step.zone}"
    if isinstance(step, m.Let):
        return f"let {step.name}"
    verb = "deal" if isinstance(step, m.Deal) else "move"
    count = "all" if step.count is None else unparse(step.count)
    return f"{verb} {count} from {step.source} to {step.dest}" + (f" where {unparse(step.where)}" if step.where else "")


def _step(step: m.PlayStep | m.Draw | m.EffectStep) -> str:
    when = f" when {unparse(step.when)}" if step.when is not None else ""
    if isinstance(step, m.Draw):
        return f"draw {unparse(step.count)} from {step.source} to {step.dest}{when}"
    if isinstance(step, m.EffectStep):
        return f"then {_effect(step.effect)}{when}"
    if step.repeat:
        return f"may play any of {', '.join(step.plays)}{when}"
    if step.optional:
        return f"may play one of {', '.join(step.plays)}{when}"
    return f"play one of {', '.join(step.plays)}{' or pass' if step.or_pass else ''}{when}"


def _deck(model: m.Ruleset, players: int, rename: Callable[[str], str]) -> list[str]:
    """The cards in play for this many players, by kind, with params at their defaults."""
    try:
        compiled = compile_ruleset(model, players)
    except ConfigError as e:
        return [f"cannot be set up: {e}"]
    kinds = Counter(rename(model.deck[f].kind) for f in compiled.face_of)
    return [f"{compiled.deck_size} cards", *(f"{kind} x{n}" for kind, n in sorted(kinds.items()))]
