"""An oracle (session 36): the ismcts seat holds the value cards of its own colour in its hand while
the draw pile has more than KEEP cards, where it has another white play than laying or discarding
them: the rival's change places takes the row with it, and a card held goes with nobody. The plays
are the command line's names: the bench may name them, the product may not.

    python bench/hold_oracle.py draw lay,double discard 16 -- --games 200 --workers 2 --no-four \\
        --rulesets arne_total@en --seed 41 --pairs 'ismcts vs random' --outcomes F

With `@BADGE` in place of the plays (session 44), it keeps instead the value cards of a rival's
colour, the colours in the other seats' BADGE zones, from DISCARD alone: a change places swaps the
rows with their colours, so such a card held is the seat's own after a swap either way, where
discarded it is gone.

    python bench/hold_oracle.py draw @badge discard 16 -- --games 200 ...
"""
import dataclasses
import runpy
import sys

import cardrules.interpreter.ismcts as ismcts

split = sys.argv.index("--")
zone, discard, keep = sys.argv[1], sys.argv[3], int(sys.argv[4])
badge = sys.argv[2].removeprefix("@") if sys.argv[2].startswith("@") else ""  # the rival's colours, not plays
lays = set() if badge else set(sys.argv[2].split(","))
original = ismcts.IsmctsBot.choose


def cards_in(view: dict, name: str) -> int:
    shown = view["zones"][name]
    return shown["count"] if isinstance(shown, dict) else len(shown)


def held_cards(seen) -> set[int]:
    """The cards held back now: those the seat may lay by LAYS, or with @BADGE those it may discard
    that are value cards (or x2) of another seat's colour."""
    if not badge:
        return {a[1] for a in seen.legal if a[0] is not None and a[0].name in lays}
    colour, kind = seen.compiled.attributes["colour"], seen.compiled.attributes["type"]
    rivals = {col for s, shown in enumerate(seen.view["zones"][badge]) if s != seen.seat for col in shown}
    return {a[1] for a in seen.legal if a[0] is not None and a[0].name == discard
            and kind[a[1]] in ("value", "double") and colour[a[1]] in rivals}


def choose(self, seen):
    if cards_in(seen.view, zone) > keep:
        held = held_cards(seen)
        if held:
            kept = tuple(a for a in seen.legal if a[0] is None or not (
                a[0].name in lays or (a[0].name == discard and a[1] in held)))
            if any(a[0] is not None for a in kept):
                seen = dataclasses.replace(seen, legal=kept)
    return original(self, seen)


ismcts.IsmctsBot.choose = choose
held_text = f"the value cards of a rival's colour ({badge})" if badge else f"its {sorted(lays)}"
print(f"oracle: the ismcts seat holds {held_text} while {zone} has more than {keep} cards, "
      f"where it has another play than those and {discard} of their faces")
sys.argv = ["bench/bots_strength.py", *sys.argv[split + 1:]]
runpy.run_path("bench/bots_strength.py", run_name="__main__")
