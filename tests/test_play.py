"""`cardrules play`: whole matches through a pipe, a person's session with its mistakes and
commands, seat validation, logs written on the way out, and the seat view that must never show
another seat's hand."""
from __future__ import annotations

import io
import random
import re
import shlex

import pytest
from rich.console import Console

from cardrules.cli.render import moves_of, view_of
from cardrules.interpreter import gamelog
from cardrules.interpreter.bots import RandomBot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game

from .conftest import cli, cli_process


def text_of(renderable, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_bots_play_a_whole_match_through_a_pipe(klats):
    done = cli_process("play", "klats", "--seed", "3", "--seats", "random,random,random", input="")
    assert done.code == 0, done.stderr
    assert "seed 3" in done.stdout
    assert re.search(r"^seat 2 \(random\): put \w+ @\d", done.stdout, re.M)
    rounds = re.findall(r"^round (\d+) over after \d+ plays? \((\w+)\): ", done.stdout, re.M)
    # the same match, played by the engine here with the bots seeded as the command seeds them:
    # from the seed, the seat and the number of moves before, so that a resumed game goes on alike
    game = Game(compile_ruleset(klats.model, 3, {}), 3)
    moves = 0
    while not game.over:
        game.play(RandomBot(random.Random(f"3:{game.to_move}:{moves}")).choose(game))
        moves += 1
    assert [(int(n), reason) for n, reason in rounds] == [(r.round + 1, r.reason) for r in game.state.results]
    winner = game.winners()[0]
    assert f"match over after {len(game.state.results)} rounds: seat {winner} (random) wins with " \
           f"{game.state.totals[winner]}" in done.stdout


def test_the_briefs_pipe_example_ends_cleanly():
    done = cli_process("play", "klats", "--seed", "3", input="1\n2\nquit\n")
    assert done.code == 0, done.stderr
    assert "seat 0> 1\nseat 0 (human): put orange1 @0" in done.stdout
    assert "game stopped (quit) after" in done.stdout


def test_a_persons_session_with_mistakes_and_commands(klats, tmp_path):
    # two people (hot-seat), so no bot's choice decides what is legal for seat 1
    game = Game(compile_ruleset(klats.model, 2, {}), 3)
    first = game.legal_moves(0)[0]
    game.apply(first)
    hand = game.view(1)["zones"]["hand"][1]
    typed = str(game.legal_moves(1)[-1])
    stranger = next(f for f in hand if not f.startswith(first.card.rstrip("0123456789")))
    log = tmp_path / "game.json"
    session = "\n".join([
        "1",  # seat 0 by number
        "help",
        f"{stranger} @0/7x",  # not a target
        "put grean3 @0",  # no such card
        f"put {stranger} @0/0",  # onto a pile whose top is another colour
        f"why put {stranger} @0/0",
        "why 1",
        "42",
        typed,  # seat 1 by its text
        "quit",
    ]) + "\n"
    done = cli("play", "klats", "--seed", "3", "--seats", "human,human", "--log", log, input=session)
    assert done.code == 0, done.stderr
    out, err = done.stdout, " ".join(done.stderr.split())  # long messages wrap at 80 columns
    assert f"seat 0> 1\nseat 0 (human): {first}" in out
    assert "seat 1: your turn" in out
    assert "why MOVE" in out and "which rule forbids" in out  # help
    assert "'@0/7x' is not a target" in err
    assert "no card is called 'grean3'" in err
    assert f"{stranger} may not go onto pile 0: the rule is `top(pile).colour == card.colour` (003:" in err
    assert f"put {stranger} @0/0: {stranger} may not go onto pile 0: the rule is" in " ".join(out.split())
    assert f"{game.legal_moves(1)[0]} is legal now" in out  # why 1
    assert f"there is no move 42: the moves are numbered 1 to {len(game.legal_moves(1))}" in err
    assert f"seat 1 (human): {typed}" in out
    assert "game stopped (quit) after 2 moves" in out
    assert "Traceback" not in out + err
    record = gamelog.read(log)
    assert record.moves == (str(first), typed) and record.result is None
    assert record.seats == ("human", "human") and record.seed == 3


def test_end_of_input_stops_the_game_cleanly(tmp_path):
    done = cli("play", "klats", "--seed", "4", "--log", tmp_path / "g.json", input="1\n")
    assert done.code == 0, done.stderr
    assert "game stopped (end of input) after" in done.stdout
    assert gamelog.read(tmp_path / "g.json").result is None


def test_the_seats_nobody_names_go_to_the_searching_bot(tmp_path):
    """Without --seats a person plays seat 0 against ismcts bots (random puts its best cards in the
    person's row): the log records them, and the same seed plays the same match again."""
    done = cli("play", "klats", "-p", "3", "--seed", "4", "--log", tmp_path / "g.json", input="1\n1\n")
    assert done.code == 0, done.stderr
    assert "Klats: 3 players (human, ismcts, ismcts)" in done.stdout
    assert all(re.search(rf"^seat {seat} \(ismcts\): ", done.stdout, re.M) for seat in (1, 2))
    assert gamelog.read(tmp_path / "g.json").seats == ("human", "ismcts", "ismcts")
    again = cli("play", "klats", "-p", "3", "--seed", "4", input="1\n1\n")
    moves = re.compile(r"^seat \d \(\w+\): .*$", re.M)
    assert moves.findall(again.stdout) == moves.findall(done.stdout)


def test_a_default_seed_is_chosen_and_printed():
    done = cli("play", "klats", "--seats", "random,random")
    assert done.code == 0
    command = re.search(r"play it again: (cardrules play .*?--seed \d+)", " ".join(done.stdout.split())).group(1)
    assert "--seats random,random" in command
    again = cli(*shlex.split(command)[1:])  # the command printed plays the same match again
    assert again.stdout == done.stdout


@pytest.mark.parametrize("args, message", [
    (["--seats", "human,robot"], "unknown kind 'robot'"),
    (["-p", "3", "--seats", "human,random"], "--seats names 2 seats but --players is 3"),
    (["-p", "9"], "for 2 to 6 players, not 9"),
    (["--param", "target"], "is not NAME=NUMBER"),
])
def test_bad_options_are_usage_errors(args, message):
    done = cli("play", "klats", *args)
    assert done.code == 2
    assert message in done.stderr and "hint:" in done.stderr


def test_the_view_never_shows_another_seats_hand(klats):
    compiled = compile_ruleset(klats.model, 4, {})
    for seed in range(6):
        game = Game(compiled, seed)
        bot = RandomBot(random.Random(seed))
        for _ in range(seed * 3):
            game.play(bot.choose(game))
        hand, row = compiled.zone_index["hand"], compiled.zone_index["row"]
        faces = compiled.faces
        for seat in range(4):
            shown = text_of(view_of(game.view(seat), klats.model, ["human"] * 4))
            words = set(re.findall(r"[a-z]+\d+", shown))
            mine = {faces[compiled.face_of[c]] for c in game.state.zones[hand][seat]}
            public = {faces[compiled.face_of[c]] for r in game.state.zones[row] for pile in r for c in pile}
            assert mine <= words
            others = {faces[compiled.face_of[c]] for s in range(4) if s != seat for c in game.state.zones[hand][s]}
            assert not (others - mine - public) & words, (seed, seat)
            assert f"{len(game.state.zones[hand][(seat + 1) % 4])} card" in shown
            assert max(map(len, shown.splitlines())) <= 80


def test_moves_are_numbered_in_order_and_read_back_as_notation(klats):
    game = Game(compile_ruleset(klats.model, 3, {}), 1)
    moves = game.legal_moves(game.to_move)
    shown = text_of(moves_of(moves))
    for number, move in enumerate(moves, 1):
        line = next(line for line in shown.splitlines() if line.startswith(f"{move.play} {move.card} "))
        assert re.search(rf"(?<!\d){number} @{move.seat}(?![/\d])", line), (move, line)
