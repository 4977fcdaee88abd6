"""Issue 17, block 7: a meld, a play of LOW..HIGH cards at once with a condition over the set,
one move in the notation (`group 2-clubs+2-hearts+2-spades`), on both engines; laying off onto
a meld is `onto pile`. Copies of one face make one meld; the candidates are bounded
(`melds.MAX_SETS`) and looked for within each value of an attribute the set must share."""
from __future__ import annotations

import pytest

from cardrules.interpreter import melds
from cardrules.interpreter import model as m
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import new_game
from cardrules.interpreter.equivalence import compare
from cardrules.interpreter.load import load_text
from cardrules.interpreter.notation import IllegalMoveError

MELDS = """
game "Melds" { }
players 2..3
attribute suit { clubs, hearts, spades }
attribute rank in 1..6
card standard { suit each  rank each  copies 2  face "{rank}-{suit}" }
zone stock shared hidden
zone hand per seat owner
zone table shared public piles
zone discard shared public
setup { shuffle deck into stock  deal 7 from stock to hand }
play group {
    meld m of 3..4 from hand where count(distinct(m.rank)) == 1
    to table
}
play run {
    meld m of 3..6 from hand where count(distinct(m.suit)) == 1 and count(distinct(m.rank)) == count(m)
                                   and max(m.rank) - min(m.rank) == count(m) - 1
    to table
    then move 1 from stock to discard when count(m) >= 5
}
play add {
    card from hand
    to table
    onto pile when (count(distinct(cards(pile).rank)) == 1 and card.rank == top(pile).rank)
                or (count(distinct(cards(pile).rank)) > 1 and card.suit == top(pile).suit
                    and (card.rank == max(cards(pile).rank) + 1 or card.rank == min(cards(pile).rank) - 1))
}
play drop { card from hand  to discard }
turn {
    draw 1 from stock to hand
    may play any of group, run, add
    play one of drop or pass
}
end round out when some s in seats: count(hand of s) == 0
end round dry when count(stock) == 0
score s = count(hand of s)
match { until round >= 1  winner lowest }
"""

HAND = ["2-clubs", "2-hearts", "2-spades", "2-clubs", "3-clubs", "4-clubs", "6-hearts"]


def game_at(engine, hand=HAND, table=(), players=2):
    compiled = compile_ruleset(load_text(MELDS, "melds.rules").model, players)
    game = new_game(compiled, 1, engine=engine)
    game.set_position({"hand": {0: list(hand), 1: ["1-spades"]}, "stock": ["6-spades", "5-spades"],
                       "table": [list(p) for p in table]})
    return game


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_melds_are_one_move_per_set_of_faces_copies_collapsed(engine):
    game = game_at(engine)  # seat 0 has drawn 5-spades
    legal = [str(m) for m in game.legal_moves(0)]
    groups = [m for m in legal if m.startswith("group ")]
    assert sorted(groups) == sorted(["group 2-clubs+2-clubs+2-hearts", "group 2-clubs+2-clubs+2-spades",
                                     "group 2-clubs+2-hearts+2-spades", "group 2-clubs+2-clubs+2-hearts+2-spades"])
    assert [m for m in legal if m.startswith("run ")] == ["run 2-clubs+3-clubs+4-clubs"]  # two 2-clubs: one run
    assert "pass" in legal


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_meld_typed_in_any_order_lays_its_cards_as_a_new_pile_and_can_be_laid_off_onto(engine):
    game = game_at(engine)
    game.apply("group 2-spades+2-clubs+2-hearts")
    view = game.view(0)
    assert view["zones"]["table"] == [["2-clubs", "2-hearts", "2-spades"]]
    assert sorted(view["zones"]["hand"][0]) == sorted(["2-clubs", "3-clubs", "4-clubs", "6-hearts", "5-spades"])
    assert game.to_move == 0 and "add 2-clubs /0" in [str(m) for m in game.legal_moves(0)]
    game.apply("add 2-clubs /0")  # laying off: one card onto the meld
    assert game.view(0)["zones"]["table"] == [["2-clubs", "2-hearts", "2-spades", "2-clubs"]]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_melds_effects_read_the_set(engine):
    game = game_at(engine, hand=["1-hearts", "2-hearts", "3-hearts", "4-hearts", "6-clubs"])
    game.apply("run 1-hearts+2-hearts+3-hearts+4-hearts")
    assert game.view(0)["zones"]["discard"] == []  # four cards: the guard keeps the stock
    game = game_at(engine, hand=["1-hearts", "2-hearts", "3-hearts", "4-hearts", "5-hearts"])
    game.apply("run 1-hearts+2-hearts+3-hearts+4-hearts+5-hearts")
    assert game.view(0)["zones"]["discard"] == ["6-spades"]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_set_that_is_no_meld_or_of_the_wrong_size_or_not_held_is_refused_with_why(engine):
    game = game_at(engine)
    with pytest.raises(IllegalMoveError,
                       match=r"is not a meld 'group' lays: the rule is `count\(distinct\(m.rank\)\) == 1`"):
        game.apply("group 2-clubs+3-clubs+4-clubs")
    with pytest.raises(IllegalMoveError, match="lays 3 to 4 cards"):
        game.apply("group 2-clubs+2-hearts")
    with pytest.raises(IllegalMoveError, match="holds no other 2-hearts"):
        game.apply("group 2-hearts+2-hearts+2-clubs")


def test_both_engines_agree_on_a_game_of_melds():
    compiled = compile_ruleset(load_text(MELDS, "melds.rules").model, 3)
    assert compare(compiled, positions=400, seed=2).positions >= 400


def test_candidates_are_looked_for_within_each_value_the_set_must_share():
    model = load_text(MELDS, "melds.rules").model
    compiled = compile_ruleset(model, 2)
    run = next(p for p in compiled.plays if p.name == "run")
    assert melds.alike_attributes(model.play("run").meld.where, "m") == ("suit",)
    hand = [c for c, f in enumerate(compiled.face_of) if compiled.faces[f] in ("1-clubs", "1-hearts", "1-spades",
                                                                               "2-clubs", "2-hearts", "2-spades")][::2]
    everything = list(melds.candidates(hand, compiled.face_of, 3, 3, ()))
    by_suit = list(melds.candidates(hand, compiled.face_of, 3, 3, run.meld.alike))
    assert len(everything) == 20 and by_suit == []  # six cards, two of each suit


def test_what_a_meld_asks_beyond_the_attributes_its_candidates_share():
    """The condition a candidate is still tested against: a group's is met by every candidate
    (none left), a run's keeps its ranks' conditions and drops its one suit."""
    model = load_text(MELDS, "melds.rules").model
    group, run = model.play("group").meld, model.play("run").meld
    assert melds.beyond_alike(group.where, "m") is None
    rest = melds.beyond_alike(run.where, "m")
    assert rest is not None and melds.alike_attributes(rest, "m") == ()
    assert melds.beyond_alike(rest, "m") == rest  # nothing shared is left to drop
    suit, ranks, span = run.where.left.left, run.where.left.right, run.where.right  # (a and b) and c
    assert melds.alike_attributes(suit, "m") == ("suit",) and rest == m.Op("and", ranks, span, "bool")


def test_a_hand_past_the_bound_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(melds, "MAX_SETS", 3)
    with pytest.raises(melds.MeldBoundError, match="more than 3 melds to test"):
        game_at("reference")


@pytest.mark.parametrize("change, message", [
    ("    to table\n}\nplay run", "    card from hand\n    to table\n}\nplay run", ),
    ("meld m of 3..4", "meld m of 0..4"),
    ("meld m of 3..6 from hand", "meld card of 3..6 from hand"),
])
def test_a_meld_that_does_not_check_is_a_located_error(change, message):
    text = MELDS.replace(change, message, 1)
    with pytest.raises(RulesError):
        load_text(text, "melds.rules")
