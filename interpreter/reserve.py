"""What a seat keeps back for the final round: the out-of-turn plays that round lets it make at will.

A ruleset's final round (`final round ... { may play any of ... }`) gives each seat one last turn,
with no response window after it, in which it may make those plays until it passes: what it plays
there cannot be answered, however much it holds. A search that scores its lines a few plays
ahead sees a window play's gain now and nothing of what the card would gain held, so it spends
such cards as soon as they gain and meets the final round with an empty hand. The reserve is read
from the ruleset alone: the window's plays that a final turn repeats. Where a final turn makes
one play (`may play one of`), nothing is kept: keeping one card for it was measured and won
nothing overall (docs/bots-research.md, "The reserve (session 30)").
"""
from __future__ import annotations

from collections.abc import Sequence

from .compile import Compiled
from .engine import Action
from .worlds import Flow


def reserve(compiled: Compiled) -> frozenset[int]:
    """The indices of the plays a seat keeps for the final round: the window's plays that a
    final turn may make until it passes. Empty where there are none."""
    final, window = compiled.final, compiled.window
    if final is None or window is None:
        return frozenset()
    repeated = {play.index for step in final.steps if step.kind == "play" and step.repeat for play in step.plays}
    return frozenset(play.index for play in window.plays if play.index in repeated)


def kept_back(kept: frozenset[int], flow: Flow, legal: Sequence[Action]) -> Sequence[Action]:
    """`legal` without the plays `kept` while a window is open before the final round begins.
    Never empty: a window always offers its pass."""
    state = flow.state
    if not kept or state.window is None or state.final_turns >= 0:
        return legal
    left = [a for a in legal if a[0] is None or a[0].index not in kept]
    return left or legal
