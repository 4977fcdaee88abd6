"""What docs/language.md says about the places a first reading left open, each statement held
to the engine's real behaviour on both engines: `then` items repeat and run in order, each
evaluated when it runs; a play's `move ... where` tests every card before any moves, a setup
`where` after each card has left; `==` on cards compares copies; defines with no parameters;
scenario positions start with the direction of play up."""
from __future__ import annotations

import pytest

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.load import load_text

from .conftest import cli, write

GAME = """
game "Notes" { }
players 3
attribute value in 1..6
card chip { value each  copies 4 }
zone stock shared hidden
zone heap shared public
zone box shared public
zone hand per seat owner
setup {
    shuffle deck into stock
    move all from stock to box where count(stock) > 14
    deal 2 from stock to hand
}
define top_value() = top(heap).value
play gift {
    card from hand where card.value == 1
    to heap
    then move 1 from stock to hand of self
    then move 1 from stock to hand of self
    then next turn to seat(count(hand of self))
    then move 1 from hand of self to heap
    then next turn to seat(count(hand of self))
}
play sweep {
    card from hand where card.value == 2
    to heap
    then move all x from hand of self to heap where count(hand of self) > 2
}
play twin {
    card from hand where card.value == 3 and count(c in cards(hand) where c == card) == 1
                     and count(c in cards(hand) where c.value == card.value) == 2
    to heap
}
play high { card from hand where card.value > top_value()  to heap }
turn { play one of gift, sweep, twin, high or pass }
end round out when some s in seats: count(hand of s) == 0
end round stuck when passes >= players
score s = count(hand of s)
match { until round >= 1  winner lowest }
"""

ENGINES = ["fast", "reference"]


def game(engine: str, seed: int = 1):
    return new_game(compile_ruleset(load_text(GAME, "notes.rules").model, 3), seed, engine=engine)


def faces(g, cards) -> list[str]:
    return [g.c.faces[g.c.face_of[c]] for c in cards]


STOCK, HEAP, BOX, HAND = range(4)


@pytest.mark.parametrize("engine", ENGINES)
def test_then_items_repeat_and_run_in_order_each_evaluated_when_it_runs(engine):
    g = game(engine)
    g.set_position({"hand": {0: ["chip-1"], 1: ["chip-2", "chip-6"], 2: ["chip-6", "chip-6"]},
                    "stock": ["chip-4", "chip-5"]}, rest="box")
    g.apply("gift chip-1")
    # the two moves ran one after the other (the stock's top first); the first `next turn` read
    # the hand of two, the last move took the hand's top card, the second `next turn` read a
    # hand of one: seat 2 plays next, then seat 1
    assert faces(g, g.state.zones[HAND][0]) == ["chip-5"]
    assert faces(g, g.state.zones[HEAP]) == ["chip-1", "chip-4"] and g.state.zones[STOCK] == []
    assert g.state.active == 2
    g.apply("high chip-6")
    assert g.state.active == 1 and g.to_move == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_a_play_move_where_tests_every_card_before_any_moves(engine):
    g = game(engine)
    g.set_position({"hand": {0: ["chip-2", "chip-4", "chip-5", "chip-6"], 1: ["chip-6"], 2: ["chip-6"]}},
                   rest="stock")
    g.apply("sweep chip-2")
    # three cards held when the condition was tested, all of them: none was tested after the
    # hand had shrunk to two
    assert g.state.zones[HAND][0] == [] and len(g.state.zones[HEAP]) == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_a_setup_where_tests_each_card_after_those_taken_before_it_left(engine):
    g = game(engine)
    # 24 cards: the box takes cards from the top while the stock holds more than 14 after the
    # cards before them left it, so 10, not all 24
    assert len(g.state.zones[BOX]) == 10 and len(g.state.zones[STOCK]) == 14 - 3 * 2


@pytest.mark.parametrize("engine", ENGINES)
def test_equality_on_cards_compares_copies_not_faces(engine):
    g = game(engine)
    g.set_position({"hand": {0: ["chip-3", "chip-3"], 1: ["chip-6"], 2: ["chip-6"]}, "heap": ["chip-6"]},
                   rest="stock")
    # two copies of one face: each equals itself only, so `c == card` counts one of them
    assert [str(m) for m in g.legal_moves(0)] == ["twin chip-3"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_define_with_no_parameters(engine):
    g = game(engine)
    g.set_position({"hand": {0: ["chip-4", "chip-6"], 1: ["chip-6"], 2: ["chip-6"]}, "heap": ["chip-5"]},
                   rest="stock")
    assert [str(m) for m in g.legal_moves(0)] == ["high chip-6"]
    with pytest.raises(RulesError) as e:
        load_text(GAME.replace("card.value > top_value()", "card.value > top_value"), "notes.rules")
    assert any(d.message == "unknown name 'top_value'" for d in e.value.diagnostics)


def test_a_scenario_position_cannot_set_the_direction(tmp_path):
    write(tmp_path, "notes.rules", GAME)
    scenarios = write(tmp_path, "notes.scenarios.yaml", """
ruleset: notes.rules
defaults: {players: 3}
scenarios:
  - name: a position
    position:
      zones: {hand: {0: [chip-6]}}
      direction: -1
    steps:
      - expect: {active: 0}
""")
    r = cli("scenarios", scenarios)
    assert r.code == 1 and "direction" in r.stderr
