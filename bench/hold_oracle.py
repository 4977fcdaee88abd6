"""An oracle (session 36): the ismcts seat holds the value cards of its own colour in its hand while
the draw pile has more than KEEP cards, where it has another white play than laying or discarding
them: the rival's change places takes the row with it, and a card held goes with nobody. The plays
are the command line's names: the bench may name them, the product may not.

    python bench/hold_oracle.py draw lay,double discard 16 -- --games 200 --workers 2 --no-four \\
        --rulesets arne_total@en --seed 41 --pairs 'ismcts vs random' --outcomes F
"""
import dataclasses
import runpy
import sys

import cardrules.interpreter.ismcts as ismcts

split = sys.argv.index("--")
zone, lays, discard, keep = sys.argv[1], set(sys.argv[2].split(",")), sys.argv[3], int(sys.argv[4])
original = ismcts.IsmctsBot.choose


def cards_in(view: dict, name: str) -> int:
    shown = view["zones"][name]
    return shown["count"] if isinstance(shown, dict) else len(shown)


def choose(self, seen):
    if cards_in(seen.view, zone) > keep:
        own = {a[1] for a in seen.legal if a[0] is not None and a[0].name in lays}
        if own:
            kept = tuple(a for a in seen.legal if a[0] is None or not (
                a[0].name in lays or (a[0].name == discard and a[1] in own)))
            if any(a[0] is not None for a in kept):
                seen = dataclasses.replace(seen, legal=kept)
    return original(self, seen)


ismcts.IsmctsBot.choose = choose
print(f"oracle: the ismcts seat holds its {sorted(lays)} while {zone} has more than {keep} cards, "
      f"where it has another play than those and {discard} of their faces")
sys.argv = ["bench/bots_strength.py", *sys.argv[split + 1:]]
runpy.run_path("bench/bots_strength.py", run_name="__main__")
