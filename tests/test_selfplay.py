"""`cardrules selfplay`: its JSON, its determinism, its counts, and Klats under random play against
the hand-written reference engine in ../shared/bench (run as a subprocess, never imported)."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.selfplay import run

from .conftest import RULESETS, SHARED, STUCK, cli

KLATS = str(RULESETS / "klats.rules")
REFERENCE = SHARED / "bench" / "klats_reference.py"
TYPES = {"games": int, "players": int, "seed": int, "wall_seconds": float, "games_per_second": float,
         "mean_rounds": float, "sd_rounds": float, "mean_moves": float, "sd_moves": float,
         "mean_winning_total": float, "sd_winning_total": float, "wins_by_seat": list, "round_end_reasons": dict,
         "seats": list}
TIMING = {"wall_seconds", "games_per_second"}


def selfplay_json(*args: str) -> dict:
    result = cli("selfplay", KLATS, *args, "--json")
    assert result.code == 0, result.stderr
    return json.loads(result.stdout)


# ------------------------------------------------------------------ the command


def test_json_has_exactly_the_keys_and_types():
    data = selfplay_json("-p", "3", "-g", "4", "-s", "5")
    assert list(data) == list(TYPES)
    for key, kind in TYPES.items():
        assert type(data[key]) is kind, key
    assert (data["games"], data["players"], data["seed"]) == (4, 3, 5)
    assert len(data["wins_by_seat"]) == 3 and all(type(w) is int for w in data["wins_by_seat"])
    assert list(data["round_end_reasons"]) == ["six_piles", "cards_exhausted"]
    assert all(type(c) is int for c in data["round_end_reasons"].values())
    assert data["wall_seconds"] > 0 and data["games_per_second"] > 0


def test_same_seed_same_figures_other_seed_other_figures():
    first, again, other = (selfplay_json("-p", "4", "-g", "6", "-s", s) for s in ("11", "11", "12"))

    def figures(d):
        return {k: v for k, v in d.items() if k not in TIMING}

    assert figures(first) == figures(again)
    assert figures(first) != figures(other)


def test_counts_add_up(klats):
    """Tied winners each count a win; every round ends by exactly one condition."""
    stats = run(compile_ruleset(klats.model, 2, None), 30, 3)
    assert sum(stats.wins_by_seat) >= stats.games
    rounds = stats.mean_rounds * stats.games
    assert sum(stats.round_end_reasons.values()) == round(rounds) and abs(rounds - round(rounds)) < 1e-6
    assert stats.mean_moves > 0 and stats.mean_winning_total >= 150


def test_one_game_has_zero_sd_and_reports_progress(klats):
    done = []
    stats = run(compile_ruleset(klats.model, 3, None), 1, 9, done.append)
    assert done == [1]
    assert (stats.sd_rounds, stats.sd_moves, stats.sd_winning_total) == (0.0, 0.0, 0.0)
    assert sum(stats.wins_by_seat) >= 1


def test_params_change_the_game():
    data = selfplay_json("-p", "2", "-g", "3", "--param", "target_total=10")
    assert data["mean_rounds"] == 1.0  # every first round scores past 10, or no one scores at all
    assert data["mean_winning_total"] >= 10


def test_readable_table():
    result = cli("selfplay", "klats", "-p", "2", "-g", "3")
    assert result.code == 0 and result.stderr == ""
    for words in ("Klats: 3 matches, 2 random bots, seed 1", "rounds", "winning total", "six_piles",
                  "cards_exhausted", "matches/s"):
        assert words in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("-p", "3", "-g", "0"), "--games must be from 1 to 1,000,000, not 0"),
    (("-p", "3", "-g", "99999999999999999999"), "--games must be from 1 to 1,000,000, not 99,999,999,999,999,999,999"),
    (("-p", "9"), "2 to 6 players"),
    (("-p", "3", "--param", "target"), "NAME=NUMBER"),
    (("-g", "3"), "give --players N or --seats"),
    (("--seats", "ismcts,robot"), "unknown kind 'robot'"),
    (("--seats", "ismcts:fast,random"), "bad setting 'fast'"),
    (("--seats", "human,random"), "no person at the table"),
    (("-p", "3", "--seats", "random,greedy"), "--seats names 2 seats but --players is 3"),
])
def test_usage_errors_exit_2(args, message):
    result = cli("selfplay", KLATS, *args, "--json")
    assert result.code == 2 and result.stdout == ""
    assert message in result.stderr


def test_a_round_that_cannot_end_is_a_clear_error(tmp_path):
    path = tmp_path / "stuck.rules"
    path.write_text(STUCK, encoding="utf-8")
    result = cli("selfplay", str(path), "-p", "2", "--json")
    assert result.code == 1 and result.stdout == ""
    assert f"error: {path}: a match cannot go on: round 1 cannot end" in result.stderr and "hint:" in result.stderr


def test_a_missing_file_is_a_clear_error():
    result = cli("selfplay", "no/such.rules", "-p", "2")
    assert result.code == 1 and "cannot read the file" in result.stderr


# ------------------------------------------------------------------ Klats against the reference

GAMES = 150
SEED = 2024
FIGURES = (("mean_rounds", "sd_rounds", "mean_rounds", "sd_rounds"),
           ("mean_moves", "sd_moves", "mean_placements", "sd_placements"),
           ("mean_winning_total", "sd_winning_total", "mean_winning_total", "sd_winning_total"))


@pytest.fixture(scope="module")
def reference():
    """The reference's figures for a player count. Its five runs start at once and go on while
    ours play; each is read when first asked for."""
    if not REFERENCE.is_file():
        pytest.skip(f"the reference engine is not at {REFERENCE} (shared/ must sit beside the repo)")
    runs = {p: subprocess.Popen([sys.executable, str(REFERENCE), "--players", str(p), "--games", str(GAMES),
                                 "--seed", str(SEED)], stdout=subprocess.PIPE, text=True) for p in range(2, 7)}
    done = {}

    def figures(players: int) -> dict:
        if players not in done:
            out, _ = runs[players].communicate(timeout=120)
            assert runs[players].returncode == 0, f"the reference failed for {players} players"
            done[players] = json.loads(out)
        return done[players]

    yield figures
    for proc in runs.values():
        proc.kill()
        proc.communicate()


def _misfits(ours, ref: dict, games: int) -> list[str]:
    """The figures whose means differ by 4 combined standard errors or more."""
    out = []
    for mean, sd, ref_mean, ref_sd in FIGURES:
        se = math.sqrt(getattr(ours, sd) ** 2 / games + ref[ref_sd] ** 2 / games)
        diff = getattr(ours, mean) - ref[ref_mean]
        if abs(diff) >= 4 * se:
            out.append(f"{mean}: ours {getattr(ours, mean):.2f}, reference {ref[ref_mean]:.2f}, "
                       f"{diff / se:+.1f} SE")
    return out


@pytest.mark.parametrize("players", range(2, 7))
def test_klats_matches_the_reference(klats, reference, players):
    ours = run(compile_ruleset(klats.model, players, None), GAMES, SEED)
    ref = reference(players)
    assert (ref["games"], ref["players"]) == (GAMES, players)
    assert _misfits(ours, ref, GAMES) == []


def test_the_comparison_tells_another_rule_apart(klats, reference):
    """The same test at the same scale rejects Klats whose round ends at 5 piles, not 6: it can fail."""
    ours = run(compile_ruleset(klats.model, 3, {"max_piles": 5}), GAMES, SEED)
    assert _misfits(ours, reference(3), GAMES)
