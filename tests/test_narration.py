"""Narration: every effect of a move, as one seat may know it, read from the states before and
after: a merge and the piles it renumbers, a card taken unseen, a reversed direction and a turn
given, a round's end in the rules' words."""
from __future__ import annotations

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load
from cardrules.interpreter.narration import (
    DirectionChanged,
    Merged,
    Moved,
    Place,
    Renumbered,
    RoundOver,
    TurnGiven,
    as_dict,
    narrate,
    round_words,
    snapshot,
)
from cardrules.interpreter.notation import parse_move
from cardrules.interpreter.redact import UNSEEN

from .conftest import RULESETS


def klats_game(zones: dict, players: int = 2) -> Game:
    game = Game(compile_ruleset(load(str(RULESETS / "klats.rules")).model, players, {}), 1, deal=False)
    game.set_position(zones, rest="draw")
    return game


def played(game: Game, text: str, seat: int):
    move = game.move_of(game.action_of(parse_move(text, game.open_plays())))
    mover = game.to_move
    before = snapshot(game)
    game.apply(move)
    return narrate(before, game, seat, move, mover, round_words(game.c.model))


def test_a_merge_names_the_piles_merged_and_renumbered_as_they_read_after_the_move():
    game = klats_game({"hand": {0: ["blue14"]},
                       "row": {0: [["blue3"], ["orange14"], ["green14"], ["blue5"], ["green7"]]}})
    events = played(game, "put blue14 @0", 0)
    row = Place("row", 0)
    moved = [e for e in events if isinstance(e, Moved)]
    assert moved[0] == Moved(("blue14",), Place("hand", 0), row, (3,))  # the played card first, in its pile now
    assert Merged(row, (1, 2), 3) in events
    assert Renumbered(row, (3, 4), (1, 2)) in events
    assert game.view(0)["zones"]["row"][0][3][-1] == "blue14"  # pile 3 is where the card lies


def test_a_card_drawn_is_seen_by_its_owner_only():
    game = klats_game({"hand": {0: ["blue1"], 1: ["blue2"]}, "draw": ["green9"]})
    own = [e for e in played(game, "put blue1 @0", 0) if isinstance(e, Moved) and e.source == Place("draw", None)]
    game = klats_game({"hand": {0: ["blue1"], 1: ["blue2"]}, "draw": ["green9"]})
    other = [e for e in played(game, "put blue1 @0", 1) if isinstance(e, Moved) and e.source == Place("draw", None)]
    assert own == [Moved(("green9",), Place("draw", None), Place("hand", 0), (None,))]
    assert other == [Moved((UNSEEN,), Place("draw", None), Place("hand", 0), (None,))]


def test_a_round_ends_in_the_rules_words():
    game = klats_game({"hand": {0: ["blue1"], 1: ["blue2"]},
                       "row": {0: [["blue3"], ["orange4"], ["green5"], ["blue6"], ["green7"]]}})
    events = played(game, "put blue1 @0", 1)
    [over] = [e for e in events if isinstance(e, RoundOver)]
    assert over.reason == "six_piles" and over.round == 0
    assert "the number of piles in row of s is at least max_piles" in over.words
    assert events[0] == Moved(("blue1",), Place("hand", 0), Place("row", 0), (None,))
    assert as_dict(over)["kind"] == "round_over"


def test_a_reverse_tells_the_direction_and_the_turn_given():
    arne = load(str(RULESETS / "arne_92.rules"))
    game = Game(compile_ruleset(arne.model, 3, {}), 1, deal=False)
    game.set_position({"badge": {0: ["blue"], 1: ["green"], 2: ["red"]}, "hand": {0: ["reverse", "blue50"]},
                       "draw": ["yellow50", "red50"]}, rest="box")
    assert "reverse" in game.open_plays()
    events = played(game, "reverse reverse", 2)
    assert DirectionChanged(-1) in events
    assert TurnGiven(0) in events
    assert Moved(("reverse",), Place("hand", 0), Place("discard", None), (None,)) in events
