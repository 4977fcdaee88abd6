"""How cards are drawn for people: each face with the `display` clause's symbols in place of
its values, and the colour of the first value that has one. Play never reads this: moves name
cards by their faces, whatever a terminal shows."""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import model as m


@dataclass(frozen=True)
class Drawn:
    text: str  # the face as shown, with symbols
    colour: str | None  # a terminal colour name, or None


def fill(template: str, values: dict[str, str | int], attributes: dict[str, m.Attribute], lang: str | None = None,
         symbols: dict[tuple[str, str | int], str] | None = None) -> str:
    """A face template with the card's values in place: a value's symbol when `symbols` gives one,
    else, in a language, an enum value's label there when it has one, else the value."""
    def value(hole: str) -> str:
        v: str | int = values.get(hole, "")
        if symbols and (hole, v) in symbols:
            return symbols[hole, v]
        a = attributes.get(hole)
        if lang is not None and a is not None and a.is_enum:
            return next(
                (text for label_lang, text in next(x for x in a.values if x.name == v).labels if label_lang == lang),
                str(v),
            )
        return str(v)

    return re.sub(r"{([^}]*)}", lambda h: value(h.group(1)), template)


def drawings(model: m.Ruleset, lang: str | None = None) -> dict[str, Drawn]:
    """Every face of the deck, as shown in `lang`, and how it is drawn."""
    symbols = {(look.attribute, look.value): look.symbol for look in model.display if look.symbol is not None}
    colours = [(look.attribute, look.value, look.colour) for look in model.display if look.colour is not None]
    attributes = {a.name: a for a in model.attributes}
    kinds = {k.name: k for k in model.kinds}
    drawn = {}
    for card in model.deck:
        kind, values = kinds[card.kind], dict(card.attributes)
        template = dict(kind.faces).get(lang, kind.face) if lang else kind.face
        colour = next((c for attr, value, c in colours if values.get(attr) == value), None)
        drawn[dict(card.names).get(lang, card.face) if lang else card.face] = Drawn(
            fill(template, values, attributes, lang, symbols), colour
        )
    return drawn
