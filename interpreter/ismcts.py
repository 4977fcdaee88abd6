"""Information-Set Monte Carlo Tree Search, single observer (Cowling, Powley & Whitehouse 2012).

One tree for the seat to move, over the moves of every seat as that seat's search sees them.
Each iteration samples a world the seat cannot tell from the real one (`worlds.Sampler`),
descends the tree by UCB among the children whose moves the sampled world allows (each such
child counts one more availability, the UCB's parent count), expands one untried move, plays
on with each seat's greedy move (the best one ply ahead by the ruleset's standing, as the greedy
bot judges), and scores the line by the ruleset's own standing (`outcome`) a few actions after
the decision: `HORIZON` actions per seat, tree and playout together, or sooner where the round
(or the match) ends. Random play to the round's end drowns the moves searched in the noise of
the moves played at random (in a long round, a 20-match test at the same budget went from 40% to
65% against greedy with the short horizon, and lost strength again with longer ones), while a
fixed horizon scores every line of one decision at the same distance, so that no line looks
better for being cut where its seat had just scored. Random moves within the horizon were
noise too (a window's black cards played anywhere): greedy ones took ARNE Total @ru from 44% to
65% against greedy on the same 60 deals, at half the iterations. Backed up per seat, for the seat
that moved into each node, so three or more seats each pursue their own. A seat's reward is half
a win (1 shared among the seats that stand best) and half its margin over the best rival
(another team's seat, where the scoring shows teams), through tanh of the margin over the mean
margin size the search has seen: standing first counts, the margin tells a close line from a
lost one. Windows, passes, final rounds and compound plays are moves like any other.

Tree edges are keyed by (seat, play, face, target seat, pile): the same in every sampled world,
as the engine's actions hold compiled objects shared by all worlds of one ruleset.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from .engine import Action, EngineError, View
from .fast import FastGame
from .notation import MoveError
from .outcome import margin_after, round_values, seat_rivals
from .seats import GREEDY_SAMPLES, ISMCTS_ITERATIONS, Seat
from .worlds import Memory, Sampler

if TYPE_CHECKING:  # bots imports this module
    from .bots import SeatView

EXPLORATION = 0.7  # UCB's constant, for rewards in 0..1
HORIZON = 2  # actions per seat after the decision (tree and playout together) at which a line is scored
# Experiment switches (branch bots2): how the playouts and the root's choice use greedy's figures.
GREEDY_SHARE = 1.0  # the share of playout moves chosen greedily, the rest at random
GREEDY_SEATS = "all"  # whose playout moves may be greedy: "all", "root" (the seat searching), "rivals"
REWARD_GAIN = False  # margins counted as the gain over the margins where the line began, not as they stand
TURN_HORIZON = 0  # if > 0: a line is scored once this many turns have begun after the decision (HORIZON_CAP actions at most)
HORIZON_CAP = 12  # actions per seat, the most a TURN_HORIZON line plays
ROOT_PRIOR = 0.0  # weight of greedy's one-ply ranks at the root, a progressive bias: prior / (visits + 1)
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
           seconds: float | None = None) -> list[Edge]:
    """Search the seat's decision among `legal`; the root's moves, most visited first."""
    if iterations is None and seconds is None:
        iterations = ISMCTS_ITERATIONS
    deadline = None if seconds is None else time.perf_counter() + seconds
    root, scale, rivals = Node(), [0.0, 0], seat_rivals(sampler.c)
    by_key = {key(seat, a): a for a in legal}
    n = sampler.c.players
    horizon = (HORIZON_CAP if TURN_HORIZON else HORIZON) * n
    prior = _root_prior(sampler, seat, legal, rng) if ROOT_PRIOR else {}
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        done += 1
        world = sampler.sample(rng)
        if world.to_move != seat:  # a world whose flow went otherwise: it cannot answer this decision
            continue
        _iterate(world, root, by_key, rng, horizon, scale, rivals, prior)
    edges = [Edge(by_key[k], child.visits, child.wins / child.visits if child.visits else 0.0)
             for k, child in root.children.items() if k in by_key]
    edges.sort(key=lambda e: (-e.visits, -e.win_rate))
    return edges


def _iterate(world: FastGame, root: Node, legal: dict[Key, Action], rng: random.Random, horizon: int,
             scale: list[float], rivals: tuple[tuple[int, ...], ...], prior: dict[Key, float]) -> None:
    st = world.state
    searcher = world.to_move
    start_round = st.round
    before = _margins(round_values(world, start_round), rivals) if REWARD_GAIN else None
    node = root
    turns = [0, st.active, st.step]
    path: list[tuple[Node, int]] = []  # the nodes of the line, each with the seat that moved into it
    try:
        while not st.over and st.round == start_round and len(path) < horizon:
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
                    if node is root and prior:
                        value += ROOT_PRIOR * prior[k] / (child.visits + 1)
                    if value > best_value:
                        best, best_value = (child, action), value
            if untried:
                k, action = rng.choice(untried)
                child = node.children[k] = Node()
                world.play(action)
                path.append((child, mover))
                _count_turn(st, turns)
                break
            node, action = best  # type: ignore[misc]  # every action has a child, and a UCB value >= 0 beats -1
            world.play(action)
            path.append((node, mover))
            if _count_turn(st, turns):
                break
        steps = len(path)
        while not st.over and st.round == start_round and steps < horizon and not (TURN_HORIZON and turns[0] >= TURN_HORIZON):
            to_move = world.to_move
            greedy = GREEDY_SEATS == "all" or (GREEDY_SEATS == "root") == (to_move == searcher)
            if greedy and (GREEDY_SHARE >= 1.0 or rng.random() < GREEDY_SHARE):
                world.play(_greedy_move(world, rng))
            else:
                world.play(rng.choice(world.actions()))
            steps += 1
            _count_turn(st, turns)
    except (EngineError, MoveError):  # a line the ruleset cannot go on with: scored where it stands
        pass
    values = round_values(world, start_round)
    rewards, top = _rewards(values, scale, rivals, before), max(values)
    winners = sum(1 for v in values if v == top)
    for node, mover in path:
        node.visits += 1
        node.reward += rewards[mover]
        node.wins += (values[mover] == top) / winners


def _count_turn(st: Any, turns: list[int]) -> bool:
    """Count a turn begun (the active seat changed, or its steps began again); True once
    TURN_HORIZON turns have begun."""
    if st.active != turns[1] or st.step < turns[2]:
        turns[0] += 1
    turns[1], turns[2] = st.active, st.step
    return bool(TURN_HORIZON) and turns[0] >= TURN_HORIZON


def _root_prior(sampler: Sampler, seat: int, legal: Sequence[Action], rng: random.Random) -> dict[Key, float]:
    """Greedy's one-ply figures for the root's moves (summed over up to `GREEDY_SAMPLES` sampled
    worlds, as greedy sums them), as ranks in 0..1: the best move 1, the worst 0."""
    totals = [0.0] * len(legal)
    for _ in range(GREEDY_SAMPLES if sampler.uncertain else 1):
        world = sampler.sample(rng)
        if world.to_move != seat:
            continue
        for i, action in enumerate(legal):
            totals[i] += margin_after(world, action, seat)
    order = sorted(set(totals))
    span = max(len(order) - 1, 1)
    return {key(seat, a): order.index(t) / span for a, t in zip(legal, totals, strict=True)}


def _greedy_move(world: FastGame, rng: random.Random) -> Action:
    """The playout's move: the one that stands best one ply ahead for the seat to move
    (`outcome.margin_after`, as greedy judges), ties at random. Random moves in a short line
    (a window's black cards played anywhere) are noise that hides the move searched; a rival
    that answers as well as one ply sees is what the search must beat."""
    actions = world.actions()
    if len(actions) == 1:
        return actions[0]
    seat: int = world.to_move  # type: ignore[assignment]  # a playout goes on only while a seat is to move
    best: list[Action] = []
    best_value = float("-inf")
    for action in actions:
        value = margin_after(world, action, seat)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best or actions)


def _margins(values: list[float], rivals: tuple[tuple[int, ...], ...]) -> list[float]:
    """Each seat's value less its best rival's."""
    return [v - max((values[t] for t in rivals[s]), default=0) for s, v in enumerate(values)]


def _rewards(values: list[float], scale: list[float], rivals: tuple[tuple[int, ...], ...],
             before: list[float] | None = None) -> list[float]:
    """Each seat's reward in 0..1 (see the module's docstring). `scale` holds the sum of the
    margins' sizes seen so far and their number, added to here: a margin counts through
    tanh(margin / mean size), so that the margins that decide matches weigh, not the outliers.
    A margin is over the best rival (`outcome.seat_rivals`)."""
    best = max(values)
    winners = sum(1 for v in values if v == best)
    margins = _margins(values, rivals)
    if before is not None:  # the gain over the line's start: far behind or ahead, a tanh of the margin is flat
        margins = [m - b for m, b in zip(margins, before, strict=True)]
    scale[0] += sum(abs(m) for m in margins)
    scale[1] += len(margins)
    size = scale[0] / scale[1] or 1.0
    return [0.5 * (v == best) / winners + 0.25 * (1 + math.tanh(m / size))
            for v, m in zip(values, margins, strict=True)]


class IsmctsBot:
    """Chooses the most visited move of an ISMCTS search from its seat's knowledge, never the
    same move twice from the same view in one match: a search scored a few actions ahead sees
    no cost in a cycle (a card that fetches back the card that fetched it, in a window open to
    as many plays as the seats like), and a bot that chose it again each time would never let
    the round end. Its own view is all it compares, so this stays honest."""

    observes = True

    def __init__(self, rng: random.Random, iterations: int | None = None, seconds: float | None = None):
        self.rng, self.iterations, self.seconds = rng, iterations, seconds
        self.kind = str(Seat("ismcts", iterations, seconds))
        self.memory = Memory()
        self.taken: set[tuple[str, Key]] = set()  # (view, move) chosen in this match
        self.start: View | None = None

    def choose(self, seen: SeatView) -> Action:
        legal = seen.actions()
        if len(legal) == 1:
            return legal[0]
        if seen.start is not self.start:  # a new match
            self.taken, self.start = set(), seen.start
        sampler = self.memory.sampler(seen)
        edges = search(sampler, seen.seat, legal, self.rng, self.iterations, self.seconds)
        view = repr(seen.view)
        fresh = [e.action for e in edges if (view, key(seen.seat, e.action)) not in self.taken]
        fresh += [a for a in legal if (view, key(seen.seat, a)) not in self.taken and a not in fresh]
        action = fresh[0] if fresh else self.rng.choice(legal)
        if action[0] is not None:  # a pass cannot make a cycle, and the same view may well be asked again
            self.taken.add((view, key(seen.seat, action)))
        return action
