"""What a seat keeps back for the final round: the out-of-turn plays that the final round offers too.

A ruleset's final round (`final round ... { may play ... }`) gives each seat one last turn with no
response window after it: a play made there cannot be answered, and one made earlier in a window
can. A search that scores its lines a few plays ahead sees a window play's gain now and nothing
of what the card would gain held, so it spends such cards as soon as they gain, and meets the
final round with an empty hand. The reserve is read from the ruleset alone: the window's plays
that the final round's play steps offer as well. Where a final turn may make them until it passes
(`may play any of`), every such play waits for it; where it makes one (`may play one of`), a seat
keeps one card that such a play takes and spends the others when it likes.

Measured in ARNE Total against random (docs/bots.md, "The reserve"): the search alone lost most
matches it lost with nothing left to answer the rival's late swap of rows.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .compile import Compiled
from .engine import Action, View
from .worlds import Flow


@dataclass(frozen=True)
class Reserve:
    """The plays kept for the final round, and how many cards they take to keep."""

    plays: frozenset[int]  # play indices: window plays that a final turn offers too
    faces: frozenset[int] | None  # the faces of the cards that make those plays (None: any card): a
    # play of one card, its card's; a play of two, its mate's, the card it cannot be made without
    zone: str  # the hand they take their cards from
    keep: int | None  # cards of `faces` kept back: None for all (a final turn plays until it passes)


def reserve(compiled: Compiled) -> Reserve | None:
    """The ruleset's reserve, or None where it has no final round, no window, or none of the
    window's plays come back in the final round."""
    final, window = compiled.final, compiled.window
    if final is None or window is None:
        return None
    steps = [step for step in final.steps if step.kind == "play"]
    offered = {play.index for step in steps for play in step.plays}
    plays = [play for play in window.plays if play.index in offered]
    if not plays:
        return None
    zones = {play.card_zone for play in plays}
    if len(zones) != 1 or -1 in zones:  # plays of no card, or from several zones: nothing to count
        return None
    faces: frozenset[int] | None = frozenset()
    for play in plays:
        own = play.faces if play.mate is None else play.mate.faces
        faces = None if faces is None or own is None else faces | own
    repeats = any(step.repeat for step in steps if offered & {p.index for p in step.plays})
    return Reserve(frozenset(p.index for p in plays), faces, compiled.model.zones[zones.pop()].name,
                   None if repeats else 1)


def kept_back(held: Reserve, compiled: Compiled, seat: int, view: View, flow: Flow,
              legal: Sequence[Action]) -> Sequence[Action]:
    """`legal` without the plays the seat keeps for the final round: in a window before that
    round begins, while the seat holds no more cards for them than it keeps. Never empty: a
    window always offers its pass."""
    state = flow.state
    if state.window is None or state.final_turns >= 0:
        return legal
    if held.keep is not None:
        index, faces = compiled.face_index, held.faces
        cards = sum(1 for text in view["zones"][held.zone][seat] if faces is None or index[text.lower()] in faces)
        if cards > held.keep:
            return legal
    left = [a for a in legal if a[0] is None or a[0].index not in held.plays]
    return left or legal
