"""Invariants the engine keeps whatever the ruleset, checked on demand after every action.

    every card in one place   each card id of the deck lies in exactly one zone (or pile)
    cards conserved           the zones hold as many cards as the deck has
    no empty pile             a pile left empty is taken away
    hidden cards stay hidden  each seat's view shows faces only of the zones the model lets it
                              see (public, or owner-only and its own), counts of the rest, and
                              both agree with the state
    moves distinct            no two legal actions read as the same move
    moves round-trip          each legal move's text parses back to that move
    the match ends            no engine error, and no round longer than a generous bound

The checks read the model (zone visibility) and the state directly: they never trust the view
they check. They are slow next to the engine's hot path, so nothing runs them unless asked
(`cardrules selfplay --check-invariants`).
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import TypeAlias

from .bots import Bot, Table
from .engine import MAX_ROUNDS, EngineError, Game
from .model import Zone
from .notation import Move, MoveError, parse_move
from .progress import ROUND_FACTOR, round_bound
from .redact import sees

ONE_PLACE = "every card in one place"
CONSERVED = "cards conserved"
NO_EMPTY_PILE = "no empty pile"
HIDDEN = "hidden cards stay hidden"
DISTINCT = "moves distinct"
ROUND_TRIP = "moves round-trip"
ENDS = "the match ends"

SHOWN = 5  # card ids listed at most in one message

Content: TypeAlias = "list[int] | list[list[int]]"  # a seat's (or a shared) zone: its cards, or its piles
# a zone of a seat (None: shared) as the state holds it, its faces, and its counts, as a view shows them
Part: TypeAlias = "tuple[int | None, Content, list[str] | list[list[str]], dict[str, int]]"


def check(game: Game, action: int | None = None) -> list[str]:
    """Every invariant that does not hold now, as `INVARIANT, after action N: DETAILS`; empty
    when all hold. `action` is the number of actions taken so far (0: just dealt); it defaults
    to the plays of the match, which misses the passes made in response windows."""
    n = game.state.plays if action is None else action
    cards, sound = _cards(game)
    found = [*cards, *(_hidden(game) if sound else ()), *_moves(game)]
    return [f"{label}, after action {n}: {detail}" for label, detail in found]


class Checker:
    """Plays matches out as `bots.play_out` does, checking every invariant after the deal and
    after every action; keeps the number of actions checked and every failure, each prefixed
    with its match's number (1-based, in the order played).

    Once a check fails, the rest of that match is played but not checked (its state is suspect
    and would repeat the failure at every action). A match that cannot end (an `EngineError`,
    a round over `round_bound`, more than `max_actions` actions) is a failure and is left as it
    stands; `max_actions` defaults to the engine's own limit of MAX_ROUNDS rounds of
    `round_bound` actions. `first_match`: the matches played before this checker's first, so
    that a checker of one match among many (a worker's) numbers it as the run does."""

    def __init__(self, max_actions: int | None = None, first_match: int = 0):
        self.max_actions = max_actions
        self.checked_actions = 0
        self.matches = first_match
        self.failures: list[str] = []

    def add(self, checked_actions: int, failures: Iterable[str]) -> None:
        """Count in one more match checked elsewhere (by another checker, in another process)."""
        self.matches += 1
        self.checked_actions += checked_actions
        self.failures += failures

    def play_out(self, game: Game, bots: list[Bot]) -> bool:
        """Play the match to its end; False when it fails to end (the failure is recorded)."""
        self.matches += 1
        st = game.state
        per_round = round_bound(game)
        cap = MAX_ROUNDS * per_round if self.max_actions is None else self.max_actions
        actions = in_round = 0
        round_now = st.round
        checking = self._record(check(game, 0))
        table = Table(game, bots)
        while not st.over:
            if actions >= cap:
                return self._stuck(actions, f"the match has run {actions:,} actions, the most it may")
            if in_round >= per_round:
                return self._stuck(actions, f"round {st.round + 1} has run {in_round:,} actions, the bound of a "
                                   f"round ({ROUND_FACTOR} x {game.c.deck_size} cards x {game.n} seats): "
                                   "its plays go on and no 'end round' condition holds")
            try:
                table.play(table.choose())
            except EngineError as e:
                return self._stuck(actions + 1, f"the engine stopped: {e}")
            actions += 1
            in_round = 0 if st.round != round_now else in_round + 1
            round_now = st.round
            if checking:
                self.checked_actions += 1
                checking = self._record(check(game, actions))
        return True

    def _record(self, failures: list[str]) -> bool:
        """Keep the failures; True while the match is clean and worth checking on."""
        self.failures += [f"match {self.matches}: {f}" for f in failures]
        return not failures

    def _stuck(self, action: int, detail: str) -> bool:
        self.failures.append(f"match {self.matches}: {ENDS}, after action {action}: {detail}")
        return False


# ------------------------------------------------------------------ the cards


def _cards(game: Game) -> tuple[list[tuple[str, str]], bool]:
    """Each card id once, as many as the deck has, no empty pile; and whether every entry of
    the zones is a card id at all (the views cannot be judged otherwise). The common case, all
    is well, is one flat list and two sets; the places are named only when something is wrong."""
    size = game.c.deck_size
    stacks = list(_stacks(game))
    flat = [card for *_, cards in stacks for card in cards]
    if (len(flat) == size and set(flat) == set(range(size)) and set(map(type, flat)) == {int}
            and all(cards for _, _, pile, cards in stacks if pile is not None)):
        return [], True
    seen: dict[int, str] = {}
    out = []
    for zone, owner, pile, cards in stacks:
        where = _where(zone, owner, pile)
        if pile is not None and not cards:
            out.append((NO_EMPTY_PILE, f"{where} is empty"))
        for card in cards:
            if type(card) is not int or not 0 <= card < size:
                out.append((ONE_PLACE, f"{card!r} in {where} is not a card of the deck (ids 0 to {size - 1})"))
            elif card in seen:
                out.append((ONE_PLACE, f"{_card(game, card)} is in {seen[card]} and in {where}"))
            else:
                seen[card] = where
    missing = [c for c in range(size) if c not in seen]
    if missing:
        listed = ", ".join(_card(game, c) for c in missing[:SHOWN]) + (", ..." if len(missing) > SHOWN else "")
        out.append((ONE_PLACE, f"{len(missing)} of the deck's cards lie in no zone: {listed}"))
    if len(flat) != size:
        out.append((CONSERVED, f"the zones hold {len(flat)} cards, the deck has {size}"))
    return out, all(type(card) is int and 0 <= card < size for card in flat)


def _stacks(game: Game) -> Iterator[tuple[Zone, int | None, int | None, list[int]]]:
    """(zone, owner seat or None, pile index or None, cards) for every stack of cards of the
    state: a zone of cards, or one pile of a zone of piles."""
    for zone, content in zip(game.c.model.zones, game.state.zones, strict=True):
        for owner, cards in enumerate(content) if zone.per_seat else ((None, content),):
            if zone.piles:
                for i, pile in enumerate(cards):
                    yield zone, owner, i, pile
            else:
                yield zone, owner, None, cards


def _where(zone: Zone, owner: int | None, pile: int | None = None) -> str:
    """A stack as a person reads it: `hand of seat 1`, `row of seat 0, pile 2`, `stock`."""
    where = zone.name if owner is None else f"{zone.name} of seat {owner}"
    return where if pile is None else f"{where}, pile {pile}"


def _card(game: Game, card: int) -> str:
    return f"card {card} ({game.c.faces[game.c.face_of[card]]})"


# ------------------------------------------------------------------ the views


def _hidden(game: Game) -> list[tuple[str, str]]:
    """Each seat's view against the state and the model's visibility of each zone. What each
    stack shows, its faces or its counts, is worked out once for all seats; a view equal to
    what the engine is expected to write passes at once, and any other is judged entry by
    entry under the rule itself: faces where the seat sees, only true counts elsewhere."""
    model, faces, face_of = game.c.model, game.c.faces, game.c.face_of
    stacks: list[tuple[Zone, list[Part]]] = []  # per zone: its parts, one per seat or one shared
    for zone, content in zip(model.zones, game.state.zones, strict=True):
        parts: list[Part] = []
        for owner, cards in enumerate(content) if zone.per_seat else ((None, content),):
            if zone.piles:
                parts.append((owner, cards, [[faces[face_of[c]] for c in pile] for pile in cards],
                              {"count": sum(map(len, cards)), "piles": len(cards)}))
            else:
                parts.append((owner, cards, [faces[face_of[c]] for c in cards], {"count": len(cards)}))
        stacks.append((zone, parts))
    rule_names = {*(z.name for z in model.zones), *(p.name for p in model.plays), *(p.name for p in model.params),
                  *(r.reason for r in game.state.results)}  # a face may share its text with a rule's name
    out = []
    for seat in range(game.n):
        view = game.view(seat)
        expected = {}
        for zone, parts in stacks:
            entries = [shown if sees(zone, owner, seat) else counts for owner, _, shown, counts in parts]
            expected[zone.name] = entries if zone.per_seat else entries[0]
        if view.get("zones") != expected:
            out += [(HIDDEN, f"seat {seat}'s view {problem}") for problem in _judge(seat, view.get("zones"), stacks)]
        leaked = sorted({s for s in _strings([v for k, v in view.items() if k not in ("zones", "values")])
                         if s.lower() in game.c.face_index} - rule_names)
        seen = set(_strings(view.get("zones")))  # a named value may show a card the seat sees, and no other
        leaked += sorted({s for s in _strings(list((view.get("values") or {}).values()))
                          if s.lower() in game.c.face_index and s not in seen} - rule_names)
        if leaked:
            out.append((HIDDEN, f"seat {seat}'s view shows {', '.join(leaked)} outside its zones"))
    return out


def _judge(seat: int, zones: object, stacks: list[tuple[Zone, list[Part]]]) -> list[str]:
    """What is wrong with a view's zones that differ from the expected ones, if anything."""
    names = [zone.name for zone, _ in stacks]
    if not isinstance(zones, dict) or list(zones) != names:
        return [f"lists the zones {list(zones) if isinstance(zones, dict) else zones!r}, not {names}"]
    out = []
    for zone, parts in stacks:
        entries = zones[zone.name] if zone.per_seat else [zones[zone.name]]
        if not isinstance(entries, list) or len(entries) != len(parts):
            out.append(f"of {zone.name} is not one entry per seat")
            continue
        for (owner, cards, shown, _), entry in zip(parts, entries, strict=True):
            where = f"of {_where(zone, owner)} ({zone.visibility})"
            if sees(zone, owner, seat):
                if entry != shown:
                    out.append(f"{where} shows {entry!r}; it holds {shown!r}")
            else:
                out += [f"{where} {problem}" for problem in _counts_only(zone, cards, entry)]
    return out


def _counts_only(zone: Zone, cards: Content, entry: object) -> list[str]:
    """What is wrong with the entry a view gives a zone it may not see: only whole numbers, a
    `count` equal to the cards it holds and, for piles, any `piles` equal to their number."""
    if not isinstance(entry, dict) or {type(v) for v in entry.values()} - {int}:
        return [f"shows {entry!r}, where only counts may stand"]
    held = sum(len(p) for p in cards if isinstance(p, list)) if zone.piles else len(cards)
    out = []
    if entry.get("count") != held:
        out.append(f"says it holds {entry.get('count')!r} cards; it holds {held}")
    if zone.piles and "piles" in entry and entry["piles"] != len(cards):
        out.append(f"says it holds {entry['piles']!r} piles; it holds {len(cards)}")
    return out


def _strings(x: object) -> list[str]:
    """Every string among the values of nested dicts and lists (not the keys: those are the
    view's own field names)."""
    out: list[str] = []
    todo = [x]
    while todo:
        x = todo.pop()
        if type(x) is str:
            out.append(x)
        elif type(x) is dict:
            todo += x.values()
        elif type(x) is list or type(x) is tuple:
            todo += x
    return out


# ------------------------------------------------------------------ the moves


def _moves(game: Game) -> list[tuple[str, str]]:
    seen: set[str] = set()
    open_plays = game.open_plays()
    out = []
    for action in game.actions():
        move = game.move_of(action)
        text = str(move)
        if text in seen:
            out.append((DISTINCT, f"two legal actions of seat {game.to_move} read '{text}'"))
        seen.add(text)
        try:
            back = _parse(text, open_plays)
        except MoveError as e:
            out.append((ROUND_TRIP, f"'{text}' does not parse: {e.message}"))
            continue
        if back != move:
            out.append((ROUND_TRIP, f"'{text}' parses to {back!r}, not {move!r}"))
    return out


@functools.lru_cache(maxsize=4096)
def _parse(text: str, open_plays: tuple[str, ...]) -> Move:
    """`parse_move`, remembered: it reads the same few texts at every action of a match."""
    return parse_move(text, open_plays)
