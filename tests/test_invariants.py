"""The engine's invariants: the shipped rulesets keep them over hundreds of random matches, and
each one fails, with its own message, when a state, a view or the moves are broken on purpose."""
from __future__ import annotations

import json
import random

import pytest

from cardrules.interpreter.bots import RandomBot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.invariants import Checker, check
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.notation import Move
from cardrules.interpreter.selfplay import run

from .conftest import REPO, RULESETS, cli
from .helpers import LOOP, TEXTS

KLATS = str(RULESETS / "klats.rules")
EXAMPLES = REPO / "docs" / "examples"
TIMING = {"wall_seconds", "games_per_second"}


FILES = {"klats": KLATS, "crazy_eights": EXAMPLES / "crazy_eights.rules", "sevens": EXAMPLES / "sevens.rules"}


def compiled(name: str, players: int):
    model = load(str(FILES[name])).model if name in FILES else load_text(TEXTS[name], f"{name}.rules").model
    return compile_ruleset(model, players)


@pytest.fixture(scope="module")
def klats3(klats):
    return compile_ruleset(klats.model, 3)


@pytest.fixture
def game(klats3):
    """A Klats match for 3 a few actions in: rows with piles, hands, a draw pile."""
    game = Game(klats3, seed=7)
    bot = RandomBot(random.Random(7))
    for _ in range(12):
        game.play(bot.choose(game))
    assert check(game) == []
    return game


def zone(game: Game, name: str):
    return game.state.zones[game.c.zone_index[name]]


def face(game: Game, card: int) -> str:
    return game.c.faces[game.c.face_of[card]]


# ------------------------------------------------------------------ the rulesets keep them


@pytest.mark.parametrize("name, players, games", [
    ("klats", 2, 30), ("klats", 3, 24), ("klats", 4, 16),
    ("crazy_eights", 2, 20), ("crazy_eights", 3, 20), ("crazy_eights", 5, 20),
    ("sevens", 3, 20), ("sevens", 7, 20),
    ("windows", 3, 30), ("windows", 4, 20), ("pickpocket", 2, 40), ("pickpocket", 4, 40),
])
def test_random_matches_keep_every_invariant(name, players, games):
    checker = Checker()
    stats = run(compiled(name, players), games, seed=players, invariants=checker)
    assert checker.failures == []
    assert checker.matches == games and stats.games == games
    assert checker.checked_actions >= stats.mean_moves * games  # every play, and window passes too


def test_checking_plays_the_very_same_matches(klats3):
    def figures(stats):
        return {k: v for k, v in vars(stats).items() if k not in TIMING}

    assert figures(run(klats3, 6, seed=3, invariants=Checker())) == figures(run(klats3, 6, seed=3))


def test_window_passes_are_checked_actions_too():
    checker = Checker()
    stats = run(compiled("windows", 3), 5, seed=1, invariants=checker)
    assert checker.failures == [] and checker.checked_actions > stats.mean_moves * 5


# ------------------------------------------------------------------ every card in one place, conserved


def test_a_card_in_two_places(game):
    card = zone(game, "hand")[1][0]
    zone(game, "draw").append(card)
    assert check(game) == [
        f"every card in one place, after action 12: card {card} ({face(game, card)}) is in draw and in hand of "
        "seat 1",
        "cards conserved, after action 12: the zones hold 91 cards, the deck has 90",
    ]


def test_a_card_in_two_piles(game):
    row = zone(game, "row")
    seat, pile = next((s, p) for s, piles in enumerate(row) for p in range(len(piles)))
    card = row[seat][pile][-1]
    row[seat].append([card])
    failures = check(game, action=5)
    assert failures[0] == (f"every card in one place, after action 5: card {card} ({face(game, card)}) is in row of "
                           f"seat {seat}, pile {pile} and in row of seat {seat}, pile {len(row[seat]) - 1}")


def test_a_lost_card(game):
    card = zone(game, "draw").pop(0)
    assert check(game) == [
        f"every card in one place, after action 12: 1 of the deck's cards lie in no zone: card {card} "
        f"({face(game, card)})",
        "cards conserved, after action 12: the zones hold 89 cards, the deck has 90",
    ]


def test_a_card_that_is_not_of_the_deck(game):
    draw = zone(game, "draw")
    lost = draw[0]
    draw[0] = 90
    assert check(game) == [
        "every card in one place, after action 12: 90 in draw is not a card of the deck (ids 0 to 89)",
        f"every card in one place, after action 12: 1 of the deck's cards lie in no zone: card {lost} "
        f"({face(game, lost)})",
    ]


def test_an_empty_pile(game):
    row = zone(game, "row")
    row[2].append([])
    assert check(game) == [f"no empty pile, after action 12: row of seat 2, pile {len(row[2]) - 1} is empty"]


# ------------------------------------------------------------------ hidden cards stay hidden


def leaky(monkeypatch, game: Game, change) -> None:
    """Make `game.view` pass each view through `change(seat, view)` first."""
    real = game.view

    def view(seat: int) -> dict:
        v = real(seat)
        change(seat, v)
        return v

    monkeypatch.setattr(game, "view", view)


def test_a_view_that_shows_another_seats_hand(monkeypatch, game):
    hands = zone(game, "hand")
    faces = [[face(game, c) for c in hand] for hand in hands]

    def show_all(seat, v):
        v["zones"]["hand"] = faces

    leaky(monkeypatch, game, show_all)
    failures = check(game)
    assert len(failures) == 6  # each of 3 seats sees the 2 hands of the others
    assert failures[0] == ("hidden cards stay hidden, after action 12: seat 0's view of hand of seat 1 (owner) "
                           f"shows {faces[1]!r}, where only counts may stand")


def test_a_view_with_a_wrong_count(monkeypatch, game):
    draw = len(zone(game, "draw"))

    def miscount(seat, v):
        if seat == 2:
            v["zones"]["draw"] = {"count": draw + 1}

    leaky(monkeypatch, game, miscount)
    assert check(game) == [f"hidden cards stay hidden, after action 12: seat 2's view of draw (hidden) says it "
                           f"holds {draw + 1} cards; it holds {draw}"]


def test_a_view_that_hides_a_public_zone(monkeypatch, game):
    row = zone(game, "row")
    piles = [[face(game, c) for c in pile] for pile in row[0]]

    def hide(seat, v):
        if seat == 1:
            v["zones"]["row"][0] = {"count": sum(map(len, row[0]))}

    leaky(monkeypatch, game, hide)
    assert check(game) == [f"hidden cards stay hidden, after action 12: seat 1's view of row of seat 0 (public) "
                           f"shows {{'count': {sum(map(len, row[0]))}}}; it holds {piles!r}"]


def test_a_view_that_names_a_hidden_card_elsewhere(monkeypatch, game):
    secret = face(game, zone(game, "draw")[-1])

    def whisper(seat, v):
        v["next_draw"] = secret

    leaky(monkeypatch, game, whisper)
    assert check(game)[0] == ("hidden cards stay hidden, after action 12: "
                              f"seat 0's view shows {secret} outside its zones")


def test_a_rule_name_that_is_also_a_face_is_no_leak(monkeypatch):
    game = Game(compiled("windows", 2), seed=1)  # `jump` is a play and a face
    leaky(monkeypatch, game, lambda seat, v: v.update(played="jump"))
    assert check(game) == []
    leaky(monkeypatch, game, lambda seat, v: v.update(played="N3"))
    assert check(game)[0] == "hidden cards stay hidden, after action 0: seat 0's view shows N3 outside its zones"


def test_another_count_format_that_shows_only_true_counts_passes(monkeypatch, game):
    def terse(seat, v):
        v["zones"]["draw"] = {"count": len(zone(game, "draw")), "shuffled": 1}

    leaky(monkeypatch, game, terse)
    assert check(game) == []


def test_after_a_failure_the_match_is_played_on_unchecked(monkeypatch, klats3):
    game = Game(klats3, seed=1)

    def leak(seat, v):
        v["zones"]["draw"] = [face(game, c) for c in zone(game, "draw")]

    leaky(monkeypatch, game, leak)
    checker = Checker()
    assert checker.play_out(game, [RandomBot(random.Random(1))] * 3) is True and game.over
    assert checker.checked_actions == 0 and len(checker.failures) == 3  # one per seat, after the deal only
    assert checker.failures[0].startswith(
        "match 1: hidden cards stay hidden, after action 0: seat 0's view of draw (hidden) shows ['")


# ------------------------------------------------------------------ the moves


def test_two_actions_that_read_the_same(monkeypatch, game):
    actions = game.actions()
    monkeypatch.setattr(game, "actions", lambda: [*actions, actions[0]])
    assert check(game) == [f"moves distinct, after action 12: two legal actions of seat {game.to_move} read "
                           f"'{game.move_of(actions[0])}'"]


def test_a_move_whose_text_does_not_parse(monkeypatch, game):
    first = game.actions()[0]
    real = game.move_of
    monkeypatch.setattr(game, "move_of", lambda a: real(a)._replace(seat=1000) if a is first else real(a))
    text = str(real(first)._replace(seat=1000))
    assert check(game) == [f"moves round-trip, after action 12: '{text}' does not parse: '{text.split()[-1]}' "
                           "is not a target"]


def test_a_move_whose_text_reads_as_another(monkeypatch, game):
    first = game.actions()[0]
    real = game.move_of
    monkeypatch.setattr(game, "move_of", lambda a: Move("PASS", "") if a is first else real(a))
    assert check(game) == ["moves round-trip, after action 12: 'PASS' parses to Move(play='pass', card='', seat=None, "
                           "pile=None), not Move(play='PASS', card='', seat=None, pile=None)"]


# ------------------------------------------------------------------ the match ends


def test_a_round_whose_plays_go_on_for_ever():
    checker = Checker()
    game = Game(compiled("loop", 2), seed=1)
    assert checker.play_out(game, [RandomBot(random.Random(1))] * 2) is False and not game.over
    assert checker.failures == ["match 1: the match ends, after action 80: round 1 has run 80 actions, the bound of "
                                "a round (10 x 4 cards x 2 seats): its plays go on and no 'end round' condition holds"]


def test_an_engine_error_is_a_failure():
    checker = Checker()
    game = Game(compiled("stall", 2), seed=2)
    assert checker.play_out(game, [RandomBot(random.Random(2))] * 2) is False
    [failure] = checker.failures
    assert failure.startswith("match 1: the match ends, after action ")
    assert ": the engine stopped: round 1 cannot end" in failure


def test_a_match_longer_than_the_cap(klats3):
    checker = Checker(max_actions=10)
    for seed in (1, 2):
        checker.play_out(Game(klats3, seed=seed), [RandomBot(random.Random(seed))] * 3)
    assert checker.failures == [f"match {k}: the match ends, after action 10: the match has run 10 actions, the most "
                                "it may" for k in (1, 2)]
    assert checker.checked_actions == 20


# ------------------------------------------------------------------ the command


def test_the_command_reports_the_invariants_in_json():
    result = cli("selfplay", KLATS, "-p", "3", "-g", "3", "-s", "4", "--check-invariants", "--json")
    assert result.code == 0, result.stderr
    checked = json.loads(result.stdout)
    invariants = checked.pop("invariants")
    assert invariants["failures"] == [] and invariants["checked_actions"] > 3 * 50
    plain = json.loads(cli("selfplay", KLATS, "-p", "3", "-g", "3", "-s", "4", "--json").stdout)
    assert "invariants" not in plain
    assert {k: v for k, v in checked.items() if k not in TIMING} == {k: v for k, v in plain.items() if k not in TIMING}


def test_the_command_says_all_hold_on_stderr():
    result = cli("selfplay", KLATS, "-p", "2", "-g", "2", "--check-invariants")
    assert result.code == 0
    assert "invariants: all hold (2 matches, " in result.stderr and "actions checked)" in result.stderr
    assert "invariants" not in result.stdout


def test_the_command_lists_failures_and_exits_1(tmp_path):
    rules = tmp_path / "loop.rules"
    rules.write_text(LOOP, encoding="utf-8")
    result = cli("selfplay", rules, "-p", "2", "-g", "2", "--check-invariants")
    assert result.code == 1
    assert "invariants: 2 failures (2 matches, 160 actions checked):" in result.stderr
    assert "  match 2: the match ends, after action 80: round 1 has run 80 actions" in result.stderr
    assert "out" in result.stdout  # the figures of what was played are still shown
    data = cli("selfplay", rules, "-p", "2", "-g", "2", "--check-invariants", "--json")
    assert data.code == 1 and len(json.loads(data.stdout)["invariants"]["failures"]) == 2


def test_workers_check_the_same_actions_and_number_failures_as_one_process():
    """A worker's failures name the match by its number in the run, not in the worker."""
    def checked(compiled, workers):
        checker = Checker()
        run(compiled, 6, seed=3, invariants=checker, workers=workers)
        return checker.matches, checker.checked_actions, checker.failures

    for name in ("windows", "loop"):
        alone = checked(compiled(name, 2), 1)
        assert checked(compiled(name, 2), 2) == alone
    assert [f.split(":")[0] for f in alone[2]] == [f"match {k}" for k in range(1, 7)]
