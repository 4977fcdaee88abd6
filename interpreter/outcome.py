"""How a position stands for each seat, by the ruleset's own scoring: what bots maximise.

A seat's standing is its total plus the score its round would give if the round ended now (the
totals alone once the match is over); `winner lowest` turns it round, so that more is always
better. With a `teams` clause a seat stands as its team does (the sum of its seats'), and its
rivals are the seats of the other teams (`seat_rivals`): a seat's margin is over the best of
them. Nothing here knows a game: the score expression, the teams and the winner rule are the
ruleset's.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

from .compile import Compiled
from .engine import Action, EngineError, Game
from .fast import FastGame
from .notation import MoveError


def _oriented(game: Game, values: Sequence[float]) -> list[float]:
    """Each seat's team's value (its own, without teams), negated where the lowest wins."""
    team_of = game.c.team_of
    if game.c.model.teams is not None:
        values = [sum(values[t] for t in team_of[s]) for s in range(len(values))]
    return [-v for v in values] if game.c.model.match.winner == "lowest" else list(values)


def standing(game: Game) -> list[float]:
    """Each seat's total plus its round score now (the totals alone once the match is over),
    negated where the lowest total wins."""
    st = game.state
    if st.over:
        return _oriented(game, st.totals)
    return _oriented(game, [t + s for t, s in zip(st.totals, game.round_scores(), strict=True)])


def margin(game: Game, seat: int) -> float:
    """The seat's standing less the best rival's (its standing alone when it has no rival).
    `standing` worked out for the seat and its rivals alone: each move of a search's line looks
    at several."""
    c, st = game.c, game.state
    values = st.totals if st.over else [t + s for t, s in zip(st.totals, game.round_scores(), strict=True)]
    team_of = c.team_of
    rivals = _rivals(team_of, c.players)[seat]
    if c.model.teams is None:
        own, others = values[seat], [values[s] for s in rivals]
    else:
        own, others = sum(values[t] for t in team_of[seat]), [sum(values[t] for t in team_of[s]) for s in rivals]
    if c.model.match.winner == "lowest":
        return -own + min(others, default=0)
    return own - max(others, default=0)


def margin_after(game: FastGame, action: Action, seat: int) -> float:
    """The seat's margin once `action` is played in a copy of `game` (a sampled, fast match),
    -inf where the ruleset cannot go on after it: one ply, as greedy looks. The copy meets the
    match's chance, so the moves tried in one world meet the same luck and differ by themselves."""
    return look(game, action, seat)[0]


def look(game: FastGame, action: Action, seat: int) -> tuple[float, FastGame | None]:
    """`margin_after`, and the copy it played the move in (`FastGame.trial`, which may stop it
    right after the move: `FastGame.run_on` before playing on), or None where the ruleset cannot
    go on after it or the move needed no copy (`FastGame.stands_after`)."""
    if game.stands_after(action):
        return margin(game, seat), None
    try:
        trial = game.trial(action, scored=True)
    except (EngineError, MoveError):
        return float("-inf"), None
    return margin(trial, seat), trial


def seat_rivals(compiled: Compiled) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats not on its team (every other seat without teams)."""
    return _rivals(compiled.team_of, compiled.players)


@functools.cache
def _rivals(team_of: tuple[tuple[int, ...], ...], n: int) -> tuple[tuple[int, ...], ...]:
    """`seat_rivals`, once for each seating: every position a search scores asks it."""
    team_of = team_of or tuple((s,) for s in range(n))
    return tuple(tuple(t for t in range(n) if t not in team_of[s]) for s in range(n))


def round_values(game: Game, round: int) -> list[float]:
    """What a line of play begun in round `round` came to for each seat, oriented so that more
    is better: the totals if the match is over, else that round's scores once it has ended,
    else the scores of the round where it stands (a line cut short)."""
    st = game.state
    if st.over:
        return _oriented(game, st.totals)
    if len(st.results) > round:
        return _oriented(game, st.results[round].scores)
    return _oriented(game, game.round_scores())
