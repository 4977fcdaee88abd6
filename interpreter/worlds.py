"""What a seat knows of the cards it cannot see, and matches sampled from that knowledge, for
bots to search.

A seat's knowledge is built from what the seat observes and nothing else: its view after the
deal, and after every move the move as it saw it (`redact.as_seen`) and its view again. It
keeps, per hidden place (a hidden zone of one seat, or a shared hidden zone), the faces the seat
saw go in there and that cannot have left unseen since ("pinned"), and what a rival's choices
told of it: a value that may be named only while the namer holds a card like it (Go Fish's
`choose value r of rank where some c in cards(hand): c.rank == r`) says its hand holds one of
those faces ("held"); a play that takes every card like the value from a hand, in sight, says
the hand has none left but those it gains unseen after ("lacks"). Everything else it cannot see
is a pool of unknown cards. Where it cannot tell (a place that lost cards it did not see leave,
a play that swaps or passes hidden zones), it forgets: knowing less is honest, knowing wrong is
not.

Sampling deals the pool at random into the hidden places, as many as each shows, after the
pinned faces and a card of each held set, and none of the faces a place lacks; the turn, the
window, the totals and the rest of the game's flow are public and come as they are
(`public_flow`). Copies of a face are alike (the engine plays the first copy of a face it
finds), so cards are numbered by face in a fixed order, never read from the real state. What the
state says of a card by its number (the seat that played it this round, the card a value names)
comes by where the card lies instead (`Flow`), and each world gives it to the card it deals
there.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from . import model as m
from .compile import ENV_SIZE, FREE, CChoice, Compiled, expressions, first_cards, keeps
from .engine import State, View, empty_zones
from .fast import FastGame
from .notation import Move
from .redact import UNSEEN

if TYPE_CHECKING:  # bots imports this module
    from .bots import SeatView

Place = tuple[int, int]  # (zone index, owner seat, or -1 for a shared zone)
# a place's content: its faces (or cards), or its piles of them where the zone has piles; the
# zone's model tells which, as for `engine.State.zones`, so the type cannot
Content = list[Any]


@dataclasses.dataclass(frozen=True)
class Flow:
    """The public course of a match (`public_flow`): the state without its cards, and what the
    state says of particular cards told by where they lie, a place and a position in it. Where
    a card lies is public even where its face is not (seats see cards come and go, and a hidden
    place shows its count), so the marks tell a world no face: it gives each to the card it
    deals to that spot."""

    state: State  # zones and `played` left empty, the values that name a card left at no card
    played: tuple[tuple[Place, int, int], ...]  # (place, position, seat): a card played this round, by that seat
    named: tuple[tuple[int, Place, int], ...]  # (value index, place, position): the card a value names


def public_flow(compiled: Compiled, state: State) -> Flow:
    """What every seat at a real table knows of the match beyond the cards it sees: whose
    turn, the window, the totals, the rounds' results, the named values, and who played which
    card and which card a value names, by the card's place and position (`Flow`). Nothing of it
    is shared with `state`: a world played on never changes the match."""
    spots = {card: (place, i) for place, cards in _places(compiled, state.zones) for i, card in enumerate(cards)}
    card_values = [k for k, value in enumerate(compiled.model.values) if value.type == "card"]
    named = tuple((k, *spots[card]) for k in card_values if (card := state.values[k]) in spots)
    values = list(state.values)
    for k in card_values:
        if values[k] is not None:
            values[k] = compiled.deck_size  # no card, until a world deals the one named
    bare = dataclasses.replace(state, zones=[], totals=list(state.totals), next_turns=list(state.next_turns),
                               window=None if state.window is None else list(state.window),
                               results=list(state.results), silent=set(state.silent), values=values, played=[])
    return Flow(bare, tuple((*spots[card], seat) for card, seat in enumerate(state.played) if seat >= 0
                            and card in spots), named)


def _places(compiled: Compiled, zones: list[Any]) -> list[tuple[Place, list[int]]]:
    """Each place and its cards in order (a zone of piles, its piles one after another)."""
    out = []
    for z, zone in enumerate(compiled.model.zones):
        for owner, content in enumerate(zones[z]) if zone.per_seat else ((-1, zones[z]),):
            out.append(((z, owner), [card for pile in content for card in pile] if zone.piles else content))
    return out


@dataclasses.dataclass(frozen=True)
class Layout:
    """A view read back into numbers: the faces in each place the seat sees, the count (and the
    number of piles) of each place it does not."""

    visible: dict[Place, Content]  # faces, or piles of faces
    hidden: dict[Place, tuple[int, int | None]]  # (cards, piles or None)
    faces: Counter[int]  # every face the seat sees, wherever it lies

    @classmethod
    def of(cls, compiled: Compiled, view: View) -> Layout:
        index = {text: i for i, text in enumerate(compiled.faces)}
        visible: dict[Place, Content] = {}
        hidden: dict[Place, tuple[int, int | None]] = {}
        faces: Counter[int] = Counter()
        for z, zone in enumerate(compiled.model.zones):
            content = view["zones"][zone.name]
            for owner, shown in enumerate(content) if zone.per_seat else ((-1, content),):
                if isinstance(shown, dict):
                    hidden[(z, owner)] = (shown["count"], shown.get("piles"))
                elif zone.piles:
                    visible[(z, owner)] = [[index[f] for f in pile] for pile in shown]
                    faces.update(f for pile in visible[(z, owner)] for f in pile)
                else:
                    visible[(z, owner)] = [index[f] for f in shown]
                    faces.update(visible[(z, owner)])
        return cls(visible, hidden, faces)

    def count(self, place: Place) -> int:
        return self.hidden[place][0] if place in self.hidden else 0


@dataclasses.dataclass
class Lack:
    """A hidden place holds none of `faces` but for `allowed` cards: those it gained unseen since
    a play took every card of those faces from it in sight."""

    faces: frozenset[int]
    allowed: int


class Knowledge:
    """What one seat knows of the cards it cannot see: derived from its views and the moves as
    it saw them, one observation at a time (`observe`)."""

    def __init__(self, compiled: Compiled, seat: int, start: View):
        self.c, self.seat = compiled, seat
        self.deck = Counter(compiled.face_of)
        self.layout = Layout.of(compiled, start)
        self.round = start["round"]
        self.pinned: dict[Place, Counter[int]] = {}
        self.observed = 0  # observations taken
        # the zones a play's effects swap or pass round whole: their hidden places are shuffled
        # from the seat's point of view, whatever the counts say
        self._stirs = {p.name: {compiled.zone_index[z] for e in p.effects
                                for z in (e.zones if isinstance(e, m.Swap) else (e.zone,) if isinstance(e, m.PassZone)
                                          else ())}
                       for p in compiled.model.plays}
        # the one face a play can take, where its rules leave one: the play names the card unseen
        self._only_face = {p.name: next(iter(p.faces)) for p in compiled.plays
                           if p.faces is not None and len(p.faces) == 1 and p.mate is None}
        # a place's held sets: each says the place holds a card of one of those faces besides its pins
        self.held: dict[Place, list[frozenset[int]]] = {}
        # a place's lacks: faces it holds none of, but for as many cards as it gained unseen since
        self.lacks: dict[Place, list[Lack]] = {}
        self._tells = _tells(compiled)
        self._takes = _takes(compiled)

    def observe(self, mover: int, move: Move, view: View) -> None:
        """Take one observation: `mover` made `move` (as this seat saw it); `view` is this seat's
        view after it and after all that followed by itself."""
        self.observed += 1
        before, after = self.layout, Layout.of(self.c, view)
        self.layout = after
        if view["round"] != self.round:  # a new deal: nothing is known of it yet
            self.round, self.pinned, self.held, self.lacks = view["round"], {}, {}, {}
            return
        for zone, faces_of in self._tells.get(move.play, ()):
            place, faces = (zone, mover), faces_of.get(move.card)
            pins = self.pinned.get(place, Counter())
            if faces and place in before.hidden and not any(pins[f] for f in faces):
                self._hold(place, faces)  # not a card the seat saw go in: one of its own
        explained: Counter[Place] = Counter()  # the change in each hidden place the move itself accounts for
        appeared, vanished = after.faces - before.faces, before.faces - after.faces
        announced: list[int] = []
        dest: Place | None = None
        if move.card and self.c.model.play(move.play).value is None:  # a play of no card moves none itself
            play = self.c.model.play(move.play)
            zones = self.c.zone_index
            for z in self._stirs[play.name]:
                for place in {*self.pinned, *self.held, *self.lacks}:
                    if place[0] == z:
                        self._forget(place)
            sources = [(zones[play.card_zone], mover)] + ([(zones[play.mate.zone], mover)] if play.mate else [])
            dest_zone = zones[play.dest_zone]
            dest = (dest_zone, move.seat if self.c.model.zones[dest_zone].per_seat and play.choose is None
                    and move.seat is not None else -1)
            known = move.card != UNSEEN or play.name in self._only_face
            if move.card != UNSEEN:
                index = self.c.face_index
                announced = [index[part.lower()] for part in move.card.split("+")]
            elif known:
                announced = [self._only_face[play.name]]
            if play.meld is not None and len(announced) > 1:  # a meld: every card from the one zone
                sources = sources * len(announced)
            to_hidden = dest in before.hidden
            for k, source in enumerate(sources):
                if source in before.hidden:
                    explained[source] -= 1
                    if not known:
                        self._forget(source)
                    else:
                        self._unpin(source, announced[k])
                        if not to_hidden:  # it came to light: not a card that left unseen
                            appeared[announced[k]] -= 1
                elif known and to_hidden:  # it went out of sight, where the move says
                    vanished[announced[k]] -= 1
            if to_hidden:
                explained[dest] += len(sources)
        appeared, vanished = +appeared, +vanished
        changes = {p: after.count(p) - before.count(p) - explained[p] for p in {*before.hidden, *after.hidden}}
        losses = {p: -d for p, d in changes.items() if d < 0}
        gains = {p: d for p, d in changes.items() if d > 0}
        if len(losses) == 1 and sum(appeared.values()) == next(iter(losses.values())):
            place = next(iter(losses))  # the faces that came to light are the very cards that left it
            for face, k in appeared.items():
                for _ in range(k):
                    self._unpin(place, face)
        else:
            for place in losses:
                self._forget(place)
        if vanished and len(gains) == 1 and sum(vanished.values()) == next(iter(gains.values())):
            self.pinned.setdefault(next(iter(gains)), Counter()).update(vanished)
            gains = {}  # the seat saw what went in
        for place, d in gains.items():
            for lack in self.lacks.get(place, ()):
                lack.allowed += d
        for zone, chosen, faces_of in self._takes.get(move.play, ()):
            owner, faces = move.seat if chosen else mover, faces_of.get(move.card)
            if faces and owner is not None and (zone, owner) in after.hidden:
                self.lacks.setdefault((zone, owner), []).append(Lack(faces, gains.get((zone, owner), 0)))
        if announced and dest is not None and dest in after.hidden and not self.c.model.zones[dest[0]].piles:
            self.pinned.setdefault(dest, Counter()).update(announced)
        self._reconcile()

    def _hold(self, place: Place, faces: frozenset[int]) -> None:
        """The place holds a card of `faces` besides its pins: a set that one it holds already
        implies (a rank asked for again) adds nothing, and it takes the place of the sets it
        implies. So a rank asked for again and again does not count as more sets than the hand
        has cards, which `_reconcile` would drop as a contradiction."""
        sets = self.held.get(place, [])
        if any(known <= faces for known in sets):
            return
        self.held[place] = [known for known in sets if not faces <= known] + [faces]

    def _unpin(self, place: Place, face: int) -> None:
        """A card of `face` left `place` in sight: a pin of it, else perhaps the card a held set meant."""
        pins = self.pinned.get(place)
        if pins and pins[face] > 0:
            pins[face] -= 1
        elif place in self.held:
            self.held[place] = [faces for faces in self.held[place] if face not in faces]

    def _forget(self, place: Place) -> None:
        """The place lost cards the seat did not see leave, or was stirred: what it knew of it is gone."""
        self.pinned.pop(place, None)
        self.held.pop(place, None)
        self.lacks.pop(place, None)

    def _reconcile(self) -> None:
        """Drop what the present view contradicts: pins in a place the seat now sees, more pins
        than a place holds, more of a face than the deck has left unseen."""
        layout = self.layout
        for place, pins in list(self.pinned.items()):
            pins = +pins
            if place not in layout.hidden or not pins or sum(pins.values()) > layout.count(place) or \
                    self.c.model.zones[place[0]].piles:
                del self.pinned[place]
            else:
                self.pinned[place] = pins
        unseen = self.unseen()
        total: Counter[int] = Counter()
        for pins in self.pinned.values():
            total.update(pins)
        for face, k in total.items():
            if k > unseen[face]:
                for pins in self.pinned.values():
                    pins.pop(face, None)
        for place in [p for p in self.lacks if p not in layout.hidden]:
            del self.lacks[place]
        free = unseen.copy()
        for pins in self.pinned.values() if self.held else ():
            free -= pins
        for place, sets in list(self.held.items()):  # each set needs a card of its own, among those no pin holds
            room = layout.count(place) - sum(self.pinned.get(place, Counter()).values())
            if not sets or place not in layout.hidden or len(sets) > room or \
                    any(not any(free[f] for f in faces) for faces in sets):
                del self.held[place]

    def unseen(self) -> Counter[int]:
        """The faces of the cards the seat does not see now."""
        return self.deck - self.layout.faces


class Sampler:
    """Deals worlds for one decision: the seat's knowledge and the public flow, set once. Worlds
    run on the fast engine (`fast.FastGame`), whichever engine runs the real match: the two
    play alike, and a search plays thousands of moves a decision."""

    def __init__(self, compiled: Compiled, knowledge: Knowledge, flow: Flow):
        self.c, self.flow = compiled, flow
        layout = knowledge.layout
        self.layout = layout
        pinned = knowledge.pinned
        pool = knowledge.unseen()
        for pins in pinned.values():
            pool -= pins
        self.pool = sorted(pool.elements())
        self.places = [(place, count, piles, sorted(pinned.get(place, Counter()).elements()))
                       for place, (count, piles) in layout.hidden.items()]
        self.held = [(place, sets) for place, sets in knowledge.held.items() if sets]
        self.lacks = {place: [(lack.faces, lack.allowed) for lack in lacks]
                      for place, lacks in knowledge.lacks.items() if lacks}
        self.cards_of: dict[int, list[int]] = {}
        for card, face in enumerate(compiled.face_of):
            self.cards_of.setdefault(face, []).append(card)
        self.blank = FastGame(compiled, deal=False)  # each world resumes from a copy of its settings

    @property
    def uncertain(self) -> bool:
        """Whether two samples can differ in their cards: unseen faces of more than one kind."""
        return len(set(self.pool)) > 1 or any(len(set(pins)) > 1 for *_, pins in self.places)

    def sample(self, rng: random.Random) -> FastGame:
        """A match the seat cannot tell from the real one, its chance seeded from `rng`."""
        pool = list(self.pool)
        rng.shuffle(pool)
        next_card = {face: iter(cards) for face, cards in self.cards_of.items()}
        zones: list[Any] = empty_zones(self.c)

        def put(place: Place, content: Content) -> None:
            z, owner = place
            if owner < 0:
                zones[z] = content
            else:
                zones[z][owner] = content

        for place, shown in self.layout.visible.items():
            put(place, [[next(next_card[f]) for f in pile] for pile in shown] if self.c.model.zones[place[0]].piles
                else [next(next_card[f]) for f in shown])
        dealt: dict[Place, list[int]] = {}  # faces dealt to a place ahead of the rest, besides its pins
        for place, sets in self.held:  # first, so that no other place deals away the faces they need
            chosen = dealt[place] = []
            for one_of in sets:
                if not any(f in one_of for f in chosen):
                    at = next((i for i in range(len(pool) - 1, -1, -1) if pool[i] in one_of), None)
                    if at is not None:  # the pool is shuffled: the last such card is one at random
                        chosen.append(pool.pop(at))
        for place, count, _, pins in self.places if self.lacks else ():  # next: what they lack goes elsewhere
            if place in self.lacks:
                ahead = dealt.setdefault(place, [])
                ahead += _deal_lacking(pool, count - len(pins) - len(ahead), self.lacks[place])
        for place, count, piles, pins in self.places:
            given = pins + dealt.get(place, [])
            faces = [pool.pop() for _ in range(count - len(given))]
            if given:  # the pool is shuffled already: only the known faces need a place among the rest
                faces += given
                rng.shuffle(faces)
            cards = [next(next_card[f]) for f in faces]
            put(place, cards if piles is None else _split(cards, piles, rng))
        flow = self.flow.state
        played, values = [-1] * (self.c.deck_size + 1), list(flow.values)
        if self.flow.played or self.flow.named:
            spots = dict(_places(self.c, zones))
            for place, i, seat in self.flow.played:
                played[spots[place][i]] = seat
            for k, place, i in self.flow.named:
                values[k] = spots[place][i]
        state = flow.copy()
        state.zones, state.values, state.played = zones, values, played
        return self.blank.resumed(state, rng.getrandbits(64))


def _deal_lacking(pool: list[int], count: int, lacks: list[tuple[frozenset[int], int]]) -> list[int]:
    """`count` faces from the end of the shuffled `pool` (taken out of it), at most `allowed` of
    each lack's faces: the others stay for the places that may hold them. Should the pool hold
    too few, the rest come as they are."""
    allowed = [n for _, n in lacks]
    taken: list[int] = []
    i = len(pool) - 1
    while len(taken) < count and i >= 0:
        face = pool[i]
        hits = [k for k, (faces, _) in enumerate(lacks) if face in faces]
        if all(allowed[k] > 0 for k in hits):
            for k in hits:
                allowed[k] -= 1
            taken.append(pool.pop(i))
        i -= 1
    while len(taken) < count and pool:
        taken.append(pool.pop())
    return taken


def _takes(compiled: Compiled) -> dict[str, list[tuple[int, bool, dict[str, frozenset[int]]]]]:
    """What a play of no card tells by what it takes, play by play: for each of its effects that
    moves every card from a zone of the chosen seat (or of the seat playing) that a condition
    reading only the card and the value keeps (Go Fish's `move all c from hand of victim to hand
    where c.rank == r`), the zone, whether it is the chosen seat's, and for each value the faces
    it takes: the zone then holds none of them."""
    takes: dict[str, list[tuple[int, bool, dict[str, frozenset[int]]]]] = {}
    for play in compiled.plays:
        choice, rule = play.value, play.model.value
        if choice is None or rule is None:
            continue
        chosen = play.model.choose.name if play.model.choose is not None else None
        for e in play.model.effects:
            match e:
                case m.MoveCards(count=None, var=str(var), where=where, source=m.ZoneRef(
                        zone=zone, seat=m.Ref(name=seat))) if (seat in ("self", chosen) and where is not None
                                                               and m.reads_only(where, {var, rule.name})):
                    takes.setdefault(play.name, []).append(
                        (compiled.zone_index[zone], seat != "self", _faces_by_value(compiled, choice, var, rule.name,
                                                                                    where)))
    return takes


def _faces_by_value(compiled: Compiled, choice: CChoice, var: str, value: str,
                    test: object) -> dict[str, frozenset[int]]:
    """For each value of the play's choice (as a move writes it), the faces that `test`, reading
    the card as `var` and the value as `value`, keeps."""
    fn = expressions(compiled).expr(test, {var: FREE, value: FREE + 1})
    first = first_cards(compiled.face_of)
    env: list[Any] = [None] * ENV_SIZE
    out = {}
    for v in choice.values:
        env[FREE + 1] = v
        out[str(v)] = frozenset(f for f, card in first.items() if keeps(env, fn, card))
    return out


def _tells(compiled: Compiled) -> dict[str, list[tuple[int, dict[str, frozenset[int]]]]]:
    """What naming a value tells of the namer's hand, play by play: for each conjunct of a play's
    value condition that reads `some c in cards(ZONE of self): BODY`, BODY reading only the card
    and the value, the zone and, for each value (as a move writes it), the faces BODY keeps. A
    seat may name the value only while it holds a card of one of them."""
    tells: dict[str, list[tuple[int, dict[str, frozenset[int]]]]] = {}
    for play in compiled.plays:
        choice, rule = play.value, play.model.value
        if choice is None or rule is None or rule.where is None:
            continue
        for e in m.conjuncts(rule.where):
            match e:
                case m.Quantifier(kind="some", var=var, body=body, collection=m.Call(
                        function="cards", args=(m.ZoneRef(zone=zone, seat=m.Ref(name="self")),))
                                  ) if var != rule.name and m.reads_only(body, {var, rule.name}):
                    tells.setdefault(play.name, []).append(
                        (compiled.zone_index[zone], _faces_by_value(compiled, choice, var, rule.name, body)))
    return tells


class Memory:
    """A bot's knowledge of its match, brought up to date from each `SeatView`."""

    def __init__(self) -> None:
        self.knowledge: Knowledge | None = None
        self.start: View | None = None

    def of(self, seen: SeatView) -> Knowledge:
        k = self.knowledge
        if k is None or seen.start is not self.start or k.observed > len(seen.history):  # a new match
            assert seen.start is not None, "a Table gives the view once dealt to every bot that observes"
            k = self.knowledge = Knowledge(seen.compiled, seen.seat, seen.start)
            self.start = seen.start
        for s in seen.history[k.observed:]:
            k.observe(s.mover, s.move, s.view)
        return k

    def sampler(self, seen: SeatView) -> Sampler:
        return Sampler(seen.compiled, self.of(seen), seen.flow)


def _split(cards: list[int], piles: int, rng: random.Random) -> list[list[int]]:
    """`cards` in `piles` non-empty piles of random sizes: the view shows only how many."""
    cuts = sorted(rng.sample(range(1, len(cards)), piles - 1)) if piles > 1 else []
    bounds = [0, *cuts, len(cards)]
    return [cards[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]  # neighbours: bounds[1:] is one shorter

