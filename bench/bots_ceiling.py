"""How much hidden cards cost the ismcts seat: the bots_strength table, with an ismcts seat that
sees every seat's cards (not a bot: it cheats, and exists only here, to measure).

    python bench/bots_ceiling.py --games 200 --workers 2 --rulesets arne_total@en --pairs 'ismcts vs random' --no-four
    python bench/bots_ceiling.py --order ...     # the draw pile's order too: all but the rivals' choices

The same search, budget and lines as `ismcts`; only its worlds differ. Each iteration's world is
the real match, each zone that no seat sees (the draw pile) shuffled, and the world's chance
drawn afresh: the seat knows the rivals' hands and which cards are left to draw, never their
order. With `--order` it knows that too: every world is the real match, its draws to come as
they will come (unless a move shuffles). Where this seat wins about as often as the honest one,
what the bot does not know is not what loses its matches: the search, its lines and their
horizon are. The options and the output are bots_strength's, on the same deals for the same seed.
"""
from __future__ import annotations

import random
import sys

import bots_strength

from cardrules.interpreter.bots import make_bot
from cardrules.interpreter.engine import Game, new_game
from cardrules.interpreter.fast import FastGame
from cardrules.interpreter.ismcts import IsmctsBot
from cardrules.interpreter.seats import Seat

_match: list[Game] = []  # the match under way in this process (a worker plays one at a time)
ORDER = "--order" in sys.argv  # the seat knows the draw pile's order too


class OpenSampler:
    """`worlds.Sampler`'s interface, dealing the real match with its hidden shared zones shuffled."""

    def __init__(self, game: Game):
        self.c, self.game = game.reference if isinstance(game, FastGame) else game.c, game

    def sample(self, rng: random.Random) -> FastGame:
        state = self.game.state.copy()
        for index, zone in enumerate(self.c.model.zones):
            if zone.visibility == "hidden" and not zone.per_seat and not ORDER:
                rng.shuffle(state.zones[index])
        return FastGame.resume(self.c, state, rng.getrandbits(64))


class OpenMemory:
    """What `IsmctsBot` asks for its sampler (`worlds.Memory`), answered from the real match."""

    def sampler(self, seen: object) -> OpenSampler:
        return OpenSampler(_match[-1])


def _new_game(*args, **kwargs) -> Game:
    game = new_game(*args, **kwargs)
    _match[:] = [game]
    return game


def _make_bot(seat: Seat, rng: random.Random):
    bot = make_bot(seat, rng)
    if isinstance(bot, IsmctsBot):
        bot.memory = OpenMemory()  # type: ignore[assignment]  # the same interface, reading the real match
    return bot


bots_strength.new_game = _new_game
bots_strength.make_bot = _make_bot

if __name__ == "__main__":
    if ORDER:
        sys.argv.remove("--order")
    print("bots_ceiling: every ismcts seat sees the other seats' cards, "
          + ("and the draw pile's order" if ORDER else "not the draw pile's order"))
    bots_strength.main()
