"""The newer blocks at work in small games of our own: seats that swap zones, hands passed
round, a seat silenced in the response window, a step played any number of times, seats by
number, marks and deck rules, several sets of cards, lists of player counts, faces in two
languages. Each block's mistakes are located errors."""
from __future__ import annotations

import random
import re

import pytest

from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.cards import describe
from cardrules.interpreter.compile import ConfigError, compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load_text
from cardrules.interpreter.notation import IllegalMoveError

from .conftest import cli, write
from .helpers import REPEAT, STARS, TRADE


@pytest.fixture(scope="module")
def trade3():
    return compile_ruleset(load_text(TRADE, "trade.rules").model, 3)


def position(compiled, zones, active=0) -> Game:
    game = Game(compiled, seed=1, deal=False)
    game.set_position(zones, active=active)
    return game


def hands(game: Game) -> list:
    """Every seat's hand, as faces: what the test sees, not what a seat may."""
    c = game.c
    return [[c.faces[c.face_of[card]] for card in hand] for hand in game.state.zones[c.zone_index["hand"]]]


STOCK = ["g4", "g4", "g4"]  # enough that no round ends in these positions


# ------------------------------------------------------------------ swap, pass, no answer


def test_swap_trades_the_named_zones_of_two_seats_and_leaves_their_hands(trade3):
    game = position(trade3, {"hand": {0: ["swap", "g2"], 1: ["g3"], 2: ["g4"]}, "row": {0: ["g4"], 1: ["g2", "g3"]},
                             "badge": {1: ["flip"]}, "stock": STOCK})
    game.apply("trade swap @1")
    zones = game.view(0)["zones"]
    assert zones["row"][:2] == [["g2", "g3"], ["g4"]] and zones["badge"][:2] == [["flip"], []]
    assert hands(game)[:2] == [["g2"], ["g3"]] and zones["row"][2] == [] and zones["discard"] == ["swap"]


def test_pass_gives_every_hand_to_the_next_seat_in_the_direction_of_play(trade3):
    game = position(trade3, {"hand": {0: ["handoff", "g2"], 1: ["g3"], 2: ["g4", "g4"]}, "stock": STOCK})
    game.apply("handoff handoff")
    assert hands(game) == [["g4", "g4"], ["g2"], ["g3"]]  # 0 -> 1 -> 2 -> 0


def test_after_a_reverse_hands_pass_the_other_way(trade3):
    game = position(trade3, {"hand": {0: ["flip", "g2"], 1: ["g3"], 2: ["handoff", "g4"]}, "stock": STOCK})
    game.apply("flip flip")
    assert game.state.direction == -1 and game.to_move == 2  # after seat 0 comes seat 2 now
    game.apply("handoff handoff")
    assert hands(game) == [["g3"], ["g4"], ["g2"]]  # 2 -> 1 -> 0 -> 2


@pytest.mark.parametrize("silenced,asked", [(1, 2), (2, 1)])
def test_no_answer_skips_the_silenced_seat_in_the_window_and_asks_the_others(trade3, silenced, asked):
    game = position(trade3, {"hand": {0: ["hush", "g2"], 1: ["g1", "g2"], 2: ["g1"]}, "stock": STOCK})
    game.apply(f"hush hush @{silenced}")
    # the window after the play: seat 0 has no snap, the silenced seat is passed over
    assert game.to_move == asked and game.state.silent == {silenced}
    assert sorted(str(m) for m in game.legal_moves(asked)) == ["pass", "snap g1"]
    game.apply("pass")  # a full round of passes, the silenced seat's among them: seat 1's turn
    assert game.state.window is None and game.state.silent == set()  # the silence lasts one window
    assert game.to_move == 1 and game.state.active == 1
    assert "g1" in hands(game)[silenced] and "g1" in hands(game)[asked]  # nobody snapped


def test_a_silenced_seat_answers_again_in_the_next_window(trade3):
    game = position(trade3, {"hand": {0: ["hush", "g2"], 1: ["g1", "g3"], 2: []}, "stock": STOCK})
    game.apply("hush hush @1")  # nobody else can snap: the window closes at once
    assert game.to_move == 1 and not game.view(1)["window"]
    game.apply("lay g3 @2")  # its own turn; the window after it asks seat 1 again
    assert game.to_move == 1 and game.view(1)["window"] and "snap g1" in [str(m) for m in game.legal_moves(1)]


# ------------------------------------------------------------------ may play any of, seats by number


def test_may_play_any_of_lets_a_seat_play_until_it_passes():
    compiled = compile_ruleset(load_text(REPEAT, "repeat.rules").model, 3)
    game = position(compiled, {"hand": {0: ["g2", "g3", "g4"], 1: ["g2"], 2: ["g3"]}, "stock": STOCK})
    game.apply("lay g2 @1")
    game.apply("lay g3 @1")
    assert game.to_move == 0 and game.state.active == 0  # still seat 0's turn, still its step
    assert sorted(str(m) for m in game.legal_moves(0)) == ["lay g4 @1", "pass"]
    game.apply("pass")
    assert game.state.active == 1 and game.view(0)["zones"]["row"][1] == ["g2", "g3"]


def test_bots_play_both_games_to_the_end():
    for text in (TRADE, REPEAT):
        for players in (2, 4):
            compiled = compile_ruleset(load_text(text, "trade.rules").model, players)
            for seed in range(10):
                game = Game(compiled, seed=seed)
                play_out(game, [RandomBot(random.Random(seed + s)) for s in range(players)])
                assert game.over


def test_a_seat_expression_sends_the_card_to_that_seat_and_the_refusal_quotes_it(trade3):
    game = position(trade3, {"hand": {2: ["g2", "g3"]}, "stock": STOCK}, active=2)
    assert sorted(str(m) for m in game.legal_moves(2)) == ["lay g2 @0", "lay g3 @0"]  # seat 2 + 1 is seat 0
    with pytest.raises(IllegalMoveError) as refused:
        game.apply("lay g2 @1")
    assert "'lay' may not go to seat 1: the rule is `to row of home(self)`" in refused.value.message


def test_the_card_help_shows_the_new_items_as_written(trade3):
    items = {use.play: [i.text for i in use.items] for use in describe(trade3, "swap").uses}
    assert items["trade"][-1] == "then swap row, badge of self with victim"
    items.update({use.play: [i.text for i in use.items] for name in ("handoff", "hush", "g2")
                  for use in describe(trade3, name).uses})
    assert items["handoff"][-1] == "then pass hand"
    assert items["hush"][-1] == "then no answer from victim"
    assert items["lay"][1] == "to row of home(self)"


@pytest.mark.parametrize("change,word,message", [
    (("to row of home(self)", "to row of seat(card)"), "card)", "seat(...) takes a number, not a card"),
    (("to row of home(self)", "to row of seat(index(2))"), "2)", "index(...) takes a seat, not a number"),
    (("to row of home(self)", "to row of index(self)"), "index", "'to row of ...' needs a seat, not a number"),
    (("then swap row, badge of self with victim", "then swap row, badge of self with 2"), "2",
     "this names a number, not a seat"),
    (("then no answer from victim", "then no answer from card"), "card", "this names a card, not a seat"),
    (("then swap row, badge of", "then swap discard, badge of"), "discard", "zone 'discard' is shared"),
    (("then pass hand", "then pass discard"), "discard }", "zone 'discard' is shared"),
], ids=["seat of a card", "index of a number", "to of a number", "swap with a number", "no answer from a card",
        "swap a shared zone", "pass a shared zone"])
def test_seats_by_number_and_the_new_effects_are_typed_with_located_errors(change, word, message):
    text = TRADE.replace(*change)
    assert text != TRADE
    with pytest.raises(RulesError) as raised:
        load_text(text, "trade.rules")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if change[1] in t)
    column = text.splitlines()[line - 1].index(word, text.splitlines()[line - 1].index(change[1])) + 1
    assert (line, column, message) in {(d.span.line, d.span.column, d.message) for d in raised.value.diagnostics}


# ------------------------------------------------------------------ marks, deck rules, decks, players


def faces_in_play(compiled) -> dict[str, int]:
    counted: dict[str, int] = {}
    for face in compiled.face_of:
        counted[compiled.faces[face]] = counted.get(compiled.faces[face], 0) + 1
    return counted


def test_a_deck_rule_keeps_the_marked_copies_for_some_player_counts():
    model = load_text(STARS, "stars.rules").model
    assert model.marks == ("star",) and [r.name for r in model.deck_rules] == ["few"]
    two, four = compile_ruleset(model, 2), compile_ruleset(model, 4)
    # 18 chips and 2 wilds; for two players only the starred copy of each 3 stays
    assert (two.deck_size, four.deck_size) == (16, 20)
    assert faces_in_play(two) == {"red1": 3, "red2": 3, "red3": 1, "blue1": 3, "blue2": 3, "blue3": 1, "wild": 2}
    assert faces_in_play(four)["red3"] == 3


def test_decks_gives_that_many_sets_of_the_cards():
    model = load_text(STARS + "decks 2\n", "stars.rules").model
    assert model.sets == 2 and model.deck_size == 20  # the model counts one set, as written
    two, four = compile_ruleset(model, 2), compile_ruleset(model, 4)
    # the mark is on the first copy of each face in each set
    assert (two.deck_size, four.deck_size) == (32, 40)
    assert faces_in_play(two)["red3"] == 2 and faces_in_play(four)["red3"] == 6 and faces_in_play(two)["wild"] == 4


def test_a_mark_is_read_only_in_a_deck_rule():
    text = STARS.replace("play lay { card from hand  to table }",
                         "play lay { card from hand where card.star  to table }")
    with pytest.raises(RulesError) as raised:
        load_text(text, "stars.rules")
    [d] = raised.value.diagnostics
    assert d.message == "'star' is a mark, read only where the deck is chosen"
    assert (d.span.line, d.span.column) == (18, 38) and "read marks in a `deck` clause" in d.hint


def test_a_list_of_player_counts_allows_only_those(tmp_path):
    model = load_text(STARS, "stars.rules").model
    assert model.counts == (2, 4) and model.player_counts == (2, 4)
    with pytest.raises(ConfigError, match=r"Stars is for 2, 4 players, not 3"):
        compile_ruleset(model, 3)
    r = cli("check", write(tmp_path, "stars.rules", STARS))
    assert r.code == 0, r.stderr
    assert re.search(r"players\s+│ 2, 4 ", r.stdout)
    assert [re.findall(r"\d+", line)[:4] for line in r.stdout.splitlines() if re.match(r"│ \d ", line)] == [
        ["2", "16", "3", "6"], ["4", "20", "3", "12"]]  # players, in play, per seat, dealt: no row for 3


@pytest.mark.parametrize("text,message", [
    ("players 4, 2", "the player counts are not listed from the fewest up, each once"),
    ("players 2, 2, 4", "the player counts are not listed from the fewest up, each once"),
])
def test_a_list_of_player_counts_is_ordered(text, message):
    with pytest.raises(RulesError) as raised:
        load_text(STARS.replace("players 2, 4", text), "stars.rules")
    assert [(d.span.line, d.message) for d in raised.value.diagnostics] == [(3, message)]


# ------------------------------------------------------------------ faces in two languages


def test_a_face_in_another_language_is_shown_in_it_and_either_face_is_a_move():
    model = load_text(STARS, "stars.rules").model
    assert model.languages == ("ru",)
    assert dict(model.deck[0].names) == {"ru": "красный-1"}  # the enum value by its label in that language
    russian = compile_ruleset(model, 2, lang="ru")
    assert russian.faces[:3] == ("красный-1", "красный-2", "красный-3") and russian.faces[-1] == "дикая"
    assert compile_ruleset(model, 2).faces[0] == "red1"
    for typed in ("lay red1", "lay КРАСНЫЙ-1"):
        game = position(russian, {"hand": {0: ["red1", "wild"], 1: ["blue2"]}, "stock": ["blue1"] * 3})
        assert sorted(str(m) for m in game.legal_moves(0)) == ["lay дикая", "lay красный-1"]
        game.apply(typed)
        assert game.view(0)["zones"]["table"] == ["красный-1"]


def test_a_localized_face_that_clashes_with_another_cards_face_is_located():
    text = STARS.replace('face "wild"  face ru "дикая"', 'face "wild"  face ru "blue1"')
    with pytest.raises(RulesError) as raised:
        load_text(text, "stars.rules")
    [d] = raised.value.diagnostics
    assert d.message == "two cards have the face 'blue1'" and (d.span.line, d.span.column) == (12, 1)
    assert "of kind 'chip'" in d.hint


def test_two_faces_in_one_language_are_located():
    text = STARS.replace('face ru "дикая"', 'face ru "дикая"  face ru "дикий"')
    with pytest.raises(RulesError) as raised:
        load_text(text, "stars.rules")
    assert [(d.span.line, d.span.column, d.message) for d in raised.value.diagnostics] == [
        (12, 58, "a second face in 'ru'")]


# ------------------------------------------------------------------ cleanup

# STARS with a cleanup: when the round ends, every hand goes to the table, seat 0's first, and
# the score (the cards held) is counted after it.
CLEANUP = STARS.replace("match {", "cleanup { move all from hand to table }\nmatch {")


def test_cleanup_moves_every_seats_hand_before_the_round_is_scored():
    model = load_text(CLEANUP, "stars.rules").model
    assert [(s.source, s.dest, s.count) for s in model.cleanup] == [("hand", "table", None)]
    game = position(compile_ruleset(model, 2), {"hand": {0: ["red1"], 1: ["blue1", "blue2"]}, "stock": ["red2"]})
    game.apply("lay red1")
    # seat 0 emptied its hand: the round ends, seat 1's hand goes to the table, top card first
    assert game.over and hands(game) == [[], []]
    assert game.view(0)["zones"]["table"] == ["red1", "blue2", "blue1"]
    assert game.state.results[-1].scores == (0, 0)
    without = position(compile_ruleset(load_text(STARS, "stars.rules").model, 2),
                       {"hand": {0: ["red1"], 1: ["blue1", "blue2"]}, "stock": ["red2"]})
    without.apply("lay red1")
    assert hands(without) == [[], ["blue1", "blue2"]] and without.state.results[-1].scores == (0, 2)


def test_cleanup_moves_only_the_cards_its_where_keeps_and_a_variant_may_replace_it():
    text = CLEANUP.replace("move all from hand to table }", "move all from hand to table where card.n > 1 }")
    game = position(compile_ruleset(load_text(text, "stars.rules").model, 2),
                    {"hand": {0: ["red1"], 1: ["blue1", "blue2"]}, "stock": ["red2"]})
    game.apply("lay red1")
    assert hands(game) == [[], ["blue1"]] and game.state.results[-1].scores == (0, 1)
    # from a per-seat zone, `self` is the seat whose cards move
    for seat, table, scores in ((0, ["blue1", "red2", "red1"], (0, 0)), (1, ["blue1"], (2, 0))):
        text = CLEANUP.replace("move all from hand to table }",
                               f"move all from hand to table where index(self) == {seat} }}")
        game = position(compile_ruleset(load_text(text, "stars.rules").model, 2),
                        {"hand": {0: ["red1", "red2"], 1: ["blue1"]}, "stock": ["red3"]}, active=1)
        game.apply("lay blue1")
        assert game.view(0)["zones"]["table"] == table and game.state.results[-1].scores == scores
    optional = STARS + "variant tidy { cleanup { move all from hand to table } }\n"
    assert load_text(optional, "stars.rules").model.cleanup == ()
    assert len(load_text(optional, "stars.rules", variants=("tidy",)).model.cleanup) == 1


@pytest.mark.parametrize("step, word, message", [
    ("shuffle deck into table", "shuffle", "cleanup only moves cards; a shuffle belongs in setup"),
    ("deal 1 from stock to hand", "deal", "cleanup only moves cards; a deal belongs in setup"),
    ("move all from hand to hand", "hand }", "zone 'hand' is per seat"),
    ("move count(table) from hand to table", "count", "a cleanup count reads the table"),
    ("move all from hand to table where card.star", "star", "'star' is a mark, read only where the deck is chosen"),
], ids=["shuffle", "deal", "to a seat's zone", "count reads a zone", "a mark"])
def test_a_wrong_cleanup_step_is_located(step, word, message):
    text = STARS.replace("match {", f"cleanup {{ {step} }}\nmatch {{")
    with pytest.raises(RulesError) as raised:
        load_text(text, "stars.rules")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("cleanup"))
    column = text.splitlines()[line - 1].index(word) + 1
    assert (line, column, message) in {(d.span.line, d.span.column, d.message) for d in raised.value.diagnostics}


# ------------------------------------------------------------------ a final round in seat order

# TRADE with a final round once the stock is empty: each seat may snap one more gem 1.
TRADE_FINAL = TRADE.replace("end round out when count(stock) == 0 or passes >= players",
                      "end round out when passes >= 99\n"
                      "final round last when count(stock) == 0 { may play one of snap }")


@pytest.mark.parametrize("order, expected", [("", [2, 1, 0]), ("in seat order ", [1, 2, 0])],
                         ids=["direction of play", "in seat order"])
def test_a_final_round_in_seat_order_goes_by_seat_number_after_a_reverse(order, expected):
    text = TRADE_FINAL.replace("final round last when", f"final round last {order}when")
    model = load_text(text, "trade.rules").model
    assert model.final.seat_order == bool(order)
    game = position(compile_ruleset(model, 3), {"hand": {0: ["flip", "g1"], 1: ["g1"], 2: ["g1"]}, "stock": []})
    game.apply("flip flip")  # play goes the other way round from now on: 0, 2, 1
    while game.state.final_turns < 0:  # the window after the flip: nobody snaps
        game.apply("pass")
    seen = []
    while not game.over:
        seen.append(game.state.active)
        game.apply("pass")
    assert seen == expected
