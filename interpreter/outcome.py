"""How a position stands for each seat, by the ruleset's own scoring: what bots maximise.

A seat's standing is its total plus the score its round would give if the round ended now (the
totals alone once the match is over); `winner lowest` turns it round, so that more is always
better. Nothing here knows a game: the score expression and the winner rule are the ruleset's.
"""
from __future__ import annotations

from .engine import Game


def round_scores(game: Game) -> list[int]:
    """What each seat's round would score if it ended now."""
    c, env, slot = game.c, game.env, game.c.score_slot
    saved, scores = env[slot], []
    for seat in range(game.n):
        env[slot] = seat
        scores.append(c.score(env))
    env[slot] = saved
    return scores


def _oriented(game: Game, values: list) -> list:
    return [-v for v in values] if game.c.model.match.winner == "lowest" else list(values)


def standing(game: Game) -> list[float]:
    """Each seat's total plus its round score now (the totals alone once the match is over),
    negated where the lowest total wins."""
    st = game.state
    if st.over:
        return _oriented(game, st.totals)
    return _oriented(game, [t + s for t, s in zip(st.totals, round_scores(game))])


def margin(game: Game, seat: int) -> float:
    """The seat's standing less the best other seat's."""
    values = standing(game)
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def round_rewards(game: Game, round: int) -> list[float]:
    """1 shared among the seats that did best, 0 for the others: the match's winners if it is
    over, else the best scores of round `round` once it has ended, else of the round where it
    stands (a line of play cut short)."""
    st = game.state
    if st.over:
        values = _oriented(game, st.totals)
    elif len(st.results) > round:
        values = _oriented(game, st.results[round].scores)
    else:
        values = _oriented(game, round_scores(game))
    return _leaders(values)


def _leaders(values: list) -> list[float]:
    best = max(values)
    leaders = [s for s, v in enumerate(values) if v == best]
    share = 1.0 / len(leaders)
    return [share if v == best else 0.0 for v in values]
