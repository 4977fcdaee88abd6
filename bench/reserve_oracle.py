"""The oracle that sized the reserve (session 30) before `interpreter/reserve.py` was written:
bots_strength with the ismcts seat barred from the named plays while a zone still has cards, all
the time (KEEP `all`) or while it holds KEEP or fewer cards whose face ends with one of FACES;
with `aimed` after KEEP, only where the play aims at another seat (session 31); with `ahead`,
only while the seat stands ahead of its rivals (session 34); with `soft=D`
after KEEP, not barred but held where the search finds little in it: the search weighs every
move, and where its most visited spends a barred play, the most visited of the others is played
instead if the share of its lines won is within D of that play's (session 32). The plays, faces
and zone are the command line's: the bench may name them, the product may not.

    python bench/reserve_oracle.py draw minus200,pair,cham_on,crash,lock,thief_top,thief_pair - all -- \\
        --games 200 --workers 2 --no-four --rulesets arne_total@ru --seed 41 --pairs 'ismcts vs random'
    python bench/reserve_oracle.py draw minus200,pair,crash,lock,thief_top,thief_pair \\
        -200,crash,lock,thief,chameleon 1 -- --games 200 --workers 2 --no-four --rulesets arne_total@en ...
    python bench/reserve_oracle.py draw minus200,pair,crash,lock,thief_top,thief_pair \\
        -200,crash,lock,thief,chameleon 1 aimed -- --games 200 ...
    python bench/reserve_oracle.py draw minus200,pair,crash,lock,thief_top,thief_pair \\
        -200,crash,lock,thief,chameleon 1 soft=0.05 -- --games 200 ...
    python bench/reserve_oracle.py draw change_places changeplaces all ahead -- --games 200 ...

It differs from the reserve in two ways: it reads the draw pile's count where the reserve reads
whether the final round has begun (the windows of the last drawer's turn differ), and it needs
the names the reserve reads from the rules. Run it on a build without the reserve (session 29's,
f41d83a) to reproduce `bench/results/session30_reserve.txt`; on one with it, the reserve comes first.
"""
import dataclasses
import random
import runpy
import sys

import cardrules.interpreter.ismcts as ismcts
from cardrules.interpreter import outcome

split = sys.argv.index("--")
zone, plays, faces, keep = sys.argv[1], set(sys.argv[2].split(",")), tuple(sys.argv[3].split(",")), sys.argv[4]
mode = sys.argv[5] if split > 5 else ""
aimed = mode == "aimed"  # bar only the plays aimed at another seat's row or hand
ahead = mode == "ahead"  # bar them only while the seat stands ahead of every rival (session 34)
soft = float(mode.removeprefix("soft=")) if mode.startswith("soft=") else None  # hold unless it is clearly worse
original, search = ismcts.IsmctsBot.choose, ismcts.search


def cards_in(view: dict, name: str) -> int:
    shown = view["zones"][name]
    return shown["count"] if isinstance(shown, dict) else len(shown)


def aims_at_another(action, seat: int) -> bool:
    """Whether the action's target is another seat's (a row, or the seat a play chooses)."""
    target = action[2]
    return target >= 0 and target != seat


def stands_ahead(self, seen) -> bool:
    """Whether the seat's margin is above 0 now, read from a world sampled from its knowledge
    (the rows a score reads are public, so every world gives the same)."""
    world = self.memory.sampler(seen).sample(random.Random(0))
    return outcome.margin(world, seen.seat) > 0


def choose(self, seen):
    if cards_in(seen.view, zone) > 0:
        held = sum(1 for face in seen.view["zones"]["hand"][seen.seat] if str(face).endswith(faces))
        if keep == "all" or held <= int(keep):
            kept = tuple(a for a in seen.legal if a[0] is None or a[0].name not in plays
                         or (aimed and not aims_at_another(a, seen.seat)))
            # whether the seat stands ahead is read last: it samples a world, and most decisions offer no barred play
            if kept and len(kept) < len(seen.legal) and (not ahead or stands_ahead(self, seen)):
                if soft is None:
                    seen = dataclasses.replace(seen, legal=kept)
                else:
                    ismcts.search = lambda *a, **k: held_if_close(search(*a, **k), kept, soft)
                    try:
                        return original(self, seen)
                    finally:
                        ismcts.search = search
    return original(self, seen)


def held_if_close(edges: list, kept: tuple, margin: float) -> list:
    """The search's edges, the most visited move that keeps the card first where the most visited
    of all spends it and the shares of their lines won differ by `margin` or less."""
    if not edges or edges[0].action in kept:
        return edges
    held = next((e for e in edges if e.action in kept), None)
    if held is None or held.win_rate < edges[0].win_rate - margin:
        return edges
    return [held, *(e for e in edges if e is not held)]


ismcts.IsmctsBot.choose = choose
print(f"oracle: the ismcts seat keeps {keep} of {faces} back, barring {sorted(plays)}"
      f"{' aimed at another seat' if aimed else ''}{' while it stands ahead' if ahead else ''}"
      f"{f' unless they win over {soft} more of their lines' if soft is not None else ''} while {zone} has cards")
sys.argv = ["bench/bots_strength.py", *sys.argv[split + 1:]]
runpy.run_path("bench/bots_strength.py", run_name="__main__")
