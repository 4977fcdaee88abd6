"""Issue 17, block 7 in part: a move onto a pile as an effect (`then move ... to pile`), on both
engines; a destination that is neither a zone nor a pile is a located error."""
from __future__ import annotations

import pytest

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.equivalence import compare
from cardrules.interpreter.load import load_text

PILE_UP = """
game "Pile up" { }
players 2..3
attribute colour { red, blue }
attribute value in 1..6
card chip { colour each  value each  copies 2  face "{colour}{value}" }
zone stock shared hidden
zone hand per seat owner
zone table shared public piles
setup { shuffle deck into stock  deal 3 from stock to hand }
play lay {
    card from hand
    to table
    new pile
    onto pile when top(pile).colour == card.colour
    then move 1 from stock to pile when count(cards(pile)) >= 2
}
turn { play one of lay or pass }
end round out when some s in seats: count(hand of s) == 0
end round stuck when passes >= players
score s = count(hand of s)
match { until round >= 1  winner lowest }
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_card_moved_onto_the_pile_a_play_went_onto_lies_on_its_top(engine):
    compiled = compile_ruleset(load_text(PILE_UP, "pile_up.rules").model, 2)
    game = new_game(compiled, 1, engine=engine)
    game.set_position({"table": [["red1"], ["blue2"]], "hand": {0: ["red3", "blue4"], 1: ["red5"]},
                       "stock": ["blue1", "red6"]})
    game.apply("lay red3 /0")  # onto pile 0: the stock's top follows it there
    assert game.view(0)["zones"]["table"] == [["red1", "red3", "red6"], ["blue2"]]
    assert game.view(0)["zones"]["stock"] == {"count": 1}
    game.apply("lay red5")  # a new pile of one card: the guard keeps the stock where it is
    assert game.view(0)["zones"]["table"] == [["red1", "red3", "red6"], ["blue2"], ["red5"]]
    assert game.view(0)["zones"]["stock"] == {"count": 1}


def test_both_engines_agree_on_a_game_that_moves_cards_onto_piles():
    compiled = compile_ruleset(load_text(PILE_UP, "pile_up.rules").model, 3)
    assert compare(compiled, positions=300, seed=4).positions >= 300


def test_a_move_to_something_neither_a_zone_nor_a_pile_is_refused_where_it_stands():
    with pytest.raises(RulesError) as caught:
        load_text(PILE_UP.replace("from stock to pile", "from stock to top(pile)"), "pile_up.rules")
    text = str(caught.value.diagnostics[0]) if hasattr(caught.value, "diagnostics") else str(caught.value)
    assert "cards are moved to a zone or a pile, not a card" in text
