"""The classic families written with issue 17's blocks: Go Fish (fishing), Whist (trick
taking) Hearts (trick taking), Colour Rush (shedding with
choices) and Rummy (melding). Each checks clean (`--strict`), passes its scenarios (tests/test_codegen.py runs them
on both engines, and holds the engines equal on them), and plays a few hundred random matches
with every invariant checked; the figures `selfplay` reports mean what the issue says."""
from __future__ import annotations

import json

import pytest

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load
from cardrules.interpreter.selfplay import run

from .conftest import RULESETS, cli

CLASSICS = ("go_fish", "whist", "colour_rush", "hearts", "rummy")


@pytest.mark.parametrize("name", CLASSICS)
def test_a_classic_checks_clean_under_strict(name):
    result = cli("check", str(RULESETS / f"{name}.rules"), "--strict", "--json")
    assert result.code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["provenance"]["none"] == 0 and summary["unbacked"] == []


@pytest.mark.parametrize("name, players, games, params", [
    ("go_fish", 2, 100, None), ("go_fish", 4, 100, None), ("go_fish", 6, 60, None),
    ("whist", 4, 150, {"target_points": 1}), ("whist", 4, 30, None),
    ("colour_rush", 2, 80, {"target_points": 1}), ("colour_rush", 5, 60, {"target_points": 1}),
    ("colour_rush@+stacking", 3, 80, {"target_points": 1}), ("colour_rush", 3, 2, None),
    ("hearts", 4, 60, {"target_points": 1}), ("hearts", 4, 6, None),
    ("rummy", 2, 60, {"target_points": 1}), ("rummy@+must_use", 4, 60, {"target_points": 1}),
    ("rummy", 6, 40, {"target_points": 1})])
def test_random_matches_keep_every_invariant(name, players, games, params):
    checker = Checker()
    name, _, variant = name.partition("@+")
    model = load(str(RULESETS / f"{name}.rules"), variants=(variant,) if variant else ()).model
    stats = run(compile_ruleset(model, players, params), games, seed=players, invariants=checker)
    assert checker.failures == [] and checker.matches == games and stats.games == games


def test_go_fish_moves_are_asks_and_the_winning_total_is_the_winners_books():
    compiled = compile_ruleset(load(str(RULESETS / "go_fish.rules")).model, 3)
    matches = []
    stats = run(compiled, 40, seed=7, record=matches.append)
    asks = [len(m.moves) for m in matches]
    assert all(move.startswith("ask ") for m in matches for move in m.moves)  # the only decision is an ask
    assert stats.mean_moves == pytest.approx(sum(asks) / len(asks))
    assert all(sum(m.totals) == 13 for m in matches)  # 13 books, each a point
    assert stats.mean_winning_total == pytest.approx(sum(max(m.totals) for m in matches) / len(matches))


def test_whist_with_one_target_point_is_one_deal_won_by_a_side():
    compiled = compile_ruleset(load(str(RULESETS / "whist.rules")).model, 4, {"target_points": 1})
    matches = []
    stats = run(compiled, 30, seed=3, record=matches.append)
    assert stats.mean_rounds == 1
    for m in matches:
        assert len(m.moves) == 52 and m.totals[2:] == (0, 0)  # a side scores at its first seat
        assert sorted(m.winners) in ([0, 2], [1, 3]) and max(m.totals[:2]) >= 1


@pytest.mark.parametrize("variants", [(), ("stacking",)])
def test_colour_rush_rounds_end_with_a_seat_out_and_a_wild_card_is_followed_by_its_call(variants):
    compiled = compile_ruleset(load(str(RULESETS / "colour_rush.rules"), variants=variants).model, 4,
                               {"target_points": 1})
    matches = []
    stats = run(compiled, 30, seed=11, record=matches.append)
    assert stats.round_end_reasons.get("out") == 30  # random play always finishes a round
    for m in matches:
        assert sum(1 for t in m.totals if t > 0) == 1 and min(m.totals) == 0  # the one seat out scores
        laid = [k for k, move in enumerate(m.moves) if move.split()[1:2] in (["wild"], ["wild4"])]
        assert all(m.moves[k + 1].startswith("call ") for k in laid if k + 1 < len(m.moves))


def test_hearts_deals_hand_out_every_penalty_point_and_the_lowest_total_wins():
    compiled = compile_ruleset(load(str(RULESETS / "hearts.rules")).model, 4, {"target_points": 1})
    matches = []
    stats = run(compiled, 40, seed=5, record=matches.append)
    assert stats.mean_rounds == 1
    for m in matches:
        assert sum(1 for move in m.moves if move.startswith("give ")) == 12  # three cards a seat, to the left
        assert sum(1 for move in m.moves if move.startswith("lay ")) == 52
        assert sum(m.totals) in (26, 78)  # 13 hearts and the queen's 13; or a moon shot: 26 to each other seat
        assert list(m.winners) == [s for s, t in enumerate(m.totals) if t == min(m.totals)]


@pytest.mark.parametrize("variants", [(), ("must_use",)])
def test_rummy_melds_are_three_or_more_and_a_seat_out_scores_what_the_others_hold(variants):
    compiled = compile_ruleset(load(str(RULESETS / "rummy.rules"), variants=variants).model, 3, {"target_points": 1})
    matches = []
    run(compiled, 40, seed=9, record=matches.append)
    melds = [move.split()[1].split("+") for m in matches for move in m.moves if move.split()[0] in ("group", "run")]
    assert melds and all(len(faces) >= 3 for faces in melds)
    for m in matches:
        assert sum(1 for t in m.totals if t > 0) <= 1  # only a seat that went out scores
