"""`card NAME`: what a card does, from the ruleset alone: the plays it is used in (first card or
`with`), when they may be made, what the table must also show, and every item's provenance.
Checked against the engine: a position where the card is legal, and random matches in which
every play made with a card is one that `describe` lists for it."""
from __future__ import annotations

import random

import pytest

from cardrules.interpreter.bots import RandomBot
from cardrules.interpreter.cards import FINAL, TURN, WINDOW, UnknownCard, describe
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load, load_text

from .conftest import RULESETS, cli, cli_process


@pytest.fixture(scope="module")
def arne():
    return compile_ruleset(load(str(RULESETS / "arne_92.rules")).model, 2)


def uses(compiled, name) -> dict[str, object]:
    return {use.play: use for use in describe(compiled, name).uses}


def test_zero_is_played_only_out_of_turn_and_in_the_final_round(arne):
    info = describe(arne, "zero")
    assert (info.name, info.kind, info.faces, info.copies) == ("zero", "zero", ("zero",), 5)
    assert ("type", "zero") in info.attributes and ("class", "black") in info.attributes
    assert info.provenance == "assumed: docs/rulings.md#composition-92: Big Fat Zero 5"
    [use] = info.uses
    assert (use.play, use.second, use.timing, use.condition) == ("zero", False, (WINDOW, FINAL), "")
    items = {item.text.split(" when ")[0]: item for item in use.items}
    assert items["card from hand where card.type == zero"].provenance == "001: Big Fat Zero Card"
    assert items["to row of any other seat"].provenance.startswith("ruling: docs/rulings.md#arne-differences: 92 Big")
    assert items["onto pile"].provenance.startswith("001: This card is played on any Value Card of an opponent")


def test_chameleon_is_the_second_card_of_pair(arne):
    [use] = describe(arne, "chameleon").uses
    assert (use.play, use.second, use.timing) == ("pair", True, (WINDOW, FINAL))
    assert [i.text for i in use.items[:2]] == [
        "card from hand where card.type == value or card.type == double or card.type == minus",
        "with cham from hand where cham.type == chameleon"]
    assert use.items[1].provenance == "001: The Chameleon Card is played WITH one of these cards"


def test_blue100_is_laid_by_a_blue_seat_discarded_and_paired(arne):
    found = uses(arne, "BLUE100")  # faces are matched in any case
    assert sorted(found) == ["discard", "lay", "pair"]
    assert found["lay"].condition == "blue == colour_of(self)"  # what the card leaves to the table
    assert found["lay"].timing == (TURN,) and found["discard"].condition == ""
    assert not found["pair"].second and found["pair"].timing == (WINDOW, FINAL)
    # the engine agrees: a seat whose badge is blue may lay it, a red one may not
    for badge, laid in (("blue", True), ("red", False)):
        game = Game(arne, 0, deal=False)
        game.set_position({"badge": {0: [badge], 1: ["green"]}, "hand": {0: ["blue100"], 1: ["green50"]},
                           "draw": ["yellow50", "yellow200"]})
        assert ("lay blue100 @0" in [str(m) for m in game.legal_moves(0)]) is laid


def test_a_condition_on_the_table_keeps_the_play_listed(arne):
    """Steal may take the top of the discard pile only when there is one; an empty pile at the
    start does not make the play disappear from what the card does."""
    found = uses(arne, "steal")
    assert sorted(found) == ["steal_pair", "steal_top"]
    assert found["steal_top"].condition == "count(discard) > 0"


def test_a_card_no_play_takes_and_a_kind_of_many_faces(arne):
    assert describe(arne, "blue").uses == ()  # a colour indicator: it goes to a badge, no play takes it
    kind = describe(arne, "v100")
    assert kind.faces == ("blue100", "green100", "red100", "yellow100") and kind.cards == 12
    assert ("colour", "blue/green/red/yellow") in kind.attributes
    assert kind.copies_provenance == "001: 100 points (3 qty)"
    assert uses(arne, "v100")["lay"].condition == "card.colour == colour_of(self)"
    assert sorted(uses(arne, "3x")) == ["discard", "triple"]


def test_klats_blue14_is_put(klats):
    info = describe(compile_ruleset(klats.model, 3), "blue14")
    assert (info.kind, info.copies, info.attributes) == ("skull", 2, (("colour", "blue"), ("value", "14")))
    [use] = info.uses
    assert (use.play, use.timing, use.condition) == ("put", (TURN,), "")
    assert [i.text for i in use.items] == [
        "card from hand", "to row of any seat", "new pile when count(piles(target)) < max_piles",
        "onto pile when top(pile).colour == card.colour",
        "then merge other in piles(target) where top(other).value == card.value into pile"]
    assert use.items[0].provenance == "003: Из карточек на руках игрок выбирает одну"


def test_an_unknown_name_says_what_is_close(arne):
    with pytest.raises(UnknownCard, match="no card or card kind is called 'zer0'") as caught:
        describe(arne, "zer0")
    assert caught.value.hint == "did you mean 'zero'?"


def test_every_play_random_matches_make_is_listed_for_its_cards():
    model = load(str(RULESETS / "arne_92.rules")).model
    made = set()
    for players in (2, 4):
        compiled = compile_ruleset(model, players)
        for seed in range(2):
            game, bot = Game(compiled, seed), RandomBot(random.Random(seed))
            while not game.over:
                action = bot.choose(game)
                move = game.move_of(action)
                if move.play != "pass":
                    made.add((move.play, move.card))
                game.play(action)
    assert len({play for play, _ in made}) >= 8  # enough of the plays were made to mean something
    for play, cards in made:
        for second, face in enumerate(cards.split("+")):
            assert any(u.play == play and u.second == bool(second) for u in describe(compiled, face).uses), (play, face)


SMALL = """
game "Small" { }
players 2..2
param limit = 3 in 1..9
attribute suit { red, black }
attribute rank in 1..9
card c { suit each  rank each  face "{suit}{rank}" }
zone stock shared hidden
zone hand per seat owner
zone table shared public piles
setup { shuffle deck into stock  deal 3 from stock to hand }
play start { card from hand  to table  new pile when card.rank == 7 }
play low {
    card from hand where if card.suit == red then card.rank <= limit else card.rank * 2 <= limit
    to table
    onto pile when card.suit == top(pile).suit
}
turn { play one of start, low or pass }
end round stuck when passes >= players
score s = count(hand of s)
match { until round >= 1  winner lowest  starter 0 }
"""


@pytest.mark.parametrize("face, plays", [("red7", ["start"]), ("red3", ["low"]), ("black1", ["low"]),
                                         ("black2", [])])
def test_the_cards_values_and_params_settle_filters_and_placements(face, plays):
    compiled = compile_ruleset(load_text(SMALL, "small.rules").model, 2)
    assert sorted(uses(compiled, face)) == plays
    assert all(use.condition == "" for use in describe(compiled, face).uses)  # the card alone decides these


def test_the_repl_answers_card_zero():
    done = cli_process("play", "arne_92", "--players", "3", "--seed", "1", input="card zero\nquit\n")
    assert done.code == 0, done.stderr
    out = done.stdout
    assert "seat 0> card zero\nzero · 5 copies · type zero, class black, points 0\n" in out
    assert "play zero · out of turn, in the final round" in out
    assert "• card from hand where card.type == zero" in out and "001: Big Fat Zero Card" in out
    assert "Traceback" not in out + done.stderr


def test_the_repl_lists_kinds_and_refuses_an_unknown_card():
    done = cli("play", "arne_92", "--players", "3", "--seed", "1", input="card\ncard zer0\nhelp\nquit\n")
    assert done.code == 0, done.stderr
    assert "chameleon  chameleon" in done.stdout and "v100       blue100 green100 red100 yellow100" in done.stdout
    assert "no card or card kind is called 'zer0'\n  hint: did you mean 'zero'?" in done.stderr
    assert "card NAME  what a card does" in done.stdout  # help
