"""The events of a move (`interpreter.narration`) in words, a line each, for the seat watching."""
from __future__ import annotations

from collections.abc import Iterable

from ..interpreter.narration import DirectionChanged, Event, Merged, Moved, Place, Renumbered, RoundOver, TurnGiven
from ..interpreter.redact import UNSEEN
from .i18n import _, ngettext


def place_text(place: Place, viewer: int) -> str:
    if place.seat is None:
        return _("the {zone}").format(zone=place.zone)
    if place.seat == viewer:
        return _("your {zone}").format(zone=place.zone)
    return _("seat {seat}'s {zone}").format(seat=place.seat, zone=place.zone)


def _numbers(numbers: Iterable[int]) -> str:
    return ", ".join(map(str, numbers))


def cards_text(cards: tuple[str, ...]) -> str:
    """The faces seen, and a count of the cards not seen."""
    seen = [c for c in cards if c != UNSEEN]
    hidden = len(cards) - len(seen)
    parts = seen + ([_("a card") if hidden == 1 else ngettext("{n} card", "{n} cards", hidden).format(n=hidden)]
                    if hidden else [])
    return ", ".join(parts)


def event_text(event: Event, viewer: int) -> str:
    """One event in words, as `viewer` may know it (-1: a seat that sees public zones only)."""
    match event:
        case Moved(cards=cards, source=source, dest=dest, piles=piles):
            line = _("{cards}: {source} → {dest}").format(cards=cards_text(cards), source=place_text(source, viewer),
                                                         dest=place_text(dest, viewer))
            numbers = sorted({p for p in piles if p is not None})
            if numbers:
                line += " " + (_("(pile {n})").format(n=numbers[0]) if len(numbers) == 1
                               else _("(piles {n})").format(n=_numbers(numbers)))
            return line
        case Merged(place=place, piles=piles, into=into):
            return _("{place}: piles {piles} merged into pile {into}").format(
                place=place_text(place, viewer), piles=_numbers(piles), into=into)
        case Renumbered(place=place, piles=piles, into=into):
            key = _("{place}: pile {piles} is now pile {into}") if len(piles) == 1 else \
                _("{place}: piles {piles} are now piles {into}")
            return key.format(place=place_text(place, viewer), piles=_numbers(piles), into=_numbers(into))
        case TurnGiven(seat=seat):
            return _("seat {seat} is given the next turn").format(seat=seat) if seat != viewer else \
                _("you are given the next turn")
        case DirectionChanged(direction=direction):
            return _("play now goes up the seat numbers") if direction > 0 else \
                _("play now goes down the seat numbers")
        case RoundOver(round=number, reason=reason, words=words):
            return round_over_text(number, reason, words)
    raise TypeError(f"not an event: {event!r}")


def round_over_text(number: int, reason: str, words: str, plays: int | None = None) -> str:
    """`round 1 over after 9 plays (END): ...` with the end rule in words."""
    head = _("round {n} over").format(n=number + 1)
    if plays is not None:
        head += " " + ngettext("after {n} play", "after {n} plays", plays).format(n=plays)
    if words and words != reason:
        return _("{head} ({reason}): {words}").format(head=head, reason=reason, words=words)
    return _("{head} ({reason})").format(head=head, reason=reason)
