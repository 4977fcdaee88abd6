"""What a move did, as one seat may know it: a list of events from the state before and after.

    before = narration.snapshot(game)       # just before the move
    game.play(action)
    events = narration.narrate(before, game, seat=viewer, move=move, mover=mover)

The engine keeps no record of effects, so the events are read from the difference of the two
states, card by card (every copy of a card is its own number): which cards left a seat's zone
or a shared one and where they went, which piles of a zone of piles were merged or took new
numbers, the turns given, the direction of play, and the rounds that ended, with their end
rule in words (`round_words`). A card's face is shown only where the seat sees the zone it
left or the zone it entered (`redact.sees`), else it reads `redact.UNSEEN`; a seat of -1 sees
public zones only. Pile numbers are those after the move: how the table reads now.

Events are frozen dataclasses with a `kind`; `as_dict` gives plain data (for JSON). Words are
left to the interface: these are facts, not sentences.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, TypeAlias

from .engine import Game
from .model import Ruleset
from .notation import Move
from .redact import UNSEEN, sees

# A zone as the state holds it: its cards, its piles, or either of them per seat. Which one is
# the model's zone's to say (`per_seat`, `piles`), so the type cannot, and it is read as Any.
ZoneContent: TypeAlias = Any


@dataclass(frozen=True)
class Place:
    """A zone, and whose it is (None: a shared zone)."""

    zone: str
    seat: int | None


@dataclass(frozen=True)
class Moved:
    """Cards that left one place for another; `piles`: the pile each is in now (None: a zone of
    plain cards); `cards` hold faces, or UNSEEN."""

    kind: ClassVar[str] = "moved"
    cards: tuple[str, ...]
    source: Place
    dest: Place
    piles: tuple[int | None, ...]


@dataclass(frozen=True)
class Merged:
    """Piles of one zone (numbered as before the move) that now lie in one pile, `into`."""

    kind: ClassVar[str] = "merged"
    place: Place
    piles: tuple[int, ...]
    into: int


@dataclass(frozen=True)
class Renumbered:
    """Piles that kept their cards but have new numbers: `piles[k]` is now `into[k]`."""

    kind: ClassVar[str] = "renumbered"
    place: Place
    piles: tuple[int, ...]
    into: tuple[int, ...]


@dataclass(frozen=True)
class TurnGiven:
    """A seat was given a turn to come, beside the usual order."""

    kind: ClassVar[str] = "turn_given"
    seat: int


@dataclass(frozen=True)
class DirectionChanged:
    kind: ClassVar[str] = "direction"
    direction: int  # +1: up the seat numbers, -1: down


@dataclass(frozen=True)
class RoundOver:
    """A round ended: by the end rule `reason`, put in words as `words`; the round's scores."""

    kind: ClassVar[str] = "round_over"
    round: int  # from 0
    reason: str
    words: str
    scores: tuple[int, ...]


Event = Moved | Merged | Renumbered | TurnGiven | DirectionChanged | RoundOver


def as_dict(event: Event) -> dict[str, object]:
    """The event as plain data, its kind included."""
    return {"kind": event.kind, **asdict(event)}


@dataclass(frozen=True)
class Snapshot:
    """What `narrate` compares: the zones (copied), direction, turns given, rounds ended."""

    zones: tuple[ZoneContent, ...]  # nested lists made tuples
    direction: int
    next_turns: tuple[int, ...]
    results: int


def snapshot(game: Game) -> Snapshot:
    st = game.state
    return Snapshot(_frozen(st.zones), st.direction, tuple(st.next_turns), len(st.results))


def _frozen(x: ZoneContent) -> ZoneContent:
    return tuple(_frozen(y) for y in x) if isinstance(x, list) else x


def round_words(model: Ruleset, lang: str = "en") -> dict[str, str]:
    """Each round end's name -> its rule in words (the rulebook's sentence), for `RoundOver`."""
    from .book import end_words  # the book's builder: only when a session narrates

    return end_words(model, lang)


def narrate(before: Snapshot, game: Game, seat: int, move: Move | None = None, mover: int | None = None,
            words: dict[str, str] | None = None) -> tuple[Event, ...]:
    """The events between `before` and `game` now, as `seat` may know them. When a round ended
    in between, the cards were dealt again: the move's own card (from `move` and `mover`) is
    told, then the rounds that ended."""
    model, st, faces, face_of = game.c.model, game.state, game.c.faces, game.c.face_of
    events: list[Event] = []
    ended = st.results[before.results:]
    if ended:
        source = _played_from(model, move, mover)
        if source is not None and move is not None:  # a card of the move: `source` says so
            play = model.play(move.play)
            dest = Place(play.dest_zone, move.seat if model.zone(play.dest_zone).per_seat else None)
            shown = tuple(move.card.split("+")) if _sees(model, source, seat) or _sees(model, dest, seat) else (UNSEEN,)
            events.append(Moved(shown, source, dest, (move.pile,) * len(shown)))
        words = words or {}
        events += [RoundOver(r.round, r.reason, words.get(r.reason, r.reason), r.scores) for r in ended]
        return tuple(events)
    old, new = _places(model, before.zones), _places(model, _frozen(st.zones))
    groups: dict[tuple[Place, Place], list[int]] = {}
    for card, (place, _) in new.items():
        was = old.get(card)
        if was is not None and was[0] != place:
            groups.setdefault((was[0], place), []).append(card)
    first = _played_from(model, move, mover)
    for (source, dest), cards in sorted(groups.items(), key=lambda item: item[0][0] != first):
        seen = _sees(model, source, seat) or _sees(model, dest, seat)
        events.append(Moved(tuple(faces[face_of[c]] if seen else UNSEEN for c in cards), source, dest,
                            tuple(new[c][1] for c in cards)))
    events += _pile_changes(model, before.zones, st.zones, old)
    events += [TurnGiven(s) for s in _given(before.next_turns, tuple(st.next_turns))]
    if st.direction != before.direction:
        events.append(DirectionChanged(st.direction))
    return tuple(events)


def _played_from(model: Ruleset, move: Move | None, mover: int | None) -> Place | None:
    """Where the move's card came from: its events are told first."""
    if move is None or not move.card or mover is None or model.play(move.play).value is not None:
        return None  # a pass, or a play of no card: it names a value, and moves no card itself
    zone = model.play(move.play).card_zone
    return Place(zone, mover if model.zone(zone).per_seat else None)


def _given(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    """The turns queued by the move: those of `after` beyond what is left of `before` (a turn
    that ended took its seat from the front of the queue)."""
    for start in range(len(before) + 1):
        rest = before[start:]
        if after[:len(rest)] == rest:
            return after[len(rest):]
    return after


def _sees(model: Ruleset, place: Place, seat: int) -> bool:
    return sees(model.zone(place.zone), place.seat, seat)


def _places(model: Ruleset, zones: Sequence[ZoneContent]) -> dict[int, tuple[Place, int | None]]:
    """Each card -> its place and its pile's number (None in a zone of plain cards)."""
    found: dict[int, tuple[Place, int | None]] = {}
    for zone, content in zip(model.zones, zones, strict=True):
        for owner, part in (enumerate(content) if zone.per_seat else ((None, content),)):
            place = Place(zone.name, owner)
            if zone.piles:
                for number, pile in enumerate(part):
                    for card in pile:
                        found[card] = (place, number)
            else:
                for card in part:
                    found[card] = (place, None)
    return found


def _pile_changes(model: Ruleset, before: Sequence[ZoneContent], after: Sequence[ZoneContent],
                  old: dict[int, tuple[Place, int | None]]) -> list[Event]:
    """Merges and new numbers in every zone of piles: a pile now holding the cards of two piles
    or more of the same place was merged; one holding one old pile's under another number was
    renumbered."""
    events: list[Event] = []
    for zone, _was, now in zip(model.zones, before, after, strict=True):
        if not zone.piles:
            continue
        for owner, part in (enumerate(now) if zone.per_seat else ((None, now),)):
            place = Place(zone.name, owner)
            moved_from, moved_to = [], []
            for number, pile in enumerate(part):
                origins = sorted({origin for c in pile if c in old and old[c][0] == place
                                  and (origin := old[c][1]) is not None})  # a pile of this place
                if len(origins) > 1:
                    events.append(Merged(place, tuple(origins), number))
                elif origins and origins[0] != number:
                    moved_from.append(origins[0])
                    moved_to.append(number)
            if moved_from:
                events.append(Renumbered(place, tuple(moved_from), tuple(moved_to)))
    return events
