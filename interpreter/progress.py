"""Matches that make no progress, told early and with the condition that never holds, instead of
running to the engine's last guard (MAX_ROUNDS rounds) or for ever.

    rounds that change no total   when `until` reads nothing but the totals (and params and the
                                  number of players), only a change of the totals can end the
                                  match. After STILL_ROUNDS rounds in a row that scored nothing,
                                  the match is stopped; after one, when `score` reads nothing that
                                  changes from round to round (it will score nothing again).
    a round that does not end     more plays in one round than ROUND_FACTOR per card of the deck
                                  and per seat: the bound `--check-invariants` has always used.
    a round where nobody decides  steps that need no decision (draws, passes of seats with
                                  nothing to play) are the same every time: when a whole cycle of
                                  seats has passed and left the state exactly as the cycle before
                                  it did, it repeats for ever. Sound only if no rule reads `passes`
                                  (the one thing that still changes), so then it is not used and
                                  the engine's budget of steps stays the guard.

All are functions of the match's model and state alone, outside the engine's hot path, so that
any engine can call them: `stalled_match` after every round that did not end the match,
`endless_round` from the loops that play a match out once `state.round_plays` passes
`round_bound`, `idle_state` (then `idle_round`) after every whole cycle of seats that passed with
no decision.
STILL_ROUNDS is far above what real rulesets show: in 300 random matches of each shipped game at
each player count, the longest run of rounds that scored nothing was 4.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .model import Provenance, Ref, Ruleset, names_read
from .unparse import unparse

if TYPE_CHECKING:  # the engine imports this module
    from .engine import Game

STILL_ROUNDS = 100
ROUND_FACTOR = 10  # the plays a round may take, per card of the deck and per seat
FIXED = frozenset(("players", "seats"))  # names whose value stays the same the whole match


def round_bound(game: Game) -> int:
    """The most plays one round may take before it counts as endless."""
    return ROUND_FACTOR * game.c.deck_size * game.n


def stalled_match(game: Game) -> tuple[str, str] | None:
    """(message, hint) when the rounds just played show the match cannot end, else None."""
    model = game.c.model
    until, score = model.match.until, model.score
    watched, fixed_score = _still_rounds_watched(model)
    if not watched:
        return None
    needed = 1 if fixed_score else STILL_ROUNDS
    results = game.state.results
    if len(results) < needed:
        return None
    for result in reversed(results[-needed:]):
        if any(result.scores):
            return None
    totals = list(game.state.totals)
    scoring = f"`score {score.var} = {unparse(score.expr)}`{_line(score.provenance)}"
    never = f"so the totals stay {totals} and `until {unparse(until)}`{_line(model.match.until_provenance)} never holds"
    if fixed_score:
        return (f"the match cannot end: {scoring} scores nothing whatever the cards, {never}",
                "make the score read the round's cards, or `until` read something that changes, e.g. round")
    ends = ", ".join(f"{name} {count}" for name, count in Counter(r.reason for r in results[-needed:]).items())
    return (f"the match is not ending: {needed} rounds in a row scored nothing (ended by: {ends}), {never}",
            f"check {scoring}: it gives 0 at the end of these rounds")


def endless_round(game: Game) -> tuple[str, str]:
    """(message, hint) for a round that has run past `round_bound`: each `end round` condition,
    none of which has held."""
    model, st = game.c.model, game.state
    conditions = "; ".join(f"`end round {r.name} when {unparse(r.cond)}`{_line(r.provenance)}"
                           for r in model.round_ends)
    return (f"round {st.round + 1} is not ending: {st.round_plays:,} plays and no `end round` condition has "
            f"held: {conditions}",
            f"cards move but never so that a round ends; a round is stopped after {ROUND_FACTOR} plays per card "
            "and seat")


def _line(provenance: Provenance) -> str:
    return f" (line {provenance.line})" if provenance.line else ""



def idle_state(game: Game, copy_zones: Callable[[list[Any]], object] | None = None) -> tuple[object, ...] | None:
    """Everything a step that needs no decision reads or changes, the count of passes aside; None
    when some rule reads `passes`, since then no state repeats for sure. `copy_zones`: the
    engine's own copy of the zones, when it has one faster than `_frozen` (the states an engine
    compares are all made alike, and lists compare as the tuples do)."""
    if _reads_passes(game.c.model):
        return None
    st = game.state
    zones = _frozen(st.zones) if copy_zones is None else copy_zones(st.zones)
    return (zones, tuple(st.totals), st.round, st.active, st.step, st.direction, tuple(st.next_turns),
            None if st.window is None else tuple(st.window), st.final_turns, frozenset(st.silent), st.passed,
            tuple(st.values))


def idle_round(game: Game) -> tuple[str, str]:
    """(message, hint) for a round whose steps repeat with no decision."""
    model, st = game.c.model, game.state
    conditions = "; ".join(f"`end round {r.name} when {unparse(r.cond)}`{_line(r.provenance)}"
                           for r in model.round_ends)
    return (f"round {st.round + 1} cannot end: every seat passes, nothing changes, and no `end round` condition "
            f"holds: {conditions}", "every round needs an `end round` condition that the play can reach")


def _frozen(x: object) -> object:
    return tuple(_frozen(y) for y in x) if isinstance(x, list) else x


_WATCHED: dict[int, tuple[object, tuple[bool, bool]]] = {}  # id(model) -> (the model, kept alive; the answer)


def _still_rounds_watched(model: Ruleset) -> tuple[bool, bool]:
    """Whether `until` reads only the totals (so rounds that score nothing are watched), and
    whether the score reads nothing that changes: worked out once per model, as the engine asks
    after every round."""
    known = _WATCHED.get(id(model))
    if known is None:
        until, score = model.match.until, model.score
        known = _WATCHED[id(model)] = (model, (names_read(until) <= FIXED | {"totals"},
                                               names_read(score.expr) <= FIXED | {score.var}))
    return known[1]


_PASSES: dict[int, tuple[object, bool]] = {}  # id(model) -> (the model, kept alive so the id stays its own; the answer)


def _reads_passes(model: Ruleset) -> bool:
    """Whether any expression of the model reads `passes`."""
    known = _PASSES.get(id(model))
    if known is None:
        known = _PASSES[id(model)] = (model, _finds_passes(model))
    return known[1]


def _finds_passes(node: object) -> bool:
    if isinstance(node, Ref):
        return node.name == "passes"
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_finds_passes(getattr(node, f.name)) for f in dataclasses.fields(node))
    if isinstance(node, (tuple, list)):
        return any(_finds_passes(x) for x in node)
    if isinstance(node, dict):
        return any(_finds_passes(x) for x in node.values())
    return False
