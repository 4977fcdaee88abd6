"""Plays, turns and the response window: each item of a play, each effect and each turn step
read by a method of its own class (`_item_To`, `_effect_Swap`, `_step_Draw`), its expressions
typed by the `Typer` (expressions.py). The checker (check.py) calls `play`, `turn` and `window`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from . import model as m
from . import syntax as s
from .diagnostics import Sink
from .dispatch import unknown, visit
from .expressions import (
    CONTEXT_NAMES,
    PLAY_CARD,
    PLAY_TARGET,
    PLAY_VALUE,
    TURN_STEP,
    Names,
    Typer,
    near,
    provenance,
    show,
)

_ITEM_WORDS = {"card": "card from", "to": "to", "new_pile": "new pile", "onto_pile": "onto pile", "choose": "choose",
               "with": "with", "choose_value": "choose value", "meld": "meld"}
# the order a play's items are read in, the others after them in file order
_Card: TypeAlias = "tuple[str, m.Expr | None, m.Provenance]"  # a play's card: its zone, its where, its provenance
_To: TypeAlias = "tuple[m.Zone | None, str, m.Provenance]"  # where it goes: the zone, whose, the provenance
_Step: TypeAlias = "m.PlayStep | m.Draw | m.EffectStep"
_ITEM_ORDER = {s.To: 0, s.Choose: 1, s.CardFrom: 2, s.Meld: 2, s.With: 3, s.ChooseValue: 3}


@dataclass
class _PlayParts:
    """What the items of one play have said so far, and the names its expressions see."""

    name: str
    chooser: dict[str, str]  # what a `choose` item's condition sees
    target: dict[str, str]  # what the play's conditions and effects see
    pile_scope: dict[str, str]  # the same, with the pile the card goes onto
    card: _Card | None = None
    to: _To | None = None
    new_pile: m.Condition | None = None
    onto: m.Condition | None = None
    choose: m.Choose | None = None
    mate: m.Mate | None = None
    dest_seat: m.Expr | None = None
    value: m.Choose | None = None
    meld: m.Meld | None = None
    effects: list[m.Effect] = field(default_factory=list)
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


class Plays:
    """Reads plays, turn steps and the window of one ruleset into the model."""

    def __init__(self, names: Names, types: Typer, sink: Sink):
        self.names, self.types, self.sink = names, types, sink

    def play(self, c: s.Play) -> m.Play | None:
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
            visit(self, "_item_", item)(item, p, provenance(item.provs, item.span))
        if p.value is not None or "choose_value" in p.seen:  # a play of no card: it chooses a value
            if p.value is None:
                return None
            return m.Play(name, "", None, p.value.provenance, "", "", m.NO_PROVENANCE, None, None, p.choose, None,
                          tuple(p.effects), provenance(c.provs, c.span), None, p.value)
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
                      p.mate, tuple(p.effects), provenance(c.provs, c.span), p.dest_seat)

    # -- the items of a play, each adding to `p` what it says

    def _item_CardFrom(self, item: s.CardFrom, p: _PlayParts, prov: m.Provenance) -> None:
        zone = self.types.zone(item.zone, per_seat=True, piles=False)
        where = self.types.condition(item.where, PLAY_CARD) if item.where is not None else None
        p.card = (zone.name if zone else "", where, prov)

    def _item_To(self, item: s.To, p: _PlayParts, prov: m.Provenance) -> None:
        zone = self.types.zone(item.zone, per_seat=item.seats is not None)
        whose = item.seats
        if isinstance(whose, str) or whose is None:
            seats = {"any_seat": "any", "other_seat": "other", "self_seat": "self", None: ""}[whose]
        else:
            seats, p.dest_seat = "seat", self.types.expr(whose, PLAY_CARD)
            if p.dest_seat is not None and p.dest_seat.type != "seat":
                self.sink.error(f"'to {item.zone.text} of ...' needs a seat, not {show(p.dest_seat.type)}",
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
        p.new_pile = m.Condition(self.types.condition(item.when, p.target) if item.when is not None else None, prov)

    def _item_OntoPile(self, item: s.OntoPile, p: _PlayParts, prov: m.Provenance) -> None:
        p.onto = m.Condition(self.types.condition(item.when, p.pile_scope) if item.when is not None else None, prov)

    def _item_Merge(self, item: s.Merge, p: _PlayParts, prov: m.Provenance) -> None:
        if p.to is not None and p.to[0] is not None and not p.to[0].piles:
            self.sink.error(f"merge needs a zone of piles; '{p.to[0].name}' holds cards", item.span,
                            "declare the zone with `piles`, or drop the merge")
            return
        coll_t = self.types.expr(item.collection, p.pile_scope)
        if coll_t is not None and coll_t.type != "list:pile":
            self.sink.error(f"merge takes a list of piles, not {show(coll_t.type)}", item.collection.span,
                            "write e.g. merge p in piles(target) where ...")
            coll_t = None
        where = item.where
        cond = self.types.condition(where, {**p.pile_scope, item.var.text: "pile"}) if where is not None else None
        if coll_t is not None:
            p.effects.append(m.Merge(item.var.text, coll_t, cond, prov))

    def _item_With(self, item: s.With, p: _PlayParts, prov: m.Provenance) -> None:
        ident, where = item.name, item.where
        zone = self.types.zone(item.zone, per_seat=True, piles=False)
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "name the card otherwise")
            return
        keep = self.types.condition(where, {**PLAY_CARD, ident.text: "card"}) if where is not None else None
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
        effect = self.effect(item, scope, p.target, prov)
        if effect is not None:
            p.effects.append(effect)

    def _meld(self, item: s.Meld, prov: m.Provenance) -> m.Meld | None:
        """`meld NAME of LOW..HIGH from ZONE [where C]`: C reads the set as the list NAME."""
        ident, low, high, zone_ident, where = item.name, item.low, item.high, item.zone, item.where
        zone = self.types.zone(zone_ident, per_seat=True, piles=False)
        if not 1 <= low.value <= high.value:
            self.sink.error(f"a meld of {low.value}..{high.value} cards: it lays one card at least, and LOW <= HIGH",
                            low.span, "e.g. meld m of 3..4 from hand")
            return None
        if ident.text in CONTEXT_NAMES or ident.text in self.names.zones or ident.text in self.names.params:
            self.sink.error(f"'{ident.text}' already names something here", ident.span, "name the set otherwise")
            return None
        keep = self.types.condition(where, {**PLAY_VALUE, ident.text: "list:card"}) if where is not None else None
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
                      tuple(p.effects), provenance(c.provs, c.span), p.dest_seat, meld=meld)

    def effect(self, item: s.Effect, scope: dict[str, str], seat_scope: dict[str, str], prov: m.Provenance, *,
                in_turn: bool = False) -> m.Effect | None:
        """One `then` effect of a play (or, `in_turn`, a turn step), typed in `scope`
        (`seat_scope` for `next turn to`); None when it does not check."""
        effect: m.Effect | None = visit(self, "_effect_", item)(item, _EffectScope(scope, seat_scope, prov, in_turn))
        return effect

    def _effect_Guarded(self, item: s.Guarded, at: _EffectScope) -> m.Guarded | None:
        effect = self.effect(item.effect, at.scope, at.seat_scope, at.prov, in_turn=at.in_turn)
        when = self.types.condition(item.when, at.scope)
        return None if effect is None or when is None else m.Guarded(effect, when, at.prov)

    def _effect_Merge(self, item: s.Merge, at: _EffectScope) -> None:
        """A merge stands in a play (`_item_Merge`), on its own: a turn step or a guard has no pile to merge onto."""
        self.sink.error("a merge gathers piles onto the pile a play's card went to: a turn step has none"
                        if at.in_turn else "a merge gathers every pile its `where` keeps: it takes no `when`",
                        item.span, "write the merge in the play" if at.in_turn else "fold the condition into its where")

    def _effect_MoveCards(self, item: s.MoveCards, at: _EffectScope) -> m.MoveCards | None:
        return self._move_cards(item, at.scope, at.prov)

    def _effect_MovePile(self, item: s.MovePile, at: _EffectScope) -> m.MovePile | None:
        pile, dest = self.types.expr(item.pile, at.scope), self.types.expr(item.dest, at.scope)
        if pile is not None and pile.type != "pile":
            self.sink.error(f"'move pile' moves a pile, not {show(pile.type)}", item.pile.span,
                            "name a pile: e.g. one chosen with `choose pile NAME of ZONE of any other seat`")
        elif dest is not None and dest.type != "zone:piles":
            self.sink.error(f"a pile goes to a zone of piles, not {show(dest.type)}", item.dest.span,
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
        typed = self.types.expr(expr, at.scope)
        if typed is not None and typed.type != value.type:
            self.sink.error(f"value '{value.name}' holds {show(value.type)}, not {show(typed.type)}", expr.span,
                            f"set it to {show(value.type)}")
            return None
        return None if typed is None else m.SetValue(value.name, typed, at.prov)

    def _effect_Swap(self, item: s.Swap, at: _EffectScope) -> m.Swap | None:
        seats = self._seats((item.seat, item.other), at.scope)
        if seats is None:
            return None
        zones = [z for z in (self.types.zone(ident, per_seat=True) for ident in item.zones) if z is not None]
        return None if len(zones) < len(item.zones) else m.Swap(tuple(z.name for z in zones), seats[0], seats[1],
                                                                 at.prov)

    def _effect_NoAnswer(self, item: s.NoAnswer, at: _EffectScope) -> m.NoAnswer | None:
        seats = self._seats((item.seat,), at.scope)
        return None if seats is None else m.NoAnswer(seats[0], at.prov)

    def _seats(self, exprs: tuple[s.Expr, ...], scope: dict[str, str]) -> list[m.Expr] | None:
        """Each expression typed as a seat, or None when one is not."""
        seats = [self.types.expr(e, scope) for e in exprs]
        for e, typed in zip(exprs, seats, strict=True):
            if typed is not None and typed.type != "seat":
                self.sink.error(f"this names {show(typed.type)}, not a seat", e.span, "e.g. self, or a chosen seat")
        known = [x for x in seats if x is not None and x.type == "seat"]
        return known if len(known) == len(seats) else None

    def _effect_PassZone(self, item: s.PassZone, at: _EffectScope) -> m.PassZone | None:
        zone = self.types.zone(item.zone, per_seat=True)
        return None if zone is None else m.PassZone(zone.name, at.prov)

    def _effect_NextTurn(self, item: s.NextTurn, at: _EffectScope) -> m.NextTurn | None:
        who = self.types.expr(item.seat, at.seat_scope)
        if who is not None and who.type != "seat":
            self.sink.error(f"'next turn to' takes a seat, not {show(who.type)}", item.seat.span,
                            "e.g. next turn to self")
            return None
        return None if who is None else m.NextTurn(who, at.prov)

    def _choose_value(self, play: str, item: s.ChooseValue, to: _To | None, card: _Card | None,
                      scope: dict[str, str]) -> tuple[str, str, m.Choose] | None:
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
        keep = self.types.condition(where, {**scope, ident.text: typ}) if where is not None else None
        if where is not None and keep is None:
            return None
        return ident.text, typ, m.Choose("value", ident.text, attribute.name, "", keep,
                                         provenance(item.provs, item.span))

    def _choose(self, play: str, item: s.Choose, to: _To | None, scope: dict[str, str]) -> m.Choose | None:
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
        if kind == "pile" and zone_ident is not None:
            z = self.types.zone(zone_ident, per_seat=True, piles=True)
            if z is None:
                return None
            zone = z.name
        keep = self.types.condition(where, {**scope, ident.text: kind}) if where is not None else None
        if where is not None and keep is None:
            return None
        return m.Choose(kind, ident.text, zone, "other" if seats == "other_seat" else "any" if seats == "any_seat"
                        else "self", keep, provenance(item.provs, item.span))

    def _move_cards(self, item: s.MoveCards, scope: dict[str, str], prov: m.Provenance) -> m.MoveCards | None:
        amount, random, var = item.count, item.random, item.var
        source, dest, where = item.source, item.dest, item.where
        count = None if amount is None else self.types.number(amount, scope)
        # the destination may read the card it receives: `to row of holder(x.colour)`
        src, dst = self.types.expr(source, scope), self.types.expr(dest, {**scope, var.text: "card"} if var else scope)
        if src is not None and src.type not in ("zone", "pile"):
            self.sink.error(f"cards are moved from a zone of cards or a pile, not {show(src.type)}", source.span,
                            "e.g. move 1 from hand of chosen to hand of self")
            return None
        if dst is not None and dst.type not in ("zone", "zone:piles", "pile"):
            self.sink.error(f"cards are moved to a zone or a pile, not {show(dst.type)}", dest.span,
                            "e.g. to discard, to row of self (each card a new pile there), or to pile (on top of it)")
            return None
        if where is not None and var is None:
            self.sink.error("a where-condition here needs a name for the card it tests", item.span,
                            "name it after the count: "
                            "move 2 x from hand of chosen to row of self where x.colour == ...")
            return None
        keep = self.types.condition(where, {**scope, var.text: "card"}) if where is not None and var else None
        if None in (src, dst) or (amount is not None and count is None) or (where is not None and keep is None):
            return None
        return m.MoveCards(count, random, var.text if var else None, src, dst, keep, prov)

    def turn(self, c: s.Turn | s.Final | None, what: str = "turn") -> tuple[_Step, ...]:
        steps: list[_Step] = []
        for item in c.items if c else ():
            visit(self, "_step_", item)(item, steps, provenance(item.provs, item.span))
        if c and not any(isinstance(step, m.PlayStep) for step in steps):
            self.sink.error(f"the {what} has no play step: nothing would ever happen", c.span,
                            "add: play one of NAME or pass")
        return tuple(steps)

    def _step_PlayStep(self, item: s.PlayStep, steps: list[_Step], prov: m.Provenance) -> None:
        plays = tuple(self._step_plays(item.plays))
        when = self.types.condition(item.when, TURN_STEP) if item.when is not None else None
        steps.append(m.PlayStep(plays, item.or_pass, when, prov, item.optional, item.repeat))

    def _step_Draw(self, item: s.Draw, steps: list[_Step], prov: m.Provenance) -> None:
        count = self.types.number(item.count, TURN_STEP)
        when = self.types.condition(item.when, TURN_STEP) if item.when is not None else None
        src = self.types.zone(item.source, per_seat=False, piles=False)
        dst = self.types.zone(item.dest, per_seat=True, piles=False)
        if count is not None and src and dst:
            steps.append(m.Draw(count, src.name, dst.name, when, prov))

    def _step_Effect(self, item: s.Effect, steps: list[_Step], prov: m.Provenance) -> None:
        """`then EFFECT [when COND]`: an effect as a step of its own, its guard the step's."""
        inner, guard = (item.effect, item.when) if isinstance(item, s.Guarded) else (item, None)
        when = self.types.condition(guard, TURN_STEP) if guard is not None else None
        effect = self.effect(inner, TURN_STEP, TURN_STEP, prov, in_turn=True)
        if effect is not None and (guard is None or when is not None):
            steps.append(m.EffectStep(effect, when, prov))

    def window(self, c: s.Window | None) -> m.Window | None:
        if c is None:
            return None
        plays: tuple[str, ...] = ()
        when, opens = None, False
        for item in c.items:
            if isinstance(item, s.WindowPlays):
                plays += tuple(self._step_plays(item.plays))
            elif isinstance(item, s.WindowOpen):
                opens = True
            elif isinstance(item, s.WindowWhen):
                when = self.types.condition(item.when, TURN_STEP)
            else:
                raise unknown(self, item)
        if not plays:
            self.sink.error("the window offers no play", c.span, "add: play any of NAME, NAME")
        if not opens:
            self.sink.error("the window does not say when it opens", c.span, "add: open after every step")
        return m.Window(plays, when, provenance(c.provs, c.span))

    def _step_plays(self, names: tuple[s.Ident, ...]) -> list[str]:
        """The plays a turn step or a window offers: each must exist, and is then used."""
        for ident in names:
            if ident.text not in self.names.plays:
                self.sink.error(f"no play '{ident.text}'", ident.span,
                                near(ident.text, self.names.plays) or "define it: play NAME { ... }")
            self.names.used.add(("play", ident.text))
        return [ident.text for ident in names]
