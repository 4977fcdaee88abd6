"""The reserve: the out-of-turn plays that a ruleset's final turn may make until it passes, which
the ismcts seat keeps for that round, read from the rules alone."""
from __future__ import annotations

import random

import pytest

from cardrules.interpreter.bots import RandomBot, Table
from cardrules.interpreter.engine import Game
from cardrules.interpreter.ismcts import IsmctsBot
from cardrules.interpreter.reserve import kept_back, reserve
from cardrules.interpreter.worlds import public_flow

from .test_bots import compiled, seat_view


def names(c, indices) -> set[str]:
    return {c.plays[i].name for i in indices}


@pytest.mark.parametrize("name", ["klats", "go_fish", "hearts", "whist", "colour_rush"])
def test_a_ruleset_without_a_final_round_of_window_plays_keeps_nothing(name):
    assert reserve(compiled(name)) == frozenset()


def test_a_final_turn_that_plays_until_it_passes_keeps_every_play_it_offers():
    """ARNE Total, Russian edition: `may play any of` the black plays, stop and change left out."""
    c = compiled("arne_total@ru")
    assert names(c, reserve(c)) == {"minus200", "pair", "cham_on", "crash", "lock", "thief_top", "thief_pair"}


@pytest.mark.parametrize("name", ["arne_total@en", "arne_92", "arne_total@en+minimum"])
def test_a_final_turn_of_one_play_keeps_nothing(name):
    """`may play one of`: keeping one card for it was measured and won nothing overall."""
    c = compiled(name)
    assert c.final is not None and c.window is not None
    assert reserve(c) == frozenset()


class Hoarder(RandomBot):
    """Passes nine windows in ten, else plays at random: it meets the final round with black
    cards, where a random seat has spent them."""

    def choose(self, seen):
        actions = seen.actions()
        passes = [a for a in actions if a[0] is None]
        return passes[0] if passes and len(actions) > 1 and self.rng.random() < 0.9 else self.rng.choice(actions)


def windows(c, seat: int, seed: int, final: bool):
    """Positions of a match where `seat` (a `Hoarder`; the other seats random) answers a window
    (final: False) or plays a final turn (final: True), with the Table that kept its history."""
    game = Game(c, seed)
    bots = [(Hoarder if s == seat else RandomBot)(random.Random(seed + s)) for s in range(c.players)]
    table = Table(game, bots, watch=(seat,))
    while not game.over:
        st = game.state
        if game.to_move == seat and len(game.actions()) > 1 and (st.final_turns >= 0) == final and (
                final or st.window is not None):
            yield game, table
        table.play(table.choose())


def test_kept_plays_leave_the_windows_before_the_final_round_and_come_back_in_it():
    c = compiled("arne_total@ru")
    held = reserve(c)
    taken_out = offered_again = 0
    for final in (False, True):
        for seed in range(1, 6):
            for game, _ in windows(c, 0, seed, final):
                legal = game.actions()
                left = list(kept_back(held, public_flow(c, game.state), legal))
                if final:
                    assert left == list(legal)
                    offered_again += any(a[0] is not None and a[0].index in held for a in legal)
                else:
                    assert [a for a in legal if a[0] is None or a[0].index not in held] == left
                    assert any(a[0] is None for a in left)  # the pass stays
                    taken_out += len(left) < len(legal)
    assert taken_out > 0  # there were kept plays to take out
    assert offered_again > 0


def test_the_ismcts_seat_spends_its_reserve_in_the_final_round_not_before():
    """A whole match of the Russian edition: no kept play before the final round, and the seat
    meets that round with cards to play there."""
    c = compiled("arne_total@ru")
    held = reserve(c)
    before = during = 0
    for seed in (3, 4):
        game = Game(c, seed)
        table = Table(game, [IsmctsBot(random.Random(seed), iterations=10), RandomBot(random.Random(seed))])
        while not game.over:
            mover, final = game.to_move, game.state.final_turns >= 0
            action = table.choose()
            if mover == 0 and action[0] is not None and action[0].index in held:
                before += not final
                during += final
            table.play(action)
    assert before == 0
    assert during > 0


def test_the_seat_view_a_bot_is_given_reads_the_same_reserve():
    """`IsmctsBot` reads the reserve from the `SeatView` it is given: its choice is among the
    plays left once the reserve is kept back."""
    c = compiled("arne_total@ru")
    held = reserve(c)
    game, table = next((g, t) for g, t in windows(c, 0, 2, final=False)
                       if any(a[0] is not None and a[0].index in held for a in g.actions()))
    seen = seat_view(game, table, 0)
    action = IsmctsBot(random.Random(1), iterations=20).choose(seen)
    assert action[0] is None or action[0].index not in held
