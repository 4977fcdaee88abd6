"""Run bench/bots_strength.py with worlds that read a rival's forced pass in Crazy Eights: an
oracle that names the game's cards (not a bot of the product), to measure what an honest seat
would gain from inferring, as a player does, that a seat which passed held no card it could lay.

    python bench/pass_oracle.py -- --games 60 --rulesets crazy_eights --pairs 'ismcts vs random' --no-four --seed 1

After a rival passes (Crazy Eights' `play one of discard or pass` lets a seat pass only with no
legal move, and the engine then passes for it: the seat sees only its hand grow by the card it
draws), its hand holds no eight, no card of the top card's suit and none of its rank, but for
the cards it draws unseen after (the pool's forked workers inherit the patch). Two seats only.
"""
import runpy
import sys

from cardrules.interpreter import worlds

_observe = worlds.Knowledge.observe


def observe(self, mover, move, view):
    """After the seat's own card, a rival whose hand grew passed first: a forced pass, made by
    itself, which shows in no move of its own, only in the flow (two seats: the rival is the other)."""
    before = getattr(self, "_last_view", None)
    _observe(self, mover, move, view)
    self._last_view = view
    if before is None or mover != self.seat or not move.card or view["round"] != before["round"]:
        return
    rival = 1 - self.seat
    top = move.card.lower()
    rank, suit = top.split("-")
    drawn = view["zones"]["hand"][rival]["count"] - before["zones"]["hand"][rival]["count"]
    if rank == "8" or drawn <= 0:
        return
    faces = frozenset(i for i, face in enumerate(self.c.faces)
                      if face.startswith("8-") or face.endswith("-" + suit) or face.split("-")[0] == rank)
    place = (self.c.zone_index["hand"], rival)
    if place in self.layout.hidden:
        self.lacks.setdefault(place, []).append(worlds.Lack(faces, drawn))


worlds.Knowledge.observe = observe
rest = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
sys.argv = ["bench/bots_strength.py", *rest]
runpy.run_path("bench/bots_strength.py", run_name="__main__")
