"""The engine's contract: distinct legal moves, refusals with the rule that refuses, views that
hide what a seat may not see, exact replays from a seed, and rulesets that cannot go on."""
from __future__ import annotations

import random

import pytest

from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import ConfigError, compile_ruleset
from cardrules.interpreter.engine import EngineError, Game, PositionError
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.notation import AmbiguousMoveError, IllegalMoveError, Move, MoveSyntaxError, parse_move

from .conftest import REPO
from .helpers import KINDS, PAIRS, QUICK, QUICK_FINAL, RAID


@pytest.fixture(scope="module")
def klats3(klats):
    return compile_ruleset(klats.model, 3)


def position(compiled, zones, active=0, **kw) -> Game:
    game = Game(compiled, seed=1, deal=False)
    game.set_position(zones, active=active, **kw)
    return game


def test_distinct_moves_merge_copies_of_one_face(klats3):
    game = position(klats3, {"hand": {0: ["blue5", "blue5", "green2"]}, "row": {1: [["blue9"]]}, "draw": ["green1"]})
    moves = [str(m) for m in game.legal_moves(0)]
    assert len(moves) == len(set(moves))
    # blue5: a new pile at each of 3 seats, and onto seat 1's blue pile; green2: 3 new piles
    assert sorted(moves) == sorted(["put blue5 @0", "put blue5 @1", "put blue5 @2", "put blue5 @1/0",
                                    "put green2 @0", "put green2 @1", "put green2 @2"])
    assert game.legal_moves(1) == []  # not seat 1's turn


def test_a_new_pile_and_a_pile_of_the_same_value_are_two_moves(klats3):
    game = position(klats3, {"hand": {0: ["blue5"]}, "row": {0: [["blue5"]]}, "draw": ["green1"]})
    own = sorted(str(m) for m in game.legal_moves(0) if m.seat == 0)
    assert own == ["put blue5 @0", "put blue5 @0/0"]


def test_merge_after_a_new_pile_keeps_the_played_card_on_top(klats3):
    game = position(klats3, {"hand": {0: ["blue5"]}, "row": {0: [["green5"], ["orange2"], ["orange5"]]},
                             "draw": ["green1"]})
    game.apply("put blue5 @0")
    assert game.view(0)["zones"]["row"][0] == [["orange2"], ["green5", "orange5", "blue5"]]


def test_refusal_names_the_rule_and_its_source(klats3):
    game = position(klats3, {"hand": {0: ["blue5"]}, "row": {1: [["green9"]]}, "draw": ["green1"]})
    with pytest.raises(IllegalMoveError) as refused:
        game.apply("put blue5 @1/0")
    assert "top(pile).colour == card.colour" in refused.value.message
    assert "003:" in refused.value.message
    with pytest.raises(IllegalMoveError, match="holds no orange3"):
        game.apply("put orange3 @0")
    with pytest.raises(IllegalMoveError, match="no seat 7"):
        game.apply("put blue5 @7")
    with pytest.raises(IllegalMoveError, match="numbered 0 to 0"):
        game.apply("put blue5 @1/4")
    with pytest.raises(MoveSyntaxError):
        game.apply("put blue5 seat1")
    assert game.to_move == 0 and game.view(0)["zones"]["hand"][0] == ["blue5"]  # nothing changed


def test_notation_round_trips_and_short_form():
    for move in (Move("put", "blue14", 2), Move("put", "blue14", 2, 0), Move("discard", "8-hearts"),
                 Move("lay", "8-clubs", None, 0)):
        assert parse_move(str(move), ("put", "discard")) == move
    assert parse_move("blue14 @2/3", ("put",)) == Move("put", "blue14", 2, 3)
    with pytest.raises(AmbiguousMoveError):
        parse_move("blue14 @2", ("put", "give"))


def test_view_hides_other_hands_and_the_draw(klats3):
    game = Game(klats3, seed=5)
    hands = game.state.zones[klats3.zone_index["hand"]]
    faces = klats3.faces
    for seat in range(3):
        view = game.view(seat)
        assert view["zones"]["draw"] == {"count": len(game.state.zones[klats3.zone_index["draw"]])}
        for other in range(3):
            shown = view["zones"]["hand"][other]
            if other == seat:
                assert shown == [faces[klats3.face_of[c]] for c in hands[other]]
            else:
                assert shown == {"count": len(hands[other])}


def test_a_seed_and_the_moves_replay_a_match_exactly(klats3):
    first = Game(klats3, seed=42)
    bots = [RandomBot(random.Random(k)) for k in range(3)]
    moves = []
    while not first.over:
        action = bots[first.to_move].choose(first)
        moves.append(str(first.move_of(action)))
        first.play(action)
    again = Game(klats3, seed=42)
    for text in moves:
        again.apply(text)
    assert again.over and again.state.totals == first.state.totals
    assert [r.reason for r in again.state.results] == [r.reason for r in first.state.results]


def test_state_copy_is_independent(klats3):
    game = Game(klats3, seed=3)
    before = game.state.copy()
    game.play(game.actions()[0])
    assert before.zones != game.state.zones
    assert before.plays == 0 and game.state.plays == 1


def test_every_card_is_in_exactly_one_place_through_a_match(klats3):
    game = Game(klats3, seed=9)
    bot = RandomBot(random.Random(9))

    def cards(zone):
        for item in zone:
            if isinstance(item, list):
                yield from cards(item)
            else:
                yield item

    while not game.over:
        placed = sorted(cards(game.state.zones))
        assert placed == list(range(klats3.deck_size))
        game.play(bot.choose(game))


def test_config_errors(klats):
    with pytest.raises(ConfigError, match="2 to 6 players"):
        compile_ruleset(klats.model, 7)
    with pytest.raises(ConfigError, match="no param 'speed'"):
        compile_ruleset(klats.model, 3, {"speed": 2})
    with pytest.raises(ConfigError, match="1..10"):
        compile_ruleset(klats.model, 3, {"hand_size": 11})
    assert compile_ruleset(klats.model, 6, {"hand_size": 10}).params["hand_size"] == 10  # 60 of 90 cards


def test_a_param_that_empties_the_deck_is_refused_at_compile_time():
    text = STALLS.replace("players 2..2", "players 2..2\nparam h = 2 in 1..10").replace("deal 2", "deal h")
    model = load_text(text, "deal.rules").model  # the defaults deal 4 of 8 cards
    with pytest.raises(ConfigError, match="cannot deal 5 to each of 2 players"):
        compile_ruleset(model, 2, {"h": 5})


def test_params_change_the_game(klats):
    compiled = compile_ruleset(klats.model, 2, {"target_total": 10, "hand_size": 5})
    game = Game(compiled, seed=1)
    assert len(game.view(0)["zones"]["hand"][0]) == 5
    play_out(game, [RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    assert game.over and max(game.state.totals) >= 10


def test_position_errors(klats3):
    game = Game(klats3, seed=1, deal=False)
    with pytest.raises(PositionError, match="no card is called 'purple3'"):
        game.set_position({"hand": {0: ["purple3"]}})
    with pytest.raises(PositionError, match="no more copies"):
        game.set_position({"hand": {0: ["blue3", "blue3", "blue3"]}})
    with pytest.raises(PositionError, match="no zone 'table'"):
        game.set_position({"table": []})


STALLS = """
game "Stall" { }
players 2..2
attribute n in 1..4
card c { n each  copies 2 }
zone stock shared hidden
zone hand per seat owner
zone out per seat public
setup { shuffle deck into stock  deal 2 from stock to hand }
play give { card from hand where card.n > 9  to out of self }
turn { play one of give or pass }
end round never when count(stock) > 100
score s = 0
match { until round >= 1 }
"""


def test_a_round_that_cannot_end_is_reported_not_looped():
    compiled = compile_ruleset(load_text(STALLS, "stall.rules").model, 2)
    with pytest.raises(EngineError, match="cannot end"):
        Game(compiled, seed=1)


def test_top_of_an_empty_zone_is_no_card():
    text = STALLS.replace("card.n > 9", "card.n == top(stock).n").replace(
        "deal 2 from stock to hand }", "deal 2 from stock to hand }\n").replace(
        "end round never when count(stock) > 100", "end round done when passes >= players")
    compiled = compile_ruleset(load_text(text, "top.rules").model, 2)
    game = Game(compiled, seed=1, deal=False)
    game.set_position({"hand": {0: ["c-1"], 1: ["c-2"]}, "stock": []})
    assert game.over  # nothing matches "no card": both pass, the round ends, the match ends


def test_crazy_eights_plays_to_the_end():
    loaded = load(str(REPO / "docs" / "examples" / "crazy_eights.rules"))
    for players in (2, 5):
        game = Game(compile_ruleset(loaded.model, players), seed=players)
        play_out(game, [RandomBot(random.Random(s)) for s in range(players)])
        assert game.over and max(game.state.totals) >= 100


def test_a_seat_with_no_legal_play_and_no_pass_is_a_rules_error():
    text = STALLS.replace("play one of give or pass", "play one of give")
    compiled = compile_ruleset(load_text(text, "nopass.rules").model, 2)
    with pytest.raises(EngineError, match="seat 0 has no legal give and this step allows no pass"):
        Game(compiled, seed=1)


def test_a_turn_whose_steps_are_all_skipped_is_reported_not_looped():
    text = STALLS.replace("play one of give or pass", "play one of give or pass when players > 5")
    compiled = compile_ruleset(load_text(text, "skip.rules").model, 2)
    with pytest.raises(EngineError, match="cannot end"):
        Game(compiled, seed=1)


def test_a_kind_without_an_attribute_reads_it_as_no_value():
    compiled = compile_ruleset(load_text(KINDS, "kinds.rules").model, 2)
    game = Game(compiled, seed=1, deal=False)
    game.set_position({"hand": {0: ["joker", "number-1"], 1: ["number-2"]}, "stock": []})
    # a joker has no n (reads 0 < 2) and no colour; values(...) equals itself as a list
    assert sorted(str(m) for m in game.legal_moves(0)) == ["give joker @0", "give number-1 @0"]
    game.apply("give joker @0")
    game.apply("give number-1 @0")
    assert game.over and game.state.totals == [0 + 1 + 1, 0]


@pytest.fixture(scope="module")
def quick3():
    return compile_ruleset(load_text(QUICK, "quick.rules").model, 3)


def test_a_window_asks_every_seat_with_a_window_play_in_turn_order(quick3):
    game = position(quick3, {"hand": {0: ["n1"], 1: ["jump"], 2: ["flip"]}, "stock": ["n5", "n4", "n3", "n2"]})
    # seat 0 drew n2; the window after the draw skips seat 0 (nothing to play) and asks seat 1
    assert game.to_move == 1 and game.state.active == 0 and game.view(1)["window"]
    assert sorted(str(m) for m in game.legal_moves(1)) == ["jump jump", "pass"]
    assert game.open_plays() == ("jump", "flip", "pass")
    game.apply("pass")
    assert game.to_move == 2
    game.apply("pass")  # a full round of passes closes the window: seat 0 plays on
    assert game.to_move == 0 and not game.view(0)["window"]
    with pytest.raises(IllegalMoveError, match="no pass is open now"):
        game.apply("pass")


def test_a_window_play_out_of_turn_takes_the_next_turn(quick3):
    game = position(quick3, {"hand": {0: ["n1"], 1: ["jump"], 2: []}, "stock": ["n5", "n4", "n3", "n2"]})
    game.apply("jump jump")  # seat 1, in the window after seat 0's draw
    assert game.to_move == 0  # the window goes on, then seat 0 finishes its turn
    game.apply("lay n1")
    assert game.state.active == 1 and game.to_move == 1  # the jump: seat 1's turn comes next
    assert game.state.next_turns == []


def test_reverse_turns_the_order_round(quick3):
    game = position(quick3, {"hand": {0: ["flip", "n1"], 1: [], 2: []}, "stock": ["n5", "n4", "n3", "n2"]})
    assert game.to_move == 0
    game.apply("flip flip")
    assert game.state.direction == -1 and game.to_move == 0  # the window goes on, from seat 2 backwards
    game.apply("lay n1")
    assert game.state.active == 2  # after seat 0 comes seat 2 now


def test_bots_play_a_game_with_windows_to_the_end(quick3):
    for seed in range(20):
        game = Game(quick3, seed=seed)
        play_out(game, [RandomBot(random.Random(seed + s)) for s in range(3)])
        assert game.over


def test_defines_product_and_bottom_change_nothing_of_the_game(klats):
    text = klats.text.replace(
        "score s = if count(distinct(tops(row of s).colour)) == count(values(colour))\n"
        "          then sum(tops(row of s).value)\n          else 0",
        "define all_colours(s) = count(distinct(tops(row of s).colour)) == count(values(colour))\n"
        "define row_sum(s) = sum(c in tops(row of s): c.value) * product(p in piles(row of s): 1)\n"
        "define any_full(limit) = some s in seats: count(piles(row of s)) >= limit\n"
        "score s = if all_colours(s) and count(c in cards(row of s) where c == bottom(draw)) == 0 "
        "then row_sum(s) else 0")
    text = text.replace("end round six_piles when some s in seats: count(piles(row of s)) >= max_piles",
                        "end round six_piles when any_full(max_piles)")
    assert "define" in text and "any_full(max_piles)" in text
    rewritten = compile_ruleset(load_text(text, "defines.rules").model, 3)
    original = compile_ruleset(klats.model, 3)
    for seed in range(5):
        games = [Game(c, seed=seed) for c in (original, rewritten)]
        for game in games:
            play_out(game, [RandomBot(random.Random(seed * 10 + k)) for k in range(3)])
        assert games[0].state.totals == games[1].state.totals


def test_setup_deals_and_moves_only_the_cards_its_where_keeps():
    text = QUICK.replace("zone table shared public", "zone table shared public\nzone box shared hidden").replace(
        "setup { shuffle deck into stock  deal 3 from stock to hand }",
        "setup { shuffle deck into stock\n"
        "        deal 1 from stock to hand where card.type == jump\n"
        "        move all from stock to box where card.type == flip or card.n > 4\n"
        "        deal 2 from stock to hand }")
    compiled = compile_ruleset(load_text(text, "where.rules").model, 2)
    for seed in range(10):
        game = Game(compiled, seed=seed, deal=True)
        st, zi = game.state, compiled.zone_index
        def faces(cards):
            return [compiled.faces[compiled.face_of[c]] for c in cards]

        assert sorted(faces(st.zones[zi["box"]])) == ["flip", "flip", "n5", "n5"]
        hands = [faces(h) for h in st.zones[zi["hand"]]]
        # each seat got its jump first, then two cards that are neither flips nor n5
        assert all(hand[0] == "jump" and not {"flip", "n5"} & set(hand[1:]) for hand in hands)


@pytest.fixture(scope="module")
def raid3():
    return compile_ruleset(load_text(RAID, "raid.rules").model, 3)


def test_a_chosen_seat_gives_a_random_card(raid3):
    game = position(raid3, {"hand": {0: ["grab"], 1: ["g1", "g2"], 2: []}, "stock": ["mask", "mask", "g3"]})
    assert sorted(str(m) for m in game.legal_moves(0) if m.play == "grab") == ["grab grab @1"]  # seat 2 holds nothing
    with pytest.raises(IllegalMoveError, match="may not choose that seat"):
        game.apply("grab grab @2")
    game.apply("grab grab @1")
    hands = game.view(0)["zones"]["hand"]
    # seat 0 kept g3 and took one of seat 1's two gems; seat 1, to move now, drew a mask
    assert sorted(hands[0]) in (["g1", "g3"], ["g2", "g3"]) and hands[1] == {"count": 2}
    assert game.view(0)["zones"]["discard"] == ["grab"]


def test_a_chosen_pile_moves_with_all_that_lies_on_it_and_sheds_a_card(raid3):
    game = position(raid3, {"hand": {0: ["heist"]}, "vault": {1: [["g1"], ["g4", "mask", "g2"]]},
                            "stock": ["mask", "mask", "g3"]})
    assert [str(m) for m in game.legal_moves(0) if m.play == "heist"] == ["heist heist @1/1"]
    game.apply("heist heist @1/1")
    vault = game.view(0)["zones"]["vault"]
    assert vault[1] == [["g1"]] and vault[0] == [["g4", "g2"]]
    assert game.view(0)["zones"]["discard"] == ["heist", "mask"]


def test_an_ask_is_answered_from_the_hand_as_it_is_and_the_played_card_stays(raid3):
    game = position(raid3, {"hand": {0: ["trade"], 1: ["g4", "g1", "g3", "g4"]}, "discard": ["mask"],
                            "stock": ["mask", "mask", "g2"]})
    game.apply("trade trade @1")
    view = game.view(1)
    assert view["zones"]["vault"][0] == [["g4"], ["g3"]]  # the top two that fit, top first
    assert view["zones"]["hand"][1] == ["g4", "g1", "mask"]  # and seat 1, next, drew a mask
    assert game.view(0)["zones"]["hand"][0] == ["g2", "mask"]  # the card under the trade
    assert view["zones"]["discard"] == ["trade"]


def test_bots_play_raid_to_the_end_and_keep_every_card(raid3):
    for seed in range(30):
        game = Game(raid3, seed=seed)
        play_out(game, [RandomBot(random.Random(seed + s)) for s in range(3)])
        assert game.over


def test_the_final_round_gives_each_seat_one_turn_from_the_next_and_no_window():
    compiled = compile_ruleset(load_text(QUICK_FINAL, "final.rules").model, 3)
    assert compiled.model.round_end_names == ("last",)
    game = position(compiled, {"hand": {0: ["n1"], 1: ["n2", "jump"], 2: ["n3"]}, "stock": ["n4"]})
    # seat 0 drew the last card; the window after the draw asks seat 1, who holds a jump
    assert game.to_move == 1 and game.view(1)["window"] and game.state.final_turns == -1
    game.apply("pass")
    game.apply("lay n1")  # seat 0 finishes its turn, and the window after its play still opens
    assert game.to_move == 1 and game.view(1)["window"]
    game.apply("pass")
    # the turn is over: the final round, from the next seat, with the final round's plays only
    assert game.to_move == 1 and game.state.final_turns == 3 and not game.view(1)["window"]
    assert sorted(str(m) for m in game.legal_moves(1)) == ["lay n2"]
    game.apply("lay n2")
    assert game.to_move == 2 and game.state.final_turns == 2  # and no window after a final play
    game.apply("lay n3")
    game.apply("lay n4")  # seat 0's final turn, the last
    assert game.over and game.state.results[-1].reason == "last"
    assert game.state.totals == [0, 1, 0]  # seat 1 kept its jump


def test_bots_play_a_final_round_to_the_end():
    compiled = compile_ruleset(load_text(QUICK_FINAL, "final.rules").model, 2)
    for seed in range(20):
        game = Game(compiled, seed=seed)
        play_out(game, [RandomBot(random.Random(seed + s)) for s in range(2)])
        assert game.over and game.state.results[-1].reason == "last"


def test_a_compound_play_takes_two_cards_as_one_move():
    compiled = compile_ruleset(load_text(PAIRS, "pairs.rules").model, 2)
    game = position(compiled, {"hand": {0: ["n2", "n2", "flip", "n3"], 1: []}, "rack": {1: [["n3"]]},
                               "stock": ["n5", "n5", "n4"]})
    game.apply("pass")  # the window after the draw asks seat 0 first: it holds a flip
    pairs = sorted(str(m) for m in game.legal_moves(0) if m.play == "pair")
    # n2 goes with the other n2 or with a flip; n3 only with the flip (there is one n3); n4 (drawn) with the flip
    assert pairs == ["pair n2+flip @0", "pair n2+flip @1", "pair n2+n2 @0", "pair n2+n2 @1",
                     "pair n3+flip @0", "pair n3+flip @1", "pair n4+flip @0", "pair n4+flip @1"]
    with pytest.raises(IllegalMoveError, match="n3 may not go with n2"):
        game.apply("pair n2+n3 @0")
    with pytest.raises(IllegalMoveError, match="plays two cards"):
        game.apply("pair n2 @0")
    game.apply("pair n3+flip @1")
    assert game.view(0)["zones"]["rack"][1] == [["n3"], ["n3", "flip"]]
    assert sorted(game.view(0)["zones"]["hand"][0]) == ["n2", "n2", "n4"]


def test_bots_play_compound_plays_to_the_end():
    compiled = compile_ruleset(load_text(PAIRS, "pairs.rules").model, 3)
    for seed in range(20):
        game = Game(compiled, seed=seed)
        play_out(game, [RandomBot(random.Random(seed + s)) for s in range(3)])
        assert game.over


def test_may_play_lets_a_seat_pass_though_it_could_play():
    text = QUICK_FINAL.replace("final round last when count(stock) == 0 {\n    play one of lay or pass",
                         "final round last when count(stock) == 0 {\n    may play one of lay")
    compiled = compile_ruleset(load_text(text, "may.rules").model, 2)
    game = position(compiled, {"hand": {0: ["n1"], 1: ["n2"]}, "stock": ["n4"]})
    game.apply("lay n1")  # seat 0's last turn; then the final round, seat 1 first
    assert game.state.final_turns == 2 and game.open_plays() == ("lay", "pass")
    assert sorted(str(m) for m in game.legal_moves(1)) == ["lay n2", "pass"]
    game.apply("pass")
    assert game.to_move == 0 and game.state.passed is False
    game.apply("pass")
    assert game.over and game.state.totals == [1, 1]  # each kept a card: n4 and n2
