"""The `display` clause: how cards are drawn for people, checked like any clause and read by the
REPL only."""
from __future__ import annotations

import pytest

from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.drawing import drawings
from cardrules.interpreter.load import load, load_text

from .conftest import REPO, RULESETS

EIGHTS = REPO / "docs" / "examples" / "crazy_eights.rules"


def test_symbols_stand_for_values_and_the_first_coloured_value_colours_the_card():
    drawn = drawings(load(str(EIGHTS)).model)
    assert drawn["13-hearts"].text == "K-♥" and drawn["13-hearts"].colour == "red"
    assert drawn["7-spades"].text == "7-♠" and drawn["7-spades"].colour is None
    assert drawn["1-diamonds"].text == "A-♦"


def test_a_face_in_another_language_keeps_its_labels_where_no_symbol_replaces_them():
    drawn = drawings(load(str(RULESETS / "arne_total.rules"), "ru").model, "ru")
    assert drawn["синий50"].text == "синий50" and drawn["синий50"].colour == "blue"


def test_the_shipped_rulesets_colour_every_colour_they_name():
    for name in ("klats", "arne_92", "arne_total"):
        model = load(str(RULESETS / f"{name}.rules")).model
        colours = next(a for a in model.attributes if a.name == "colour")
        assert {look.value for look in model.display if look.colour} == {v.name for v in colours.values}, name


@pytest.mark.parametrize("items,message,column", [
    ('colour bleu as blue', "'bleu' is not a value of 'colour'", 18),
    ('value 16 as "K"', "'value' takes a number in 1..15", 17),
    ('colr blue as red', "no attribute 'colr'", 11),
    ('colour green as gren', "'gren' is not a terminal colour", 27),
    ('value 3 as ""', "the symbol '' is empty, too long or holds an invisible character", 11),
    ('value 3 as "K"  value 3 as "Q"', "'value 3' is displayed twice", 33),
])
def test_a_bad_display_item_is_a_located_error(items, message, column):
    klats = (RULESETS / "klats.rules").read_text(encoding="utf-8")
    start = klats.index("\ndisplay {")
    klats = klats[:start] + klats[klats.index("\n\n", start + 1):]  # this display stands for its own
    with pytest.raises(RulesError) as raised:
        load_text(klats + f"\ndisplay {{ {items} }}\n", "k.rules")
    found = [(d.message, d.span.column) for d in raised.value.diagnostics]
    assert (message, column) in found, found



def test_a_long_row_wraps_between_piles_never_inside_one():
    import io

    from rich.console import Console

    from cardrules.cli.render import view_of

    model = load(str(RULESETS / "klats.rules")).model
    piles = [["blue1", "orange2", "green3"], ["green14"], ["orange5", "blue6"],
             ["blue7", "green8", "orange9", "blue10"], ["green11"], ["orange12", "orange13"]]
    view = {"seat": 0, "players": 2, "round": 0, "to_move": 0, "active": 0, "window": False, "totals": [0, 0],
            "zones": {"draw": {"count": 40}, "hand": [["blue2", "green2", "orange3"], {"count": 3}],
                      "row": [piles, []]}}
    console = Console(file=io.StringIO(), width=72, color_system=None)  # the widest pile fits the column
    console.print(view_of(view, model, ["human", "random"]))
    lines = console.file.getvalue().splitlines()
    assert len([line for line in lines if "]" in line]) >= 3  # it did wrap
    for line in lines:
        assert line.count("[") == line.count("]"), f"a pile is split: {line!r}"
    assert all(f"{i}:[" in "".join(lines) for i in range(len(piles)))
