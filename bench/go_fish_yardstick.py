"""What honest play can win at Go Fish: the bots_strength table with a hand-made Go Fish player
in the ismcts seat (not a bot of the product: it knows the game by name, and exists only here,
to measure the general bots against, as `shared/bench/klats_reference.py` does for Klats).

    python bench/go_fish_yardstick.py --games 400 --workers 2 --rulesets go_fish --no-four \
        --pairs 'ismcts vs random' 'ismcts vs greedy'
    python bench/go_fish_yardstick.py --asks most ...   # and among the rest, the rank it holds most of
    python bench/go_fish_yardstick.py --asks any ...    # any rank it holds, at random: never a pass

It sees what the seat sees: its own hand, and every ask and its answer (`got`, public). It asks
for a rank the rival asked for and has not since given up or laid down in a book, else not one
the rival was asked for in vain since it last drew, else any at random (`--asks read`, the
default). With `--asks most`, among the ranks the asks tell nothing of, the rank it holds most
of: better against random, worse against a rival that reads asks too (the greedy bot's worlds
do: an ask in vain for a rank held three times tells the rival, holding the fourth, where to
take a book). Two seats only. The options and the output are bots_strength's, on the same deals
for the same seed: the ismcts seat's cells are this player's.
"""
from __future__ import annotations

import random
import sys

import bots_strength

from cardrules.interpreter.bots import SeatView, make_bot
from cardrules.interpreter.engine import Action
from cardrules.interpreter.seats import Seat

ASKS = "read"  # or "most", or "any": see the module's docstring
if "--asks" in sys.argv:
    at = sys.argv.index("--asks")
    ASKS = sys.argv[at + 1]
    del sys.argv[at:at + 2]
    if ASKS not in ("read", "most", "any"):
        sys.exit(f"--asks takes read, most or any, not {ASKS!r}")


def rank(face: str) -> int:
    return int(face.split("-")[0])


class GoFishPlayer:
    """Asks as a careful person would, from its seat's view and the asks it was shown."""

    observes = True
    kind = "go-fish-yardstick"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, seen: SeatView) -> Action:
        asks = [a for a in seen.actions() if a[0] is not None]
        if not asks:
            return seen.actions()[0]
        held, lacks = self._read(seen)
        hand = [rank(face) for face in seen.view["zones"]["hand"][seen.seat]]

        def worth(action: Action) -> tuple:
            r = action[1]
            if ASKS == "any":
                return (self.rng.random(),)
            if ASKS == "read":
                return (r in held, r not in lacks, self.rng.random())
            return (r in held, r not in lacks, hand.count(r), self.rng.random())

        return max(asks, key=worth)

    def _read(self, seen: SeatView) -> tuple[set[int], set[int]]:
        """The ranks the rival holds (it asked for them, and has not laid them down) and those it
        lacks (asked for in vain since it last drew), from the moves the seat was shown."""
        held: set[int] = set()
        lacks: set[int] = set()
        stock = seen.start["zones"]["stock"]["count"] if seen.start else None
        for step in seen.history:
            move, view = step.move, step.view
            if move.play == "ask":
                r = int(move.card)
                if step.mover != seen.seat:
                    held.add(r)
                    lacks.discard(r)
                elif view["values"]["got"] == 0:
                    lacks.add(r)
                else:
                    held.discard(r)  # took them all
            count = view["zones"]["stock"]["count"]
            if stock is not None and count < stock and step.mover != seen.seat:
                lacks.clear()  # the rival drew: it may hold anything now
            stock = count
            books = view["zones"]["books"][1 - seen.seat]
            held -= {rank(face) for face in books}
        return held, lacks


def _make_bot(seat: Seat, rng: random.Random):
    return GoFishPlayer(rng) if seat.kind == "ismcts" else make_bot(seat, rng)


bots_strength.make_bot = _make_bot

if __name__ == "__main__":
    print(f"go_fish_yardstick: the ismcts seat is a hand-made Go Fish player (asks: {ASKS})")
    bots_strength.main()
