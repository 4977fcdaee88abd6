"""Game logs: what `play --log` writes (a journal) replays to the same result, and so does the
pretty-printed `cardrules-log/1` file it wrote before; a log that was tampered with fails at the
move or the result that differs; a broken log gets a located message."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil

import pytest

from cardrules.interpreter import gamelog
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.gamelog import GameLog, LogError, LogResult, ReplayError

from .conftest import RULESETS, cli


@pytest.fixture(scope="module")
def bots_log(tmp_path_factory):
    """A whole match of three bots, logged, and what `play` printed."""
    path = tmp_path_factory.mktemp("logs") / "bots.json"
    done = cli("play", "klats", "--seed", "11", "--seats", "random,random,random", "--log", path)
    assert done.code == 0, done.stderr
    return path, done.stdout


def pretty(log: GameLog) -> str:
    """The log as `play --log` wrote it before the journal: one pretty-printed cardrules-log/1 record."""
    return json.dumps(json.loads(gamelog.to_line(log)), indent=2, ensure_ascii=False) + "\n"


def journal_text(log: GameLog) -> str:
    """A whole log as a journal: its header, a line a move, the result if there is one."""
    lines = [gamelog.journal_header(log), *(json.dumps({"move": move}) for move in log.moves)]
    return "".join(line + "\n" for line in lines + ([gamelog.result_line(log.result)] if log.result else []))


def edited(source, tmp_path, change) -> str:
    """The log of `source` as an old pretty-printed file, with `change` made to its record."""
    data = json.loads(pretty(gamelog.read(source)))
    change(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data, indent=2))
    return str(path)


def test_a_log_written_by_play_replays_to_the_same_result(bots_log):
    path, played = bots_log
    assert json.loads(path.read_text().splitlines()[0])["format"] == "cardrules-journal/1"
    record = json.loads(pretty(gamelog.read(path)))
    assert record["ruleset"] == "klats"
    assert record["players"] == 3 and record["params"]["target_total"] == 150 and len(record["moves"]) > 20
    done = cli("replay", path)
    assert done.code == 0, done.stderr
    assert "the result matches the log" in done.stdout
    won = re.search(r"match over after .*", played).group()
    assert won in done.stdout
    assert f"{len(record['moves'])} moves replayed" in done.stdout
    totals = record["result"]["totals"]
    assert all(re.search(rf"^{seat} random +{total}$", done.stdout, re.M) for seat, total in enumerate(totals))


def test_verbose_replay_prints_every_move_and_round(bots_log):
    path, _ = bots_log
    record = json.loads(pretty(gamelog.read(path)))
    done = cli("replay", path, "--verbose")
    assert done.code == 0
    for number, move in enumerate(record["moves"], 1):
        assert re.search(rf"^ *{number}\. seat \d \(random\): {re.escape(move)}$", done.stdout, re.M)
    assert len(re.findall(r"^round \d+ over", done.stdout, re.M)) == record["result"]["rounds"]


def test_a_person_s_log_replays(tmp_path):
    log = tmp_path / "p.json"
    done = cli("play", "klats", "--seed", "5", "--log", log, input="2\n1\n3\nquit\n")
    assert done.code == 0
    record = gamelog.read(log)
    assert len(record.moves) == 6 and record.result is None  # three decisions, three answers
    replayed = cli("replay", log)
    assert replayed.code == 0
    assert "the match is unfinished, as logged" in replayed.stdout


def test_an_illegal_move_fails_at_its_number(bots_log, tmp_path):
    path, _ = bots_log
    played = gamelog.read(path).moves[6]
    bad = "put " + ("blue15" if "blue15" not in played else "green15") + " @0/5"

    def change(data):
        data["moves"][6] = bad

    done = cli("replay", edited(path, tmp_path, change))
    assert done.code == 1
    assert re.search(rf"move 7 '{re.escape(bad)}' by seat \d does not apply: ", done.stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_a_changed_result_is_reported(bots_log, tmp_path):
    path, _ = bots_log

    def change(data):
        data["result"]["winners"] = [9]

    done = cli("replay", edited(path, tmp_path, change))
    assert done.code == 1
    assert "the log records totals" in done.stderr and "(winner: seat 9)" in done.stderr


def test_moves_after_the_end_are_reported(bots_log, tmp_path):
    path, _ = bots_log
    count = len(gamelog.read(path).moves)
    done = cli("replay", edited(path, tmp_path, lambda data: data["moves"].append("put blue1 @0")))
    assert done.code == 1
    assert f"move {count + 1} 'put blue1 @0': the match is already over" in done.stderr


@pytest.mark.parametrize("damage, where, what", [
    (lambda text: text[:len(text) // 2], r":\d+:\d+: ", "not valid JSON"),
    (lambda text: "garbage\x00", r":1:1: ", "not valid JSON: Expecting value"),
    (lambda text: "[1, 2]", r":1:1: ", "a game log is a JSON object, not a list"),
    (lambda text: text.replace('"seed": 11', '"seed": "11"'), r":\d+:3: ", "'seed' must be an integer, not a string"),
    (lambda text: text.replace('"cardrules-log/1"', '"other/2"'), r":2:3: ", "format 'other/2'"),
    (lambda text: re.sub(r'"moves": \[[^\]]*\],', "", text), r": ", "the log has no 'moves' key"),
])
def test_a_broken_log_gets_a_located_message(bots_log, tmp_path, damage, where, what):
    path, _ = bots_log
    broken = tmp_path / "broken.json"
    broken.write_text(damage(pretty(gamelog.read(path))))
    done = cli("replay", broken)
    assert done.code == 1
    assert re.search(re.escape(str(broken)) + where, done.stderr), done.stderr
    assert what in done.stderr
    assert "Traceback" not in done.stderr


def test_the_ruleset_is_found_beside_the_log_and_a_changed_one_is_a_warning(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(RULESETS / "klats.rules", folder / "k.rules")
    log = folder / "k.json"
    done = cli("play", folder / "k.rules", "--seats", "random,random", "--seed", "2", "--log", log)
    assert done.code == 0
    data = json.loads(pretty(gamelog.read(log)))
    data["ruleset"] = "k.rules"  # as if played from inside the folder
    log.write_text(json.dumps(data))
    assert cli("replay", log).code == 0
    with open(folder / "k.rules", "a", encoding="utf-8") as f:
        f.write("# a comment changes the bytes, not the game\n")
    again = cli("replay", log)
    assert again.code == 0 and "has changed since the log was written" in again.stderr
    data["ruleset"] = "elsewhere/k.rules"
    log.write_text(json.dumps(data))
    lost = cli("replay", log)
    assert lost.code == 1 and "is found neither beside the log nor from here" in lost.stderr


def test_log_round_trip_and_replay_error_fields(klats, tmp_path):
    record = GameLog("klats", "0" * 64, 2, {"hand_size": 3, "max_piles": 6, "target_total": 150}, 3,
                     ("human", "random"),
                     ("put orange1 @0", "put orange9 @0", "put green8 @1/0"), None)
    (tmp_path / "g.json").write_text(journal_text(record))
    assert gamelog.read(tmp_path / "g.json") == dataclasses.replace(record, journal=True)
    with pytest.raises(ReplayError) as caught:
        gamelog.replay(record, compile_ruleset(klats.model, 2, record.params))
    e = caught.value
    assert (e.move, e.text, e.seat) == (3, "put green8 @1/0", 0)
    assert "seat 1's row has 0 piles" in e.reason
    finished = GameLog(*[getattr(record, f) for f in ("ruleset", "ruleset_sha256", "players", "params", "seed",
                                                      "seats")], moves=record.moves[:2],
                       result=LogResult((0, 0), (0, 1), 1))
    with pytest.raises(ReplayError, match="the log records totals \\[0, 0\\] after 1 round .* an unfinished match"):
        gamelog.replay(finished, compile_ruleset(klats.model, 2, record.params))
    with pytest.raises(LogError, match=r"g\.json:\d+:\d+: 'seats' names 1 seats for 2 players"):
        (tmp_path / "g.json").write_text(journal_text(record).replace('"human",', ""))
        gamelog.read(tmp_path / "g.json")
