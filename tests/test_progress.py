"""Matches that cannot end are told early, naming the `until` or `end round` that never holds,
instead of running 10,000 rounds (or for ever); matches that do end are never cut."""
from __future__ import annotations

import random

import pytest

from cardrules.interpreter import model as m
from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import EngineError, Game
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load_text
from cardrules.interpreter.progress import ROUND_FACTOR, STILL_ROUNDS

from .conftest import cli

# Each seat plays its two cards to the heap; the round ends when a hand is empty. What it scores
# and when the match ends are filled in.
HEAP = """\
game "Heap" { }
players 2..2
attribute rank in 1..9
card plain { rank each  face "r{rank}" }
zone stock shared hidden
zone heap shared public
zone hand per seat owner
setup {
    shuffle deck into stock
    deal 2 from stock to hand
}
play put { card from hand  to heap }
turn { play one of put or pass }
end round out when some s in seats: count(hand of s) == 0
score s = SCORE
match {
    until UNTIL
    winner highest
}
"""

# Every turn puts a card back on the stock and draws one: hands never empty, the round never ends.
LOOP = HEAP.replace("play put { card from hand  to heap }", "play put { card from hand  to stock }").replace(
    "turn { play one of put or pass }", "turn {\n    play one of put or pass\n    draw 1 from stock to hand\n}")


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


SCORE_LINE, UNTIL_LINE, LOOP_END_LINE = line_of(HEAP, "score"), line_of(HEAP, "until"), line_of(LOOP, "end round")


def ruleset(tmp_path, text: str, score: str = "0", until: str = "max(totals) >= 1"):
    path = tmp_path / "game.rules"
    path.write_text(text.replace("SCORE", score).replace("UNTIL", until), encoding="utf-8")
    return path


def test_a_score_that_never_changes_stops_the_match_after_its_first_round(tmp_path):
    done = cli("selfplay", ruleset(tmp_path, HEAP), "-p", "2", "-g", "5")
    assert done.code == 1 and done.stdout == ""
    assert (f"the match cannot end: `score s = 0` (line {SCORE_LINE}) scores nothing whatever the cards, "
            "so the totals stay [0, 0] "
            f"and `until max(totals) >= 1` (line {UNTIL_LINE}) never holds") in " ".join(done.stderr.split())
    assert "every round needs an `end round`" not in done.stderr and "hint: make the score read" in done.stderr


def test_rounds_that_score_nothing_stop_the_match_after_a_hundred(tmp_path):
    path = ruleset(tmp_path, HEAP, score="if count(hand of s) > 5 then 1 else 0")
    game = Game(compile_ruleset(load_text(path.read_text(), str(path)).model, 2), 1)
    with pytest.raises(EngineError) as caught:
        play_out(game, [RandomBot(random.Random(1))] * 2)
    assert len(game.state.results) == STILL_ROUNDS  # not MAX_ROUNDS
    assert f"the match is not ending: {STILL_ROUNDS} rounds in a row scored nothing (ended by: out {STILL_ROUNDS})" \
           in str(caught.value)
    assert f"`until max(totals) >= 1` (line {UNTIL_LINE}) never holds" in str(caught.value)
    assert caught.value.hint == f"check `score s = if count(hand of s) > 5 then 1 else 0` (line {SCORE_LINE}): " \
                                "it gives 0 at the end of these rounds"
    played = cli("play", path, "--seats", "random,random", "--seed", "3")
    assert played.code == 1 and "the ruleset cannot go on: the match is not ending" in played.stderr


def test_a_round_that_never_ends_is_stopped_with_its_end_round_conditions(tmp_path):
    """The bound is 10 plays per card of the deck (9) and per seat (2)."""
    path = ruleset(tmp_path, LOOP, until="round >= 1")
    done = cli("selfplay", path, "-p", "2", "-g", "3")
    assert done.code == 1
    said = " ".join(done.stderr.split())
    assert f"round 1 is not ending: {ROUND_FACTOR * 9 * 2 + 1} plays and no `end round` condition has held: " \
           f"`end round out when some s in seats: count(hand of s) == 0` (line {LOOP_END_LINE})" in said
    assert "hint: cards move but never so that a round ends" in said
    played = cli("play", path, "--seats", "random,random", "--seed", "3")
    assert played.code == 1 and f"round 1 is not ending: {ROUND_FACTOR * 9 * 2 + 1} plays" in played.stderr


def test_check_invariants_reports_a_match_that_cannot_end_as_a_failure_at_once(tmp_path):
    path = ruleset(tmp_path, HEAP)
    checker = Checker()
    game = Game(compile_ruleset(load_text(path.read_text(), str(path)).model, 2), 4)
    assert not checker.play_out(game, [RandomBot(random.Random(4))] * 2)
    assert len(game.state.results) == 1
    assert "the engine stopped: the match cannot end: `score s = 0`" in checker.failures[0]


def test_a_match_that_ends_after_many_rounds_that_score_nothing_is_not_cut(tmp_path):
    path = ruleset(tmp_path, HEAP, until=f"round >= {STILL_ROUNDS * 2}")
    game = Game(compile_ruleset(load_text(path.read_text(), str(path)).model, 2), 2)
    play_out(game, [RandomBot(random.Random(2))] * 2)
    assert game.over and len(game.state.results) == STILL_ROUNDS * 2


@pytest.mark.parametrize("until, names", [
    ("max(totals) >= goal", {"totals"}),
    ("some s in seats: max(totals) > index(s)", {"seats", "totals"}),
    ("round >= 2 or count(heap) == 0", {"round", m.ZONES}),
])
def test_names_read_counts_context_names_not_bound_ones(until, names):
    text = (HEAP.replace("SCORE", "0").replace("UNTIL", until)
            .replace("players 2..2", "players 2..2\nparam goal = 5 in 1..9"))
    assert m.names_read(load_text(text, "x.rules").model.match.until) == frozenset(names)


def test_a_round_where_every_seat_passes_and_nothing_changes_stops_after_a_cycle_even_at_the_size_limits(tmp_path):
    """20,000 cards, 9,990 in each hand, no card that may be played: the engine's budget of steps
    would run 80,000 passes over 10,000-card hands; a cycle of passes that changes nothing stops it."""
    text = (HEAP.replace("attribute rank in 1..9", "attribute rank in 1..1000")
            .replace('face "r{rank}" }', 'face "r{rank}"  copies 20 }')
            .replace("deal 2 from stock", "deal 9990 from stock")
            .replace("card from hand  to heap", "card from hand where card.rank > 1000  to heap"))
    done = cli("selfplay", ruleset(tmp_path, text), "-p", "2", "-g", "1")
    assert done.code == 1
    said = " ".join(done.stderr.split())
    assert "round 1 cannot end: every seat passes, nothing changes, and no `end round` condition holds: " \
           f"`end round out when some s in seats: count(hand of s) == 0` (line {line_of(HEAP, 'end round')})" in said
    assert "hint: every round needs an `end round` condition that the play can reach" in said


def test_a_rule_that_reads_passes_keeps_the_cycle_check_off(tmp_path):
    """`passes` grows with every pass, so a state that repeats otherwise may still end the round."""
    text = HEAP.replace("card from hand  to heap", "card from hand where card.rank > 9  to heap").replace(
        "end round out when some s in seats: count(hand of s) == 0", "end round out when passes >= 7")
    game = Game(compile_ruleset(load_text(text.replace("SCORE", "1").replace("UNTIL", "round >= 3"), "x.rules").model,
                                2), 1)
    assert game.over and [r.reason for r in game.state.results] == ["out"] * 3
