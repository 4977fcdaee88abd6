"""How a position stands for each seat, by the ruleset's own scoring: what bots maximise.

A seat's standing is its total plus the score its round would give if the round ended now (the
totals alone once the match is over); `winner lowest` turns it round, so that more is always
better. Nothing here knows a game: the score expression and the winner rule are the ruleset's.

Teams are read from the scoring too: the language has no teams, but a ruleset whose seats score
for a shared zone scores partners alike. Seats whose round scores agree at every position of a
few random matches, and are not all zero there, are partners (`seat_rivals`): a seat's margin is
over the best seat of another team.
"""
from __future__ import annotations

import random

from .compile import Compiled
from .engine import EngineError, Game

TEAM_MATCHES = 3  # random matches that tell partners apart
TEAM_EVIDENCE = 3  # positions, at least, where partners score other than zero

_rivals: dict[int, tuple[Compiled, tuple[tuple[int, ...], ...]]] = {}


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
    """The seat's standing less the best rival's (its standing alone when it has no rival)."""
    values, rivals = standing(game), seat_rivals(game.c)[seat]
    return values[seat] - max((values[s] for s in rivals), default=0)


def seat_rivals(compiled: Compiled) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats not on its team (every other seat when the scoring shows none)."""
    cached = _rivals.get(id(compiled))
    if cached is None or cached[0] is not compiled:
        cached = _rivals[id(compiled)] = (compiled, _read_rivals(compiled))
    return cached[1]


def _read_rivals(compiled: Compiled) -> tuple[tuple[int, ...], ...]:
    n = compiled.players
    alike = {(s, t): 0 for s in range(n) for t in range(s + 1, n)}  # positions scored alike, not zero
    rng = random.Random(0)
    for match in range(TEAM_MATCHES):
        try:
            game = Game(compiled, match)
            while not game.over and alike:
                scores = round_scores(game)
                for s, t in list(alike):
                    if scores[s] != scores[t]:
                        del alike[s, t]
                    elif scores[s]:
                        alike[s, t] += 1
                game.play(rng.choice(game.actions()))
        except EngineError:
            pass
    partners = {pair for pair, evidence in alike.items() if evidence >= TEAM_EVIDENCE}
    return tuple(tuple(t for t in range(n) if t != s and (min(s, t), max(s, t)) not in partners) for s in range(n))


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
