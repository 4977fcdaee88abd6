"""Bots: seats that choose their own moves. A bot draws on its own random source, never on the
game's, so a game's seed and its list of moves replay it whoever chose them."""
from __future__ import annotations

import random

from .engine import EngineError, Game
from .progress import endless_round, round_bound


class RandomBot:
    """Chooses uniformly among the distinct legal moves open to its seat."""

    kind = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, game: Game) -> tuple:
        return self.rng.choice(game.actions())


BOTS = {"random": RandomBot}


def play_out(game: Game, bots: list) -> None:
    """Let the bots play the match to its end (every seat must be a bot); an `EngineError` when it
    cannot end (see progress.py)."""
    st, bound = game.state, round_bound(game)
    while not st.over:
        game.play(bots[st.active].choose(game))
        if st.round_plays > bound:
            raise EngineError(*endless_round(game))
