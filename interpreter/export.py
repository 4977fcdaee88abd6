"""Model to plain JSON data: the whole checked ruleset for other tools (a diff, an editor), and
the short summary that `check` prints. Both are deterministic: the same model gives the same
data, in the model's own order, so the same file exports the same bytes.

Every expression is exported three ways at once: the text a rules author would write, its
type, and a tagged tree (`{"node": "op", ...}`) that a diff can compare structurally.
schemas/ruleset.schema.json describes the export.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NotRequired, TypeAlias, TypedDict, cast

from . import model as m
from .compile import ConfigError, compile_ruleset
from .engine import Game
from .unparse import unparse

FORMAT = "cardrules-ruleset/2"
SETUP_STEPS = {m.Shuffle: "shuffle", m.Deal: "deal", m.Transfer: "move", m.Let: "let"}  # as the text writes them

JsonValue: TypeAlias = "str | int | float | bool | None | Sequence[JsonValue] | Mapping[str, JsonValue]"
Json: TypeAlias = dict[str, JsonValue]  # one JSON object of the export


class Deal(TypedDict):
    """How setup leaves the cards for one player count (see `_deal`); `problem` instead of the
    counts when it cannot be set up."""

    players: int
    problem: NotRequired[str]
    deck: NotRequired[int]
    per_seat: NotRequired[int]
    dealt: NotRequired[int]
    stock: NotRequired[int]
    shared: NotRequired[dict[str, int]]


def export(model: m.Ruleset) -> Json:
    """Everything the model holds, each clause with its provenance."""
    return {
        "format": FORMAT,
        "header": {"file": model.file, "title": model.title, "names": _labels(model.names),
                   "edition": model.edition, "variants": list(model.variants), "language": model.language,
                   "house": None if model.house is None else {"file": model.house, "name": model.house_name}},
        "options": [_option(o) for o in model.options],
        "documents": [{"id": d.id, "title": d.title, "provenance": _provenance(d.provenance)}
                      for d in model.documents],
        "players": {"min": model.players[0], "max": model.players[1], "counts": list(model.counts),
                    "provenance": _provenance(model.players_provenance)},
        "params": [{"name": p.name, "default": p.default, "min": p.low, "max": p.high,
                    "provenance": _provenance(p.provenance)} for p in model.params],
        "attributes": [_attribute(a) for a in model.attributes],
        "defines": [{"name": d.name, "params": list(d.params), "body": expression(d.body),
                     "provenance": _provenance(d.provenance)} for d in model.defines],
        "cards": [_kind(k) for k in model.kinds],
        "marks": list(model.marks),
        "deck": {"size": model.deck_size,
                 "faces": [{"face": c.face, "kind": c.kind, "attributes": dict(c.attributes), "copies": c.copies,
                            "names": dict(c.names)} for c in model.deck]},
        "deck_rules": [{"name": r.name, "where": expression(r.where), "provenance": _provenance(r.provenance)}
                       for r in model.deck_rules],
        "sets": {"count": model.sets, "provenance": _provenance(model.sets_provenance)},
        "teams": None if model.teams is None else {
            "kind": model.teams.kind, "teams": [list(team) for team in model.teams.listed],
            "provenance": _provenance(model.teams.provenance)},
        "zones": [{"name": z.name, "scope": _scope(z), "visibility": z.visibility, "piles": z.piles,
                   "provenance": _provenance(z.provenance)} for z in model.zones],
        "values": [{"name": v.name, "type": v.type, "let": expression(v.init), "per": "match" if v.per_match
                    else "round", "provenance": _provenance(v.provenance)} for v in model.values],
        "setup": [_setup_step(step) for step in model.setup],
        "cleanup": [_setup_step(step) for step in model.cleanup],
        "plays": [_play(p) for p in model.plays],
        "turn": [_turn_step(step) for step in model.turn],
        "window": _window(model.window),
        "final": None if model.final is None else {
            "name": model.final.name, "when": expression(model.final.when), "seat_order": model.final.seat_order,
            "steps": [_turn_step(step) for step in model.final.steps],
            "provenance": _provenance(model.final.provenance)},
        "round_ends": [{"name": r.name, "when": expression(r.cond), "provenance": _provenance(r.provenance)}
                       for r in model.round_ends],
        "score": {"var": model.score.var, "expr": expression(model.score.expr),
                  "provenance": _provenance(model.score.provenance)},
        "display": {"looks": [{"attribute": look.attribute, "value": look.value, "colour": look.colour,
                               "symbol": look.symbol, "provenance": _provenance(look.provenance)}
                              for look in model.display],
                    "provenance": _provenance(model.display_provenance)},
        "match": {
            "until": {"expr": expression(model.match.until), "provenance": _provenance(model.match.until_provenance)},
            "winner": {"value": model.match.winner, "provenance": _provenance(model.match.winner_provenance)},
            "starter": {"expr": expression(model.match.starter),
                        "provenance": _provenance(model.match.starter_provenance)},
        },
    }


def expression(e: object) -> Json | None:
    """An expression as its text, its type and its tree; None (no condition) stays None."""
    if e is None:
        return None
    node = tree(e)
    return {"text": unparse(e), "type": node["type"], "tree": node}


def tree(e: object) -> Json:
    """The tagged tree of an expression: each node names its kind and carries its type."""
    match e:
        case m.Const(value=value, type=t):
            return {"node": "const", "type": t, "value": list(value) if isinstance(value, tuple) else value}
        case m.Ref(name=name, type=t):
            return {"node": "ref", "type": t, "name": name}
        case m.ParamRef(name=name, type=t):
            return {"node": "param", "type": t, "name": name}
        case m.ValueRef(name=name, type=t):
            return {"node": "value", "type": t, "name": name}
        case m.ZoneRef(zone=zone, seat=seat, piles=piles, type=t):
            return {"node": "zone", "type": t, "zone": zone, "seat": None if seat is None else tree(seat),
                    "piles": piles}
        case m.AttrOf(obj=obj, attr=attr, type=t):
            return {"node": "attr", "type": t, "object": tree(obj), "attribute": attr}
        case m.Call(function=fn, args=args, type=t):
            return {"node": "call", "type": t, "function": fn, "args": [tree(a) for a in args]}
        case m.Defined(name=name, args=args, body=body, type=t):
            return {"node": "define", "type": t, "name": name, "args": [tree(a) for a in args], "body": tree(body)}
        case m.Each(function=fn, var=var, collection=coll, body=body, filter=filt, type=t):
            return {"node": "each", "type": t, "function": fn, "var": var, "in": tree(coll), "body": tree(body),
                    "filter": filt}
        case m.Op(op=op, left=left, right=right, type=t):
            return {"node": "op", "type": t, "op": op, "left": tree(left), "right": tree(right)}
        case m.Unary(op=op, operand=x, type=t):
            return {"node": "unary", "type": t, "op": op, "operand": tree(x)}
        case m.If(cond=c, then=a, otherwise=b, type=t):
            return {"node": "if", "type": t, "cond": tree(c), "then": tree(a), "else": tree(b)}
        case m.Quantifier(kind=kind, var=var, collection=coll, body=body, type=t):
            return {"node": "quantifier", "type": t, "kind": kind, "var": var, "in": tree(coll), "body": tree(body)}
    raise TypeError(f"not an expression: {e!r}")


def _provenance(p: m.Provenance) -> Json:
    return {"sources": list(p.sources), "rulings": list(p.rulings), "assumptions": list(p.assumptions),
            "line": p.line, "column": p.column}


def _labels(labels: tuple[tuple[str, str], ...]) -> list[Json]:
    return [{"language": language, "text": text} for language, text in labels]


def _scope(zone: m.Zone) -> str:
    return "per_seat" if zone.per_seat else "shared"


def _attribute(a: m.Attribute) -> Json:
    if a.is_enum:
        return {"name": a.name, "kind": "enum", "values": [{"name": v.name, "labels": _labels(v.labels)}
                                                          for v in a.values],
                "provenance": _provenance(a.provenance)}
    return {"name": a.name, "kind": "int", "min": a.low, "max": a.high, "provenance": _provenance(a.provenance)}


def _option(o: m.Option) -> Json:
    return {"kind": o.kind, "name": o.name, "labels": _labels(o.labels), "requires": list(o.requires),
            "combines": list(o.combines), "provenance": _provenance(o.provenance)}


def _kind(k: m.CardKind) -> Json:
    return {"name": k.name, "labels": _labels(k.labels),
            "attributes": [{"attribute": a, "value": v} for a, v in k.attributes],
            "copies": k.copies, "copies_provenance": _provenance(k.copies_provenance),
            "face": k.face, "faces": [{"language": lang, "template": t} for lang, t in k.faces],
            "marks": [{"name": mk.name, "count": mk.count, "where": expression(mk.where),
                       "provenance": _provenance(mk.provenance)} for mk in k.marks],
            "provenance": _provenance(k.provenance)}


def _setup_step(step: m.Shuffle | m.Deal | m.Transfer | m.Let) -> Json:
    if isinstance(step, m.Shuffle):
        return {"step": "shuffle", "zone": step.zone, "provenance": _provenance(step.provenance)}
    if isinstance(step, m.Let):
        return {"step": "let", "value": step.name, "provenance": _provenance(step.provenance)}
    return {"step": SETUP_STEPS[type(step)], "count": None if step.count is None else expression(step.count),
            "from": step.source, "to": step.dest, "where": expression(step.where),
            "provenance": _provenance(step.provenance)}


def _condition(c: m.Condition | None) -> Json | None:
    return None if c is None else {"when": expression(c.expr), "provenance": _provenance(c.provenance)}


def _play(p: m.Play) -> Json:
    return {
        "name": p.name,
        "card": None if p.value else {"zone": p.card_zone, "where": expression(p.card_filter),
                                      "provenance": _provenance(p.card_provenance)},
        "to": None if p.value else {"zone": p.dest_zone, "seats": p.dest_seats or None,
                                    "seat": expression(p.dest_seat), "provenance": _provenance(p.dest_provenance)},
        "new_pile": _condition(p.new_pile),
        "onto_pile": _condition(p.onto_pile),
        "with": None if p.mate is None else {
            "name": p.mate.name, "zone": p.mate.zone, "where": expression(p.mate.where),
            "provenance": _provenance(p.mate.provenance)},
        "choose": None if p.choose is None else {
            "kind": p.choose.kind, "name": p.choose.name, "zone": p.choose.zone, "seats": p.choose.seats,
            "where": expression(p.choose.where), "provenance": _provenance(p.choose.provenance)},
        "value": None if p.value is None else {
            "name": p.value.name, "attribute": p.value.zone, "where": expression(p.value.where),
            "provenance": _provenance(p.value.provenance)},
        "meld": None if p.meld is None else {
            "name": p.meld.name, "low": p.meld.low, "high": p.meld.high, "where": expression(p.meld.where),
            "provenance": _provenance(p.meld.provenance)},
        "effects": [_effect(e) for e in p.effects],
        "provenance": _provenance(p.provenance),
    }


def _effect(e: object) -> Json:
    if isinstance(e, m.Merge):
        return {"effect": "merge", "var": e.var, "in": expression(e.collection), "where": expression(e.where),
                "provenance": _provenance(e.provenance)}
    if isinstance(e, m.Reverse):
        return {"effect": "reverse", "provenance": _provenance(e.provenance)}
    if isinstance(e, m.MoveCards):
        return {"effect": "move_cards", "count": None if e.count is None else expression(e.count), "random": e.random,
                "var": e.var, "from": expression(e.source), "to": expression(e.dest), "where": expression(e.where),
                "provenance": _provenance(e.provenance)}
    if isinstance(e, m.MovePile):
        return {"effect": "move_pile", "pile": expression(e.pile), "to": expression(e.dest),
                "provenance": _provenance(e.provenance)}
    if isinstance(e, m.Swap):
        return {"effect": "swap", "zones": list(e.zones), "seat": expression(e.seat), "other": expression(e.other),
                "provenance": _provenance(e.provenance)}
    if isinstance(e, m.PassZone):
        return {"effect": "pass", "zone": e.zone, "provenance": _provenance(e.provenance)}
    if isinstance(e, m.NoAnswer):
        return {"effect": "no_answer", "seat": expression(e.seat), "provenance": _provenance(e.provenance)}
    if isinstance(e, m.NextTurn):
        return {"effect": "next_turn", "to": expression(e.seat), "provenance": _provenance(e.provenance)}
    if isinstance(e, m.SetValue):
        return {"effect": "set", "value": e.name, "to": expression(e.expr), "provenance": _provenance(e.provenance)}
    if isinstance(e, m.EndTurn):
        return {"effect": "end_turn", "provenance": _provenance(e.provenance)}
    if isinstance(e, m.Guarded):
        return {"effect": "guarded", "when": expression(e.when), "then": _effect(e.effect),
                "provenance": _provenance(e.provenance)}
    raise TypeError(f"not an effect: {e!r}")


def _window(w: m.Window | None) -> Json | None:
    return None if w is None else {"plays": list(w.plays), "when": expression(w.when),
                                   "provenance": _provenance(w.provenance)}


def _turn_step(step: m.PlayStep | m.Draw | m.EffectStep) -> Json:
    if isinstance(step, m.PlayStep):
        return {"step": "play", "plays": list(step.plays), "or_pass": step.or_pass, "optional": step.optional,
                "repeat": step.repeat, "when": expression(step.when), "provenance": _provenance(step.provenance)}
    if isinstance(step, m.EffectStep):
        return {"step": "effect", "effect": _effect(step.effect), "when": expression(step.when),
                "provenance": _provenance(step.provenance)}
    return {"step": "draw", "count": expression(step.count), "from": step.source, "to": step.dest,
            "when": expression(step.when), "provenance": _provenance(step.provenance)}


# ------------------------------------------------------------------ the summary of `check`


def summary(model: m.Ruleset, dealt: list[Deal] | None = None) -> Json:
    """What `check` reports: the header, the deal for each player count (`dealt`, when `deals`
    has them already), zones, params, names of plays and round ends, how the clauses are backed
    by provenance, and which are not."""
    counted = clauses(model)
    return {
        "file": model.file,
        "title": model.title,
        "names": _labels(model.names),
        "documents": [{"id": d.id, "title": d.title} for d in model.documents],
        "selection": model.selection,
        "players": {"min": model.players[0], "max": model.players[1], "counts": list(model.counts)},
        **({"teams": model.teams.text.removeprefix("teams ")} if model.teams is not None else {}),
        "deck": model.deck_size,
        "stock": _stock(model),
        "deals": cast(list[JsonValue], deals(model) if dealt is None else dealt),  # a Deal is a JSON object
        "zones": [{"name": z.name, "scope": _scope(z), "visibility": z.visibility, "piles": z.piles}
                  for z in model.zones],
        "params": [{"name": p.name, "default": p.default, "min": p.low, "max": p.high} for p in model.params],
        "plays": [p.name for p in model.plays],
        "round_ends": list(model.round_end_names),
        "provenance": provenance_counts(counted),
        "unbacked": [name for name, p in counted if not _carries(p)],
    }


def _stock(model: m.Ruleset) -> str:
    """The zone setup shuffles the deck into (the last one, should there be several; the
    checker makes sure there is one)."""
    return next(s.zone for s in reversed(model.setup) if isinstance(s, m.Shuffle))


def deals(model: m.Ruleset) -> list[Deal]:
    """The deal for each player count the model allows (see `_deal`)."""
    bare = _as_setup_reads_it(model)
    return [_deal(bare, n) for n in model.counts]


def deal_problems(model: m.Ruleset) -> list[tuple[int, str]]:
    """Each player count the model allows but cannot deal, with why: `deals` without laying
    the table out (`check` asks it of every selection, and shows the deals of one)."""
    bare = _as_setup_reads_it(model)
    problems = []
    for n in model.counts:
        try:
            compile_ruleset(bare, n)
        except ConfigError as e:
            problems.append((n, str(e)))
    return problems


def _as_setup_reads_it(model: m.Ruleset) -> m.Ruleset:
    """The model without what a deal never runs: the plays, turn, window, final round, round
    ends, cleanup, score and the match's end. Compiling them would be most of the cost of a
    deal, and each count is compiled on its own."""
    return replace(model, plays=(), turn=(), window=None, final=None, round_ends=(), cleanup=(),
                   score=replace(model.score, expr=m.Const(0, "int")), match=replace(model.match, until=_NEVER))


_NEVER = m.Const(False, "bool")


def _deal(model: m.Ruleset, players: int) -> Deal:
    """How setup leaves the cards for this many players, params at their defaults: the engine
    lays a round out, and the zones are counted. `deck` is the cards in play (`decks` and the
    deck rules applied); `per_seat` the fewest cards a seat receives; `shared` the cards in
    each shared zone; `problem` instead says why this many players cannot be set up."""
    try:
        game = Game(compile_ruleset(model, players), seed=0, deal=False)
    except ConfigError as e:
        return {"players": players, "problem": str(e)}
    game.setup_round()  # the engine lays the table out: a count or a `where` means what it does in play
    shared: dict[str, int] = {}
    seats = [0] * players
    for zone, content in zip(model.zones, game.state.zones, strict=True):
        if zone.per_seat:
            for seat, cards in enumerate(content):
                seats[seat] += sum(len(p) for p in cards) if zone.piles else len(cards)
        else:
            shared[zone.name] = sum(len(p) for p in content) if zone.piles else len(content)
    return {"players": players, "deck": game.c.deck_size, "per_seat": min(seats), "dealt": sum(seats),
            "stock": shared[_stock(model)], "shared": shared}


def clauses(model: m.Ruleset) -> list[tuple[str, m.Provenance]]:
    """The clauses `check` counts, each named, with its provenance. A clause without items
    counts as itself. A block (card, play, setup, turn, match) counts itself when it carries
    provenance, and each of its items that carries some (a card's copies and marks, a play's
    items and effects, ...); a block where nothing does counts once, as carrying none.
    Documents count when they carry provenance: the header is not a rule; `decks` counts when
    it is written."""
    out: list[tuple[str, m.Provenance]] = []

    def block(name: str, own: m.Provenance | None, items: list[tuple[str, m.Provenance]]) -> None:
        cited = [(name, own)] if own is not None and _carries(own) else []
        cited += [(f"{name}: {item}", p) for item, p in items if _carries(p)]
        out.extend(cited or [(name, own or m.NO_PROVENANCE)])

    out += [(f"document {d.id}", d.provenance) for d in model.documents if _carries(d.provenance)]
    out.append(("players", model.players_provenance))
    out += [(f"param {p.name}", p.provenance) for p in model.params]
    out += [(f"attribute {a.name}", a.provenance) for a in model.attributes]
    for k in model.kinds:
        block(f"card {k.name}", k.provenance,
              [("copies", k.copies_provenance)] + [(f"mark {mk.name}", mk.provenance) for mk in k.marks])
    out += [(f"deck {r.name}", r.provenance) for r in model.deck_rules]
    if model.sets_provenance.line:
        out.append(("decks", model.sets_provenance))
    if model.teams is not None:
        out.append(("teams", model.teams.provenance))
    out += [(f"zone {z.name}", z.provenance) for z in model.zones]
    block("setup", None, [(SETUP_STEPS[type(s)], s.provenance) for s in model.setup])
    if model.cleanup:
        block("cleanup", None, [("move", s.provenance) for s in model.cleanup])
    for p in model.plays:
        items = [("value", p.card_provenance)] if p.value else [("card", p.card_provenance), ("to", p.dest_provenance)]
        items += [(label, c.provenance) for label, c in (("new pile", p.new_pile), ("onto pile", p.onto_pile),
                                                         ("with", p.mate), ("choose", p.choose)) if c]
        items += [(str(_effect(e)["effect"]), e.provenance) for e in p.effects]
        block(f"play {p.name}", p.provenance, items)
    block("turn", None, [(_step_word(s), s.provenance) for s in model.turn])
    if model.window is not None:
        out.append(("window", model.window.provenance))
    if model.final is not None:
        block(f"final round {model.final.name}", model.final.provenance,
              [(_step_word(s), s.provenance) for s in model.final.steps])
    out += [(f"end round {r.name}", r.provenance) for r in model.round_ends]
    out.append(("score", model.score.provenance))
    mt = model.match
    block("match", None, [("until", mt.until_provenance), ("winner", mt.winner_provenance),
                          ("starter", mt.starter_provenance)])
    return out


def _step_word(step: object) -> str:
    return "play" if isinstance(step, m.PlayStep) else "draw" if isinstance(step, m.Draw) else "then"


def provenance_counts(counted: list[tuple[str, m.Provenance]]) -> dict[str, int]:
    """How many of the clauses cite a source, a ruling, an assumption; how many carry none."""
    provs = [p for _, p in counted]
    return {"clauses": len(provs), "sources": sum(1 for p in provs if p.sources),
            "rulings": sum(1 for p in provs if p.rulings), "assumptions": sum(1 for p in provs if p.assumptions),
            "none": sum(1 for p in provs if not _carries(p))}


def _carries(p: m.Provenance) -> bool:
    return bool(p.sources or p.rulings or p.assumptions)
