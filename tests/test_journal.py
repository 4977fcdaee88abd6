"""A game survives its process: `play --log` keeps a journal, a line a move, that a killed game
leaves readable; `replay` reads it as unfinished, `resume` goes on with it as the game would have
gone on; `undo` is a line of it; a second writer is refused; SIGTERM stops a game cleanly."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from cardrules.interpreter import gamelog, outputs

from .conftest import REPO, cli, waited

PLAY = ["play", "klats", "--seats", "human,random", "--seed", "5"]


def spawn(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
    return subprocess.Popen([sys.executable, "-m", "cardrules.cli.main", *map(str, args)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)


def wait_for_lines(path, count: int, timeout: float = 60) -> list[str]:
    """The journal's lines once it has at least `count` of them."""
    lines = waited(lambda: path.read_text().splitlines() if path.exists() else [],
                   lambda found: len(found) >= count, timeout, every=0.05)
    if len(lines) < count:
        raise AssertionError(f"{path} did not reach {count} lines")
    return lines


def moves_of(path) -> tuple[str, ...]:
    return gamelog.read(path).moves


def test_a_killed_game_leaves_a_journal_that_replays_and_resumes(tmp_path):
    log = tmp_path / "g.jsonl"
    game = spawn(*PLAY, "--log", log)
    game.stdin.write("1\n1\n1\n")  # three moves of seat 0, each answered by the bot
    game.stdin.flush()
    lines = wait_for_lines(log, 1 + 6)
    game.send_signal(signal.SIGKILL)  # no chance to write anything more
    game.communicate()
    assert game.returncode == -signal.SIGKILL
    assert json.loads(lines[0])["format"] == "cardrules-journal/1"
    assert [json.loads(line)["seat"] for line in lines[1:7]] == [0, 1, 0, 1, 0, 1]
    replayed = cli("replay", log)
    assert replayed.code == 0, replayed.stderr
    assert "6 moves replayed" in replayed.stdout
    assert f"the match is unfinished, as logged: round 1, seat 0 to move; `cardrules resume {log}`" in replayed.stdout
    resumed = cli("resume", log, input="1\nquit\n")
    assert resumed.code == 0, resumed.stderr
    assert "resumed after 6 moves" in resumed.stdout and "game stopped (quit) after 8 moves" in resumed.stdout
    assert len(moves_of(log)) == 8 and moves_of(log)[:6] == tuple(json.loads(x)["move"] for x in lines[1:7])


def test_a_torn_last_line_is_left_out_with_a_note_and_resume_cuts_it(tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli(*PLAY, "--log", log, input="1\n1\nquit\n").code == 0
    whole = log.read_bytes()
    with open(log, "ab") as f:
        f.write(b'{"seat":0,"move":"put ora')  # the process died in the middle of this write
    replayed = cli("replay", log)
    assert replayed.code == 0, replayed.stderr
    assert f"note: {log}:6: the last line is incomplete" in replayed.stderr and "4 moves replayed" in replayed.stdout
    assert cli("resume", log, input="quit\n").code == 0
    assert log.read_bytes() == whole  # the torn line is gone, nothing else changed


def test_resume_goes_on_as_the_uninterrupted_game(tmp_path):
    """Three moves, a stop, a resume and three more give the journal of six moves in one run."""
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    straight = cli(*PLAY, "--log", whole, input="1\n" * 6 + "quit\n")
    assert straight.code == 0, straight.stderr
    assert cli(*PLAY, "--log", split, input="1\n" * 3 + "quit\n").code == 0
    resumed = cli("resume", split, input="1\n" * 3 + "quit\n")
    assert resumed.code == 0, resumed.stderr
    assert len(moves_of(whole)) == 12 and moves_of(split) == moves_of(whole)
    last = [line for line in straight.stdout.splitlines() if line.startswith("seat ")][-8:]
    assert last == [line for line in resumed.stdout.splitlines() if line.startswith("seat ")][-8:]


def test_undo_takes_back_a_move_and_the_bots_answer_in_the_repl_and_the_journal(tmp_path):
    log = tmp_path / "g.jsonl"
    done = cli(*PLAY, "--log", log, input="1\n1\nundo\n2\nundo\nundo\nundo\n1\nquit\n")
    assert done.code == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith(("seat 0 (", "seat 1 (", "took back"))]
    first, answer, second, answer2 = said[0], said[1], said[2], said[3]
    assert said[4] == f"took back 2 moves: {second.split(': ', 1)[1]}, {answer2.split(': ', 1)[1]}"
    assert said[5].startswith("seat 0 (human): ") and said[5] != second  # the second move in the list, this time
    assert said[7].startswith("took back 2 moves: ") and said[8].startswith("took back 2 moves: ")
    assert "nothing to undo: no person has moved yet" in done.stderr
    assert said[9:11] == [first, answer]  # the same move, the same answer: bots choose by seed, seat and move number
    records = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert [r.get("undo") for r in records if "undo" in r] == [2, 2, 2]
    assert moves_of(log) == tuple(s.split(": ", 1)[1] for s in said[9:11])
    replayed = cli("replay", log)
    assert replayed.code == 0 and "note: 6 moves taken back (undo)" in replayed.stderr
    assert cli("resume", log, input="undo\nquit\n").code == 0
    assert moves_of(log) == ()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_a_game_cleanly(tmp_path, stop):
    log = tmp_path / "g.jsonl"
    game = spawn(*PLAY, "--log", log)
    game.stdin.write("1\n")
    game.stdin.flush()
    wait_for_lines(log, 3)
    game.send_signal(stop)
    out, err = game.communicate(timeout=60)
    assert game.returncode == 128 + stop, err
    assert f"game stopped ({stop.name}) after 2 moves" in out and "Traceback" not in err
    assert f"`cardrules resume {log}` goes on with it" in out
    assert len(moves_of(log)) == 2


def test_a_second_writer_of_a_journal_is_refused(tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli(*PLAY, "--log", log, input="1\nquit\n").code == 0
    before = log.read_text()
    holder = outputs.Journal(log)  # another process's lock: flock locks are per open file
    try:
        done = cli(*PLAY, "--log", log, input="quit\n")
        assert done.code == 1
        assert f"{log} is being written by another cardrules process" in done.stderr
        resumed = cli("resume", log)
        assert resumed.code == 1 and "is being written by another" in resumed.stderr
        selfplay = cli("selfplay", "klats", "-p", "2", "-g", "2", "--log", log)
        assert selfplay.code == 1 and "the finished file is kept as" in selfplay.stderr
        kept = selfplay.stderr.split("kept as ", 1)[1].split()[0].rstrip(";")
        assert len((tmp_path / os.path.basename(kept)).read_text().splitlines()) == 2
    finally:
        holder.close()
    assert log.read_text() == before


@pytest.mark.parametrize("lines, message", [
    (['{"undo":3}'], ":4:1: 'undo' takes back 1 to 2 moves (those before it), not 3"),
    (['{"seat":0}'], ':4:1: a journal line holds "move", "undo" or "result"'),
    (['{"move":7}'], ":4:1: a journal line holds a move as a string, not an integer"),
    (['{"result":{"totals":[1],"winners":[0],"rounds":1}}', '{"move":"pass"}'],
     ":5:1: a line after the result: the match was over"),
    (["[1]"], ":4:1: a journal line is a JSON object, not a list"),
    (['{"move":'], ":4:9: not valid JSON: Expecting value"),
])
def test_a_broken_journal_line_is_located(tmp_path, lines, message):
    log = tmp_path / "g.jsonl"
    assert cli(*PLAY, "--log", log, input="1\nquit\n").code == 0
    log.write_text("\n".join([*log.read_text().splitlines()[:3], *lines]) + "\n")
    done = cli("replay", log)
    assert done.code == 1
    assert f"{log}{message}" in done.stderr and "Traceback" not in done.stderr


def test_a_new_game_does_not_overwrite_an_unfinished_one(tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli(*PLAY, "--log", log, input="1\nquit\n").code == 0
    before = log.read_text()
    again = cli(*PLAY, "--log", log, input="quit\n")
    assert again.code == 2 and f"--log {log} holds a game that is not finished (2 moves)" in again.stderr
    assert f"`cardrules resume {log}` goes on with it" in again.stderr and log.read_text() == before


def test_resume_of_a_game_killed_before_its_result_line_writes_it(tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli("play", "klats", "--seats", "random,random", "--seed", "2", "--log", log).code == 0
    lines = log.read_text().splitlines()
    assert "result" in json.loads(lines[-1])
    log.write_text("\n".join(lines[:-1]) + "\n")  # killed after the last move, before the result
    done = cli("resume", log)
    assert done.code == 0, done.stderr
    assert "match over after" in done.stdout and "wins with" in done.stdout
    assert log.read_text().splitlines() == lines


def test_resume_refuses_what_it_cannot_go_on_with(tmp_path):
    finished = tmp_path / "done.jsonl"
    assert cli("play", "klats", "--seats", "random,random", "--seed", "2", "--log", finished).code == 0
    done = cli("resume", finished)
    assert done.code == 1 and "the match is over; there is nothing to resume" in done.stderr
    many = tmp_path / "many.jsonl"
    assert cli("selfplay", "klats", "-p", "2", "-g", "2", "--log", many).code == 0
    other = cli("resume", many)
    assert other.code == 1 and "not a game's journal" in other.stderr
