"""ARNE, the 92-card edition (001) under RULINGS.md: the ruleset checks clean, its scenarios show
every clause at work, random matches keep the engine's invariants and the game's own (scores
recounted by hand, what may lie on what), the REPL offers black cards out of turn, and a seat's
redacted log never shows another seat's hand."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from cardrules.interpreter import gamelog
from cardrules.interpreter.compile import ConfigError, compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load
from cardrules.interpreter.notation import IllegalMoveError
from cardrules.interpreter.scenarios import load_file, load_text, run
from cardrules.interpreter.selfplay import Match
from cardrules.interpreter.selfplay import run as selfplay

from .conftest import RULESETS, cli, cli_process

RULES = RULESETS / "arne_92.rules"
SCENARIOS = RULESETS / "arne_92.scenarios.yaml"
COLOURS = ("blue", "green", "red", "yellow")
VALUE = re.compile(r"^(blue|green|red|yellow)(50|100|200|500|1000)$")
DOUBLE = re.compile(r"^(blue|green|red|yellow)x2$")
MINUS = re.compile(r"^(blue|green|red|yellow)-200$")
ON_A_CARD = ("chameleon", "3x", "zero", "zap")  # what may lie on a card in a row


@pytest.fixture(scope="module")
def arne():
    return load(str(RULES))


@pytest.fixture(scope="module")
def scenario_file():
    return load_file(str(SCENARIOS))


def faces(game: Game, cards) -> list[str]:
    return [game.c.faces[game.c.face_of[c]] for c in cards]


def zone(game: Game, name: str):
    return game.state.zones[game.c.zone_index[name]]


# ------------------------------------------------------------------ the ruleset


def test_check_is_clean(arne):
    assert arne.warnings == ()
    done = cli("check", RULES, "--strict")
    assert done.code == 0, done.stderr
    assert done.stderr == ""
    assert "88 cards" in done.stdout and "last_black" in done.stdout


def test_the_deck_is_the_92_composition(arne):
    """RULINGS.md, ARNE 92: 4 indicators; per colour 50 x2, 100 x3, 200 x2, 500, 1000, x2 (001);
    Take 1, Get 2, Draw 3, 3x x4 each; chameleon 6, reverse 4, -200 1 per colour, Big Fat Zero 5,
    Zap 5, steal 4. 88 cards (001 counts 92 with its 4 quick-reference cards)."""
    c = compile_ruleset(arne.model, 3, {})
    deck = Counter(c.faces[f] for f in c.face_of)
    expected = Counter({"take1": 4, "get2": 4, "draw3": 4, "3x": 4, "chameleon": 6, "reverse": 4, "zero": 5,
                        "zap": 5, "steal": 4})
    for colour in COLOURS:
        expected.update({colour: 1, f"{colour}50": 2, f"{colour}100": 3, f"{colour}200": 2, f"{colour}500": 1,
                         f"{colour}1000": 1, f"{colour}x2": 1, f"{colour}-200": 1})
    assert deck == expected and c.deck_size == 88


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(arne, players):
    with pytest.raises(ConfigError, match="2 to 4 players"):
        compile_ruleset(arne.model, players, {})


@pytest.mark.parametrize("seed", range(8))
def test_two_players_play_without_one_spare_colour(arne, seed):
    """001: with 2 players, one set of Value Cards (10 cards) is removed; the ruleset removes the
    colour of an indicator nobody holds, and keeps that colour's -200."""
    game = Game(compile_ruleset(arne.model, 2, {}), seed)
    badges = {faces(game, b)[0] for b in zone(game, "badge")}
    box = Counter(faces(game, zone(game, "box")))
    spare = [f for f in box if f in COLOURS]
    assert len(spare) == 2 and not badges & set(spare)
    [gone] = {f[:-len(m.group(2))] for f in box if (m := VALUE.match(f))}
    assert gone in spare
    # the box holds no more: that colour's -200 stays in play
    assert box == Counter({**{s: 1 for s in spare}, f"{gone}50": 2, f"{gone}100": 3, f"{gone}200": 2,
                           f"{gone}500": 1, f"{gone}1000": 1, f"{gone}x2": 1})


# ------------------------------------------------------------------ the scenarios


def test_scenarios_pass_via_the_runner(scenario_file):
    outcomes = run(scenario_file)
    assert len(outcomes) >= 50
    assert [o.scenario.name for o in outcomes if not o.passed] == []


def test_every_play_and_clause_has_a_scenario_citing_its_source(arne, scenario_file):
    clauses = [s.clause for s in scenario_file.scenarios]
    assert all("001:" in c or "docs/rulings.md" in c for c in clauses)
    text = " | ".join(clauses)
    for play in arne.model.plays:
        assert f"play {play.name}:" in text or f"play {play.name} " in text, play.name
    for clause in ("players 2..4", "param hand_size", "setup:", "card indicator", "turn: draw 1 from draw to hand",
                   "or pass", "window", "final round last_black", "define pile_points", "define multiplier",
                   "score s =", "until round >= 1", "winner highest", "starter 0", "assumed:"):
        assert clause in text, clause


def test_scenarios_via_the_command(scenario_file):
    done = cli("scenarios", SCENARIOS)
    assert done.code == 0, done.stdout
    count = len(scenario_file.scenarios)
    assert done.stdout.splitlines()[-1].startswith(f"{count} scenarios: {count} passed, 0 failed (ARNE, ")
    assert done.stderr == ""


@pytest.mark.parametrize("old, new", [
    ("- expect: {active: 2, to_move: 2, zones: {hand: {2: [red50, red100]}}}",
     "- expect: {active: 1, to_move: 2, zones: {hand: {2: [red50, red100]}}}"),
    ("round_over: {reason: last_black, scores: [2600, 0, 0]}",
     "round_over: {reason: last_black, scores: [1300, 0, 0]}"),
    ("      - play: steal_top steal\n", "      - refuse: steal_top steal\n"),
    ("- play: reverse reverse\n        by: 2", "- play: reverse reverse\n        by: 1"),
])
def test_a_changed_expectation_fails(old, new):
    """The scenarios claim what they show: change one claim and its scenario fails."""
    text = SCENARIOS.read_text(encoding="utf-8")
    assert old in text
    outcomes = run(load_text(text.replace(old, new, 1), "changed.yaml", RULESETS))
    assert sum(not o.passed for o in outcomes) == 1


def test_an_illegal_play_in_a_window_is_a_located_failure():
    text = f"""ruleset: {RULES.as_posix()}
defaults: {{players: 3}}
scenarios:
  - name: probe
    clause: "play zero (001: Big Fat Zero)"
    position:
      zones:
        badge: {{0: [blue], 1: [green], 2: [red]}}
        hand: {{0: [zero, blue50], 1: [], 2: []}}
        row: {{1: [[green100]]}}
        draw: [yellow50]
      rest: box
    steps:
      - expect: {{to_move: 0, active: 0}}
      - play: zero zero @1/5
"""
    [outcome] = run(load_text(text, "probe.yaml"))
    [failure] = outcome.failures
    assert failure.span.line == 15
    assert "'zero zero @1/5' must be legal, but it is refused: seat 1's row has 1 pile" in failure.message


# ------------------------------------------------------------------ an engine bug, pinned


def position(arne, zones: dict) -> Game:
    game = Game(compile_ruleset(arne.model, 3, {}), 1, deal=False)
    game.set_position(zones, rest="box")
    return game


def test_an_illegal_move_in_a_window_is_refused(arne):
    game = position(arne, {"badge": {0: ["blue"], 1: ["green"], 2: ["red"]}, "hand": {0: ["zero", "blue50"]},
                           "row": {1: [["green100"]]}, "draw": ["yellow50"]})
    assert game.open_plays()[-1] == "pass"  # a response window is open
    with pytest.raises(IllegalMoveError, match="seat 1's row has 1 piles, numbered 0 to 0"):
        game.apply("zero zero @1/5")


# ------------------------------------------------------------------ random matches


def score(row: list[list[str]]) -> int:
    """RULINGS.md ARNE, recounted by hand: per value card its points, x3 with an x3, 0 when
    zeroed and not zapped; a -200 is -200, x3 with an x3, 0 when zapped; the sum times every
    x2 that is not zeroed (x6 with an x3 on it)."""
    total, multiplier = 0, 1
    for bottom, *on in row:
        times = 3 if "3x" in on else 1
        zeroed = "zero" in on and "zap" not in on
        if m := VALUE.match(bottom):
            total += 0 if zeroed else int(m.group(2)) * times
        elif MINUS.match(bottom):
            total += 0 if "zap" in on else -200 * times
        elif DOUBLE.match(bottom) and not zeroed:
            multiplier *= 2 * times
    return total * multiplier


def lies_right(row: list[list[str]], colour: str) -> list[str]:
    """What is wrong with one seat's row: each pile is a value card, an x2 or a -200 with at most
    one chameleon (right on it, and always when the card is not the row's colour), 3x, zero and zap;
    a zero only on a value card or x2, a zap only on a zero or a -200."""
    wrong = []
    for pile in row:
        bottom, on = pile[0], pile[1:]
        kind = next((k for k, r in (("value", VALUE), ("double", DOUBLE), ("minus", MINUS)) if r.match(bottom)), None)
        if kind is None or any(f not in ON_A_CARD for f in on) or len(set(on)) != len(on):
            wrong.append(f"{pile}: not a card with what may lie on it")
        elif (not bottom.startswith(colour) and "chameleon" not in on) or ("chameleon" in on and on[0] != "chameleon"):
            wrong.append(f"{pile}: a chameleon whenever the card is not {colour}, right on it")
        elif "zero" in on and kind == "minus" or "zap" in on and "zero" not in on and kind != "minus":
            wrong.append(f"{pile}: a zero on a -200, or a zap on nothing to cancel")
    return wrong


@pytest.mark.parametrize("players, games", [(2, 80), (3, 70), (4, 60)])
def test_random_matches_keep_every_invariant(arne, players, games):
    c = compile_ruleset(arne.model, players, {})
    checker, plays, problems = Checker(), Counter(), []

    def end(match: Match) -> None:
        game = match.game
        plays.update(m.split()[0] for m in match.moves)
        [result] = game.state.results
        for seat in range(players):
            row = [faces(game, pile) for pile in zone(game, "row")[seat]]
            colour = faces(game, zone(game, "badge")[seat])[0]
            problems.extend(lies_right(row, colour))
            if score(row) != result.scores[seat]:
                problems.append(f"seat {seat}: {row} scores {result.scores[seat]}, not {score(row)}")
        if zone(game, "draw"):
            problems.append("the match ended with cards in the draw pile")

    stats = selfplay(c, games, seed=players, invariants=checker, record=end)
    assert checker.failures == []
    assert problems == []
    assert checker.matches == games and stats.round_end_reasons == {"last_black": games}
    assert stats.mean_rounds == 1.0
    assert set(plays) == {p.name for p in arne.model.plays} | {"pass"}  # the bots tried every play


# ------------------------------------------------------------------ the REPL


def test_the_repl_offers_a_black_card_out_of_turn():
    moves = ["pass",  # the window after seat 0's own draw
             "lay red50 @0",  # its white card
             "pass",  # the window after it
             "pair yellow200+chameleon @0",  # seat 1's turn: a black card out of turn
             "pass"]
    done = cli_process("play", "arne_92", "--players", "3", "--seats", "human,random,random", "--seed", "107",
                       input="\n".join(moves) + "\n")
    assert done.code == 0, done.stderr
    assert "Traceback" not in done.stderr and "error" not in done.stderr
    lines = done.stdout.splitlines()
    said = [k for k, line in enumerate(lines) if line.startswith("seat 0 (human): ")]
    assert [lines[k].removeprefix("seat 0 (human): ") for k in said] == moves
    # before the pair: it is seat 1's turn, and seat 0 is asked, with the pair among its moves
    asked = max(k for k in range(said[3]) if lines[k].startswith("ARNE · round 1"))
    assert "· seat 1's turn · seat 0 may respond or pass (you) · now: you " in lines[asked]
    assert any(line.startswith("pair yellow200+chameleon") for line in lines[asked:said[3]])
    assert "seat 1 (random): " in "\n".join(lines[said[2]:said[3]])  # seat 1 had drawn and it was its turn
    assert lines[-1] == "game stopped (end of input) after 11 moves"


# ------------------------------------------------------------------ redacted logs


def test_a_redacted_log_never_shows_another_seats_hand(arne, tmp_path):
    """Move by move, each face in a seat's view is one it may see (its hand, the rows, badges and
    the discard pile) as many times as it lies there; every other hand, the draw pile and the box
    are counts. A Take 1 names no card: the moves read as in the full log."""
    path = tmp_path / "arne.jsonl"
    assert cli("selfplay", "arne_92", "--players", "3", "--games", "1", "--seed", "5", "--log", path).code == 0
    log = gamelog.read(path)
    compiled = compile_ruleset(arne.model, 3, log.params)
    truth = {}

    def snapshot(number, mover, text, game):
        public = Counter(faces(game, zone(game, "discard")))
        for seat in range(3):
            public.update(faces(game, zone(game, "badge")[seat]))
            public.update(f for pile in zone(game, "row")[seat] for f in faces(game, pile))
        hands = [faces(game, h) for h in zone(game, "hand")]
        truth[number] = (public, hands, len(zone(game, "draw")), len(zone(game, "box")))

    gamelog.replay(log, compiled, on_move=snapshot)
    assert any(m.startswith("take1 ") for m in log.moves) and len(log.moves) > 50
    for seat in range(3):
        done = cli("log", "redact", path, "--seat", seat)
        assert done.code == 0, done.stderr
        redacted = json.loads(done.stdout)
        assert [m["move"] for m in redacted["moves"]] == list(log.moves)
        for entry in redacted["moves"]:
            public, hands, draw, box = truth[entry["number"]]
            zones = entry["view"]["zones"]
            assert zones["draw"] == {"count": draw} and zones["box"] == {"count": box}
            assert zones["hand"][seat] == hands[seat]
            for other in {0, 1, 2} - {seat}:
                assert zones["hand"][other] == {"count": len(hands[other])}
            shown = Counter(s for s in _strings(zones) if s in compiled.face_index)
            assert shown == public + Counter(hands[seat]), entry["number"]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
