"""Information-Set Monte Carlo Tree Search, single observer (Cowling, Powley & Whitehouse 2012).

One tree for the seat to move, over the moves of every seat as that seat's search sees them.
Each iteration samples a world the seat cannot tell from the real one (`worlds.Sampler`),
descends the tree by UCB among the children whose moves the sampled world allows (each such
child counts one more availability, the UCB's parent count), expands one untried move, plays
on with each seat's greedy move (the best one ply ahead by the ruleset's standing, as the greedy
bot judges, among at most `LINE_CANDIDATES` of its moves, one of each play first), and scores
the line by the ruleset's own standing (`outcome`) a few plays after the decision: `HORIZON`
plays per seat, at most `LINE_PLAYS` in all, tree and playout together (passes do not count, up
to `PASSES_PER_PLAY` for each play), or sooner where the round (or the match) ends.
Where most of a search's first lines end quiet, no seat's value changed (a score that counts
only past a threshold: a side's seventh trick, an empty hand), it starts again and plays each
quiet line on at random until a value changes (`_played_on`). A seat that names no budget
runs `ISMCTS_ITERATIONS` iterations with two seats, and more with more, twice as many with four
(`default_iterations`).

Why so: random play to the round's end drowns the moves searched in the noise of the moves
played at random (in a long round, 40% against greedy where the short horizon made 65%), while a
fixed horizon scores every line of one decision at the same distance, so that no line looks
better for being cut where its seat had just scored. Random moves within the horizon were noise
too (a window's answers played anywhere): greedy ones took one of the long-round rulesets from
44% to 65% against greedy on the same 60 deals, at half the iterations (docs/bots.md has the
figures). Lines that ran until three turns had begun (with two seats, until the seat's own next
turn was over) cost twice as much and did no better; 3 plays a seat instead of 2 did better
against greedy (3.7 points over three seeds of the long-round ruleset's three editions, nothing
lost against random) at about 1.5 times the cost of a two-player match, so four seats keep 8
plays. Plays, not actions: a window after every step asks each seat, so four actions were mostly
passes and a line stopped before the seat's own next play; a card that fetches back the card
just played against it then showed no worth.

Backed up per seat, for the seat that moved into each node, so three or more seats each pursue
their own. A seat's reward is half a win (1 shared among the teams that stand best) and half
the gain of its margin over the best rival (another team's seat, where the scoring shows teams)
since the line began, through tanh of that gain over the mean gain size the search has seen.
The gain, not the margin as it stands: far behind or far ahead, tanh of the margin is flat, and
the search then chose at random (it threw away a multiplier while 3,800 points behind). Windows,
passes, final rounds and compound plays are moves like any other.

Tree edges are keyed by (seat, play, face, target seat, pile): the same in every sampled world,
as the engine's actions hold compiled objects shared by all worlds of one ruleset.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from .engine import Action, EngineError, View
from .fast import FastGame
from .notation import MoveError
from .outcome import look, round_values, seat_rivals
from .reserve import kept_back, reserve
from .seats import ISMCTS_ITERATIONS, Seat
from .worlds import Memory, Sampler

if TYPE_CHECKING:  # bots imports this module
    from .bots import SeatView

EXPLORATION = 0.7  # UCB's constant, for rewards in 0..1
HORIZON = 3  # plays (passes aside) per seat after the decision, tree and line together, at which a line is scored
LINE_PLAYS = 8  # and at most this many plays in all: with four seats, 3 plays a seat would cost half as much again
PASSES_PER_PLAY = 5  # and passes, at most this many for each play of the horizon: a line ends however the seats pass
RESERVE = True  # keep back for the final round the plays it makes at will (`reserve`); False measures without it
SETTLED_EVERY = 10  # iterations between two looks at whether the root's choice is settled
QUIET_PROBE = 10  # lines after which a search where most lines ended quiet (no seat's value changed) starts
# again with lines that play on past their horizon (0: never)
QUIET_PLAYS = 64  # how far such a quiet line plays on at random, at most: until a value changes or the round ends
SEATS_SCALED = True  # the default budget grows with the seats (`default_iterations`); False measures without it
LINE_CANDIDATES = 5  # a line's move is the best of at most this many of its legal moves, one of each play first:
# where a card may go to any seat's row (4 players) trying all made a decision 0.4 s, and 5, not 8, pays
# for the longer lines of `HORIZON`
# a tree edge: (mover, play index or -1 for a pass, then the action's own: what is played, whose
# `Any` is `engine.Action`'s, the target seat, the pile)
Key: TypeAlias = tuple[int, int, Any, int, int]


class Node:
    __slots__ = ("visits", "reward", "wins", "avail", "children")

    def __init__(self) -> None:
        self.visits, self.reward, self.wins, self.avail = 0, 0.0, 0.0, 1
        self.children: dict[Key, Node] = {}


@dataclass(frozen=True)
class Edge:
    """A move at the root: how often the search tried it and how it fared for the seat."""

    action: Action
    visits: int
    win_rate: float  # the share of its lines that the seat won (ties shared)


def key(mover: int, action: Action) -> Key:
    play, face, seat, pile = action
    return (mover, -1 if play is None else play.index, face, seat, pile)


def search(sampler: Sampler, seat: int, legal: Sequence[Action], rng: random.Random, iterations: int | None = None,
           seconds: float | None = None, barred: Collection[Key] = ()) -> list[Edge]:
    """Search the seat's decision among `legal`; the root's moves, most visited first. With an
    iteration budget the search stops once no move but `barred` ones can overtake the most
    visited of the others in the iterations left: the move chosen is then the one the whole
    budget would choose, and a decision that is clear early costs less."""
    if iterations is None and seconds is None:
        iterations = default_iterations(sampler.c.players)
    deadline = None if seconds is None else time.perf_counter() + seconds
    root, scale, rivals = Node(), [0.0, 0], seat_rivals(sampler.c)
    by_key = {key(seat, a): a for a in legal}
    open_keys = [k for k in by_key if k not in barred]
    n = sampler.c.players
    horizon = min(HORIZON * n, LINE_PLAYS)
    done = lines = quiet = 0
    play_on = False
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        if iterations is not None and done % SETTLED_EVERY == 0 and _settled(root, open_keys, iterations - done):
            break
        done += 1
        world = sampler.sample(rng)
        if world.to_move != seat:  # a world whose flow went otherwise: it cannot answer this decision
            continue
        lines += 1
        quiet += _iterate(world, root, by_key, rng, horizon, scale, rivals, play_on)
        if lines == QUIET_PROBE and 2 * quiet > lines:  # the horizon is too short here: start again, playing on
            root, scale, play_on = Node(), [0.0, 0], True
    edges = [Edge(by_key[k], child.visits, child.wins / child.visits if child.visits else 0.0)
             for k, child in root.children.items() if k in by_key]
    edges.sort(key=lambda e: (-e.visits, -e.win_rate))
    return edges


def default_iterations(players: int) -> int:
    """The iterations of a decision whose seat names no budget: twice as many with four seats as
    with two (with four, a line gives each rival 2 plays and the tree splits its visits over three
    rivals' moves: Hearts, Go Fish and Colour Rush won 8 to 25 points more), and no more past four,
    where a decision nears the second allowed."""
    return ISMCTS_ITERATIONS * min(max(players, 2), 4) // 2 if SEATS_SCALED else ISMCTS_ITERATIONS


def _settled(root: Node, keys: list[Key], left: int) -> bool:
    """Whether the most visited of `keys` leads each other one by more than `left` visits."""
    if len(keys) < 2:
        return True
    visits = sorted((root.children[k].visits if k in root.children else 0 for k in keys), reverse=True)
    return visits[0] - visits[1] > left


def _iterate(world: FastGame, root: Node, legal: dict[Key, Action], rng: random.Random, horizon: int,
             scale: list[float], rivals: tuple[tuple[int, ...], ...], play_on: bool) -> bool:
    """One iteration; whether its line came to its horizon quiet, no seat's value changed
    (`play_on`: then played on, `_played_on`)."""
    st = world.state
    start_round = st.round
    start = round_values(world, start_round)
    before = _margins(start, rivals)
    node = root
    path: list[tuple[Node, int]] = []  # the nodes of the line, each with the seat that moved into it
    plays, actions_left = 0, horizon * (1 + PASSES_PER_PLAY)
    try:
        while not st.over and st.round == start_round and plays < horizon and actions_left:
            mover: int = world.to_move  # type: ignore[assignment]  # the match is not over: a seat is to move
            actions = world.actions() if node is not root else list(legal.values())
            untried: list[tuple[Key, Action]] = []
            best: tuple[Node, Action] | None = None
            best_value = -1.0
            for action in actions:
                k = key(mover, action)
                child = node.children.get(k)
                if child is None:
                    untried.append((k, action))
                    continue
                child.avail += 1
                if not untried:
                    value = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
                    if value > best_value:
                        best, best_value = (child, action), value
            expanded = bool(untried)
            if expanded:
                k, action = rng.choice(untried)
                child = node.children[k] = Node()
                node = child
            else:
                node, action = best  # type: ignore[misc]  # every action has a child, and a UCB value >= 0 beats -1
            world.play(action)
            path.append((node, mover))
            plays, actions_left = plays + (action[0] is not None), actions_left - 1
            if expanded:  # the line goes on with greedy moves from the new node
                break
        while not st.over and st.round == start_round and plays < horizon and actions_left:
            action, after = _greedy_move(world, rng)
            if after is not None and after.replaces:  # the look played it already
                after.run_on()
                world, st = after, after.state
            else:
                world.play(action)
            plays, actions_left = plays + (action[0] is not None), actions_left - 1
    except (EngineError, MoveError):  # a line the ruleset cannot go on with: scored where it stands
        pass
    values = round_values(world, start_round)
    quiet = values == start
    if quiet and play_on:
        values = _played_on(world, rng, start_round, start)
    shares = _win_shares(values, rivals)
    rewards = _rewards(values, shares, scale, rivals, before)
    for node, mover in path:
        node.visits += 1
        node.reward += rewards[mover]
        node.wins += shares[mover]
    return quiet


def _played_on(world: FastGame, rng: random.Random, start_round: int, start: list[float]) -> list[float]:
    """The values a quiet line comes to when played on at random: until a seat's value differs
    from `start`, the round ends, or `QUIET_PLAYS` plays. Where a score counts only past a
    threshold (a side's seventh trick, an empty hand), the lines of a short horizon end where
    they began, and a search that learns nothing chooses at random. Random moves, not greedy
    ones: one ply sees no change there either, and a random move costs a fifth of a greedy one."""
    st = world.state
    plays, actions_left = 0, QUIET_PLAYS * (1 + PASSES_PER_PLAY)
    values = start
    try:
        while not st.over and st.round == start_round and plays < QUIET_PLAYS and actions_left and values == start:
            action = rng.choice(world.actions())
            world.play(action)
            plays, actions_left = plays + (action[0] is not None), actions_left - 1
            values = round_values(world, start_round)
    except (EngineError, MoveError):  # scored where it stands, as a line's end
        values = round_values(world, start_round)
    return values


def _greedy_move(world: FastGame, rng: random.Random) -> tuple[Action, FastGame | None]:
    """The playout's move: the one that stands best one ply ahead for the seat to move
    (`outcome.margin_after`, as greedy judges), ties at random; and the copy of the world that
    look played it in (`FastGame.trial`), None if none did. Random moves in a short line (a
    window's answers played anywhere) are noise that hides the move searched; a rival that
    answers as well as one ply sees is what the search must beat."""
    actions = world.actions()
    if len(actions) == 1:
        return actions[0], None
    if len(actions) > LINE_CANDIDATES:
        actions = _candidates(actions, rng)
    seat: int = world.to_move  # type: ignore[assignment]  # a playout goes on only while a seat is to move
    best: list[tuple[Action, FastGame | None]] = []
    best_value = float("-inf")
    for action in actions:
        value, after = look(world, action, seat)
        if value > best_value:
            best, best_value = [(action, after)], value
        elif value == best_value:
            best.append((action, after))
    return rng.choice(best)  # never empty: a look is -inf at worst, which ties with the start


def _candidates(actions: list[Action], rng: random.Random) -> list[Action]:
    """`LINE_CANDIDATES` of `actions` (more than that many) at random, one of each play (and the
    pass) first: drawn from all alike, a play the seat can make one way only (a card it holds once)
    was left out of most lines, among the many ways of a play that takes any card or any row."""
    first: list[Action] = []
    rest: list[Action] = []
    seen: set[int] = set()
    for action in rng.sample(actions, len(actions)):
        play = -1 if action[0] is None else action[0].index
        (rest if play in seen else first).append(action)
        seen.add(play)
    return (first + rest)[:LINE_CANDIDATES]


def _margins(values: list[float], rivals: tuple[tuple[int, ...], ...]) -> list[float]:
    """Each seat's value less its best rival's."""
    return [v - max((values[t] for t in rivals[s]), default=0) for s, v in enumerate(values)]


def _win_shares(values: list[float], rivals: tuple[tuple[int, ...], ...]) -> list[float]:
    """Each seat's share of a win at `values`: 1 shared among the teams that stand best (each
    seat its own team without teams), each seat of such a team getting its team's share, as a
    match counts a team's win as each of its seats' win."""
    top = max(values)
    best = [s for s, v in enumerate(values) if v == top]
    teams = sum(1 for i, s in enumerate(best) if all(t in rivals[s] for t in best[:i]))
    return [(v == top) / teams for v in values]


def _rewards(values: list[float], shares: list[float], scale: list[float], rivals: tuple[tuple[int, ...], ...],
             before: list[float]) -> list[float]:
    """Each seat's reward in 0..1 (see the module's docstring), for a line that ended at `values`,
    where `shares` are the seats' shares of a win (`_win_shares`), and began with the margins
    `before`. `scale` holds the sum of the gains' sizes seen so far and their number, added to
    here: a gain counts through tanh(gain / mean size), so that the gains that decide matches
    weigh, not the outliers. A margin is over the best rival (`outcome.seat_rivals`)."""
    gains = [m - b for m, b in zip(_margins(values, rivals), before, strict=True)]
    scale[0] += sum(abs(g) for g in gains)
    scale[1] += len(gains)
    size = scale[0] / scale[1] or 1.0
    return [0.5 * share + 0.25 * (1 + math.tanh(g / size))
            for share, g in zip(shares, gains, strict=True)]


class IsmctsBot:
    """Chooses the most visited move of an ISMCTS search from its seat's knowledge, never the
    same move twice from the same view in one match: a search scored a few actions ahead sees
    no cost in a cycle (a card that fetches back the card that fetched it, in a window open to
    as many plays as the seats like), and a bot that chose it again each time would never let
    the round end. Its own view is all it compares, so this stays honest. Before the final round
    it keeps back the plays a final turn may make at will (`reserve`): a search a few plays deep
    sees their gain now, never what they would gain where nothing can answer them."""

    observes = True

    def __init__(self, rng: random.Random, iterations: int | None = None, seconds: float | None = None):
        self.rng, self.iterations, self.seconds = rng, iterations, seconds
        self.kind = str(Seat("ismcts", iterations, seconds))
        self.memory = Memory()
        self.taken: dict[str, set[Key]] = {}  # the plays chosen from each view in this match
        self.start: View | None = None
        self.reserve: frozenset[int] = frozenset()  # the plays kept for the final round

    def choose(self, seen: SeatView) -> Action:
        if seen.start is not self.start:  # a new match
            self.taken, self.start, self.reserve = {}, seen.start, reserve(seen.compiled)
        legal: Sequence[Action] = seen.actions()
        if RESERVE:
            legal = kept_back(self.reserve, seen.flow, legal)
        if len(legal) == 1:
            return legal[0]
        sampler = self.memory.sampler(seen)
        view = repr(seen.view)
        barred = self.taken.get(view, set())
        edges = search(sampler, seen.seat, legal, self.rng, self.iterations, self.seconds, barred)
        fresh = [e.action for e in edges if key(seen.seat, e.action) not in barred]
        fresh += [a for a in legal if key(seen.seat, a) not in barred and a not in fresh]
        action = fresh[0] if fresh else self.rng.choice(legal)
        if action[0] is not None:  # a pass cannot make a cycle, and the same view may well be asked again
            self.taken.setdefault(view, set()).add(key(seen.seat, action))
        return action
