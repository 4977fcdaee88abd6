"""The classic families written with issue 17's blocks: Go Fish (fishing) and Whist (trick
taking). Each checks clean (`--strict`), passes its scenarios (tests/test_codegen.py runs them
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

CLASSICS = ("go_fish", "whist")


@pytest.mark.parametrize("name", CLASSICS)
def test_a_classic_checks_clean_under_strict(name):
    result = cli("check", str(RULESETS / f"{name}.rules"), "--strict", "--json")
    assert result.code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["provenance"]["none"] == 0 and summary["unbacked"] == []


@pytest.mark.parametrize("name, players, games, params", [
    ("go_fish", 2, 100, None), ("go_fish", 4, 100, None), ("go_fish", 6, 60, None),
    ("whist", 4, 150, {"target_points": 1}), ("whist", 4, 30, None)])
def test_random_matches_keep_every_invariant(name, players, games, params):
    checker = Checker()
    stats = run(compile_ruleset(load(str(RULESETS / f"{name}.rules")).model, players, params), games, seed=players,
                invariants=checker)
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
