"""Nothing lost: an output that is one of the command's inputs is refused (also through a link)
and nothing is written; `selfplay --log` appears whole or not at all, also with two writers at
once; Ctrl-C on `selfplay` reports the matches it finished."""
from __future__ import annotations

import os
import shutil
import signal

import pytest

from cardrules.interpreter import gamelog

from .conftest import RULESETS, cli, running


@pytest.fixture()
def folder(tmp_path):
    """A ruleset, a house file for it, and a selfplay log, each with a symlink and a hard link."""
    shutil.copy(RULESETS / "klats.rules", tmp_path / "k.rules")
    (tmp_path / "house.yaml").write_text("name: short hands\nruleset: k.rules\n"
                                         "changes:\n  - set: hand_size\n    to: 4\n", encoding="utf-8")
    assert cli("selfplay", tmp_path / "k.rules", "-p", "2", "-g", "3", "--log", tmp_path / "many.jsonl").code == 0
    for name in ("k.rules", "house.yaml", "many.jsonl"):
        os.symlink(tmp_path / name, tmp_path / f"soft-{name}")
        os.link(tmp_path / name, tmp_path / f"hard-{name}")
    return tmp_path


@pytest.mark.parametrize("command, target", [
    (["play", "{d}/k.rules", "--seats", "random,random", "--log"], "k.rules"),
    (["play", "{d}/k.rules", "--seats", "random,random", "--log"], "soft-k.rules"),
    (["play", "{d}/k.rules", "--house", "{d}/house.yaml", "--seats", "random,random", "--log"], "hard-house.yaml"),
    (["selfplay", "{d}/k.rules", "-p", "2", "-g", "2", "--log"], "hard-k.rules"),
    (["selfplay", "{d}/k.rules+house:{d}/house.yaml", "-p", "2", "-g", "2", "--log"], "soft-house.yaml"),
    (["log", "redact", "{d}/many.jsonl", "--seat", "0", "-o"], "many.jsonl"),
    (["log", "redact", "{d}/many.jsonl", "--seat", "0", "-o"], "hard-many.jsonl"),
    (["export", "{d}/k.rules", "-o"], "soft-k.rules"),
    (["house", "schema", "{d}/k.rules", "-o"], "k.rules"),
])
def test_an_output_over_an_input_is_refused_and_nothing_is_written(folder, command, target):
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    done = cli(*[part.format(d=folder) for part in command], folder / target)
    assert done.code == 2, done.stderr
    assert "is an input of this command" in done.stderr and "writing it would destroy it" in done.stderr
    assert "hint: give another file name for the output" in done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def selfplay_running(*args: str):
    return running("selfplay", "klats", "-p", "2", *args)


def test_two_selfplay_writers_of_one_log_leave_one_whole_log(tmp_path):
    same = tmp_path / "same.jsonl"
    with selfplay_running("-g", "40", "--seed", "1", "--log", same) as first, \
            selfplay_running("-g", "40", "--seed", "2", "--log", same) as second:
        for run in (first, second):
            _, err = run.communicate(timeout=300)
            assert run.returncode == 0, err
    alone = []
    for seed in (1, 2):
        path = tmp_path / f"alone{seed}.jsonl"
        assert cli("selfplay", "klats", "-p", "2", "-g", "40", "--seed", seed, "--log", path).code == 0
        alone.append(path.read_text())
    assert same.read_text() in alone  # one run's log, whole, not a mix of both
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_ctrl_c_on_selfplay_reports_the_finished_matches(tmp_path):
    log = tmp_path / "run.jsonl"
    with selfplay_running("-g", "1000000", "--log", log) as run:
        line = run.stderr.readline()  # the progress line, once the run has taken a second
        assert line.startswith("self-play: "), line
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    finished = int(err.split("interrupted: ", 1)[1].split(" of 1,000,000 matches finished")[0].replace(",", ""))
    assert finished > 0
    assert f"Klats: {finished} matches, 2 random bots, seed 1" in out and "round ends" in out
    assert f"logs of the {finished} matches written to {log}" in out
    assert len(log.read_text().splitlines()) == finished
    assert gamelog.read(log, finished).result is not None


def test_a_run_stopped_by_a_match_that_cannot_end_keeps_the_logs_before_it(tmp_path, monkeypatch):
    from cardrules.interpreter import selfplay as selfplaying
    from cardrules.interpreter.engine import EngineError

    real = selfplaying.play_out
    played = []

    def third_cannot_end(game, bots):  # the third match of the run stops as a stuck one would
        played.append(game)
        if len(played) == 3:
            raise EngineError("round 1 cannot end: a test", "a hint")
        real(game, bots)

    monkeypatch.setattr(selfplaying, "play_out", third_cannot_end)
    log = tmp_path / "run.jsonl"
    done = cli("selfplay", "klats", "-p", "2", "-g", "5", "--workers", "1", "--log", log)
    assert done.code == 1
    assert f"a match cannot go on: round 1 cannot end: a test (the logs of the 2 matches finished before are in " \
           f"{log})" in " ".join(done.stderr.split())
    assert len(log.read_text().splitlines()) == 2
    played.clear()
    monkeypatch.setattr(selfplaying, "play_out", lambda game, bots: (_ for _ in ()).throw(EngineError("stuck")))
    first = cli("selfplay", "klats", "-p", "2", "-g", "5", "--workers", "1", "--log", tmp_path / "none.jsonl")
    assert first.code == 1 and "a match cannot go on: stuck" in first.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]  # no empty log, no temporary file
