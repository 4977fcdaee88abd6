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


def round_values(game: Game, round: int) -> list[float]:
    """What a line of play begun in round `round` came to for each seat, oriented so that more
    is better: the totals if the match is over, else that round's scores once it has ended,
    else the scores of the round where it stands (a line cut short)."""
    st = game.state
    if st.over:
        return _oriented(game, st.totals)
    if len(st.results) > round:
        return _oriented(game, st.results[round].scores)
    return _oriented(game, round_scores(game))
