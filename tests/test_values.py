"""Issue 17's blocks at work in a small game of our own: a play that names a value instead of
a card, named values that last (per round and per match) and `then set`, guarded effects,
effects as turn steps, `then end turn`, `best(...)` and `played_by(...)`. Each block's
mistakes are located errors."""
from __future__ import annotations

import random

import pytest

from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import Game, PositionError, new_game
from cardrules.interpreter.export import export
from cardrules.interpreter.load import load_text
from cardrules.interpreter.notation import IllegalMoveError, parse_move

from .helpers import LEDGER


@pytest.fixture(scope="module")
def ledger3():
    return compile_ruleset(load_text(LEDGER, "ledger.rules").model, 3)


STOCK = ["red5", "red5", "red3", "red3"]  # the draws of these positions: no round ends


def position(compiled, zones, engine="reference", **kwargs) -> Game:
    game = new_game(compiled, seed=1, deal=False, engine=engine)
    game.set_position(zones, **kwargs)
    return game


def faces(game: Game, zone: str, seat: int | None = None) -> list[str]:
    c = game.c
    cards = game.state.zones[c.zone_index[zone]]
    return [c.faces[c.face_of[x]] for x in (cards if seat is None else cards[seat])]


ENGINES = ["reference", "fast"]


# ------------------------------------------------------------------ a value instead of a card


@pytest.mark.parametrize("engine", ENGINES)
def test_a_play_of_a_value_offers_one_move_per_seat_and_value_its_conditions_keep(ledger3, engine):
    game = position(ledger3, {"hand": {0: ["red1", "red2"], 1: ["blue3"], 2: []}, "stock": STOCK}, engine=engine)
    moves = [str(m) for m in game.legal_moves(0) if m.play == "call"]
    assert moves == ["call red @1"]  # seat 2 holds nothing; seat 0 holds no blue
    assert parse_move("call @1 red", ("call",)) == parse_move("call red @1", ("call",))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_called_value_moves_the_cards_its_effect_names_and_counts_in_a_value_of_the_match(ledger3, engine):
    game = position(ledger3, {"hand": {0: ["blue1"], 1: ["blue3", "red2", "blue4"], 2: ["red1"]}, "stock": STOCK},
                    engine=engine)
    game.apply("call @1 blue")
    assert faces(game, "bank", 0) == ["blue4", "blue3"] and faces(game, "hand", 1) == ["red2"]
    assert game.view(2)["values"]["calls"] == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_a_value_the_play_may_not_name_is_refused_with_its_rule(ledger3, engine):
    game = position(ledger3, {"hand": {0: ["red1"], 1: ["blue3"], 2: []}, "stock": STOCK}, engine=engine)
    with pytest.raises(IllegalMoveError) as refused:
        game.apply("call blue @1")
    assert "may not name blue" in str(refused.value)
    assert "some c in cards(hand of self): c.colour == v" in str(refused.value)
    with pytest.raises(IllegalMoveError) as refused:
        game.apply("call red @2")
    assert "may not choose seat 2" in str(refused.value)
    with pytest.raises(IllegalMoveError) as refused:
        game.apply("call green @1")
    assert "'green' is not a value of colour" in str(refused.value)


# ------------------------------------------------------------------ values, set, guarded effects, effect steps


@pytest.mark.parametrize("engine", ENGINES)
def test_a_guarded_set_runs_only_when_its_condition_holds_and_best_picks_who_played_highest(ledger3, engine):
    game = position(ledger3, {"hand": {0: ["red4"], 1: ["blue5", "red1"], 2: ["blue2"]}, "stock": STOCK},
                    engine=engine)
    assert game.view(0)["values"]["high"] == 0  # let high = seat(round), as the round's setup sets it
    game.apply("drop red4")
    assert game.view(0)["values"]["high"] == 0  # one card in the pool: the guard kept the set from running
    game.apply("drop blue5")
    assert game.view(0)["values"]["high"] == 1  # blue5 is the pool's best, played by seat 1
    game.apply("drop blue2")  # the pool holds as many as there are players: the effect step banks it
    assert faces(game, "pool") == [] and sorted(faces(game, "bank", 1)) == ["blue2", "blue5", "red4"]


@pytest.mark.parametrize("engine", ENGINES)
def test_true_and_false_are_truth_values_a_value_holds_and_a_guard_reads(engine):
    """A value set from `false` to `true` by a play; a call allowed only while it is false."""
    text = LEDGER.replace("    let lead = bottom(stock).colour\n",
                          "    let lead = bottom(stock).colour\n    let dropped = false\n")
    text = text.replace("    to pool\n", "    to pool\n    then set dropped to true\n")
    text = text.replace("where count(hand of victim) > 0", "where count(hand of victim) > 0 and not dropped")
    compiled = compile_ruleset(load_text(text, "ledger.rules").model, 3)
    game = position(compiled, {"hand": {0: ["red4"], 1: ["blue5", "red1"], 2: ["blue2"]}, "stock": STOCK},
                    engine=engine)
    assert game.view(0)["values"]["dropped"] is False
    assert any(m.play == "call" for m in game.legal_moves(0))
    game.apply("drop red4")
    assert game.view(1)["values"]["dropped"] is True
    assert game.to_move == 1 and not any(m.play == "call" for m in game.legal_moves(1))


@pytest.mark.parametrize("engine", ENGINES)
def test_then_end_turn_skips_the_rest_of_the_turn(ledger3, engine):
    game = position(ledger3, {"hand": {0: ["blue1"], 1: ["blue3", "red2"], 2: ["red1"]}, "stock": STOCK},
                    engine=engine, values={"calls": 2})
    game.apply("call blue @1")  # the third call: the turn ends, no draw
    assert faces(game, "hand", 0) == ["blue1"] and game.to_move == 1 and len(faces(game, "stock")) == 4


def test_a_value_of_the_match_counts_every_call_across_rounds_and_one_of_the_round_is_set_again(ledger3):
    game = Game(ledger3, seed=3)
    rng, calls, rounds = random.Random(3), 0, set()
    while not game.over:
        action = rng.choice(game.actions())
        calls += action[0] is not None and action[0].name == "call"
        rounds.add(game.state.round)
        game.play(action)
        if game.state.round == 1 and not game.over and game.state.round_plays == 0:
            assert game.state.values[1] == 1  # let high = seat(round), set again by round 1's setup
    assert [v.per_match for v in ledger3.model.values] == [True, False, False]
    assert len(rounds) == 2 and game.state.values[0] == calls > 0


def test_a_position_may_set_a_value_and_refuses_an_unknown_or_ill_typed_one(ledger3):
    game = position(ledger3, {"hand": {0: ["red1"], 1: ["blue3"]}, "stock": STOCK},
                    values={"lead": "red", "high": 2})
    assert game.view(0)["values"] == {"calls": 0, "high": 2, "lead": "red"}
    for values, message in (({"nope": 1}, "no value 'nope'"), ({"lead": "green"}, "holds one of red, blue"),
                            ({"high": 7}, "holds a seat")):
        with pytest.raises(PositionError, match=message):
            position(ledger3, {"stock": STOCK}, values=values)


def test_a_card_value_shows_only_where_the_seat_sees_the_card():
    text = LEDGER.replace("let lead = bottom(stock).colour", "let lead = bottom(stock).colour  let seen = top(stock)")
    text = text.replace("c.colour == lead)", "c.colour == lead) + (if seen == top(pool) then 1 else 0)")
    compiled = compile_ruleset(load_text(text, "ledger.rules").model, 2)
    game = position(compiled, {"hand": {0: ["red1"], 1: ["blue3"]}, "stock": ["red2", "blue4"]})
    assert game.view(0)["values"]["seen"] == "hidden"  # blue4 lies in the hidden stock
    game.apply("drop red1")  # seat 0 draws blue4 at the end of its turn
    assert game.view(0)["values"]["seen"] == "blue4" and game.view(1)["values"]["seen"] == "hidden"


def test_the_export_names_the_values_and_the_new_items():
    data = export(load_text(LEDGER, "ledger.rules").model)
    assert [(v["name"], v["type"], v["per"]) for v in data["values"]] == [
        ("calls", "int", "match"), ("high", "seat", "round"), ("lead", "enum:colour", "round")]
    call = next(p for p in data["plays"] if p["name"] == "call")
    assert call["card"] is None and call["value"]["attribute"] == "colour"
    assert [e["effect"] for e in call["effects"]] == ["move_cards", "set", "guarded"]
    assert [s["step"] for s in data["turn"]] == ["play", "effect", "draw"]


# ------------------------------------------------------------------ mistakes, located


@pytest.mark.parametrize("change, word, message", [
    (("then set calls to calls + 1", "then set cals to calls + 1"), "cals", "no value 'cals'"),
    (("then set calls to calls + 1", "then set calls to v"), "v", "value 'calls' holds a number, not a colour value"),
    (("choose value v of colour where", "choose value v of hue where"), "hue", "no attribute 'hue'"),
    (("card from hand\n    to pool", "card from hand\n    to pool\n    choose value w of n"), "choose value w",
     "play 'drop' chooses a value and plays a card: a play chooses a value instead of playing a card"),
    (("best(c in cards(pool): c.n)", "best(c in cards(pool).n: c)"), "cards(pool).n",
     "best(...) picks a seat or a card, not a number"),
    (("deal 3 from", "deal calls from"), "calls", "'calls' is a value of the play, read once the round is under way"),
    (("let high = seat(round)", "let high = cards(stock)"), "cards(stock)",
     "a value holds a number, a truth value, a seat, a card or an enum value, not a list of cards"),
    (("played_by(best", "played_by(count(pool) + best"), "best(c",
     "'+' needs numbers; the right side is a card"),
], ids=["set an unknown value", "set to another type", "unknown attribute", "value and card", "best of numbers",
        "value in a setup count", "value of a list", "played_by of a number"])
def test_the_new_blocks_mistakes_are_located(change, word, message):
    text = LEDGER.replace(*change)
    assert text != LEDGER
    with pytest.raises(RulesError) as raised:
        load_text(text, "ledger.rules")
    found = {d.message for d in raised.value.diagnostics}
    assert any(f.startswith(message) for f in found), found
    line = next(n for n, t in enumerate(text.splitlines(), 1) if change[1].split("\n")[-1] in t)
    column = text.splitlines()[line - 1].index(word) + 1
    assert (line, column) in {(d.span.line, d.span.column) for d in raised.value.diagnostics
                              if d.message.startswith(message)}


def test_bots_play_the_game_out_on_both_engines_alike():
    model = load_text(LEDGER, "ledger.rules").model
    for players in (2, 3, 4):
        results = []
        for engine in ENGINES:
            game = new_game(compile_ruleset(model, players), seed=players, engine=engine)
            play_out(game, [RandomBot(random.Random(s)) for s in range(players)])
            results.append((game.state.totals, game.state.plays, game.view(0)["values"]))
        assert results[0] == results[1] and results[0][1] > 0


def test_the_terminal_shows_the_values_a_seat_sees(ledger3):
    from rich.console import Console

    from cardrules.cli.render import view_of

    game = position(ledger3, {"hand": {0: ["red1"], 1: ["blue3"], 2: ["red2"]}, "stock": STOCK}, values={"high": 2})
    console = Console(width=100, record=True)
    console.print(view_of(game.view(0), ledger3.model, ["human", "random", "random"]))
    assert "values: calls 0, high 2, lead red" in console.export_text()


REFILL = LEDGER.replace(
    "    draw 1 from stock to hand\n",
    "    then move all at random from pool to stock when count(stock) == 0\n    draw 1 from stock to hand\n",
).replace("count(stock) == 0 or passes", "passes")


@pytest.mark.parametrize("engine", ENGINES)
def test_an_effect_step_refills_the_empty_stock_from_the_pool_before_the_draw(engine):
    compiled = compile_ruleset(load_text(REFILL, "refill.rules").model, 3)
    game = position(
        compiled, {"hand": {0: ["red1"], 1: ["blue3"], 2: ["red2"]}, "pool": ["blue2"], "stock": []}, engine=engine
    )
    game.apply("drop red1")
    assert faces(game, "pool") == [] and len(faces(game, "stock")) == 1
    assert sorted(faces(game, "hand", 0) + faces(game, "stock")) == ["blue2", "red1"]
    game.apply("drop blue3")  # the stock holds a card: the step is skipped
    assert faces(game, "pool") == ["blue3"] and faces(game, "stock") == []
