"""Self-play on many cores and on Ray: the figures, the logs and the match numbers are those of one
process, because match i's seeds come from the run's seed and i alone; Ctrl-C stops the workers."""
from __future__ import annotations

import importlib.util
import itertools
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from dataclasses import asdict

import pytest

from cardrules.interpreter import codegen, gamelog
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import EngineError
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.selfplay import Table, matches, play_match, run, seeds
from cardrules.interpreter.workers import Pool, WorkerLost

from .conftest import REPO, RULESETS, STUCK, cli, running, waited, within

KLATS = str(RULESETS / "klats.rules")
TIMING = {"wall_seconds", "games_per_second"}


def figures(stats) -> dict:
    return {k: v for k, v in asdict(stats).items() if k not in TIMING}


@pytest.fixture(scope="module")
def arne4():
    return compile_ruleset(load(str(RULESETS / "arne_total.rules"), "en").model, 4)


def test_one_two_and_three_workers_give_the_same_figures(klats, arne4):
    klats3 = compile_ruleset(klats.model, 3)
    for compiled, games in ((klats3, 30), (arne4, 12)):
        alone = figures(run(compiled, games, 7))
        assert figures(run(compiled, games, 7, workers=2)) == alone
        assert figures(run(compiled, games, 7, workers=3)) == alone
    assert figures(run(klats3, 30, 8, workers=2)) != figures(run(klats3, 30, 7, workers=2))


def test_a_match_is_a_function_of_the_runs_seed_and_its_index(klats):
    """Match 5 of a run played alone, from the 6th pair of seeds, is match 5 of the run."""
    compiled = compile_ruleset(klats.model, 3)
    played = list(matches(compiled, 8, 11, record=True, workers=2))
    assert [m.index for m in played] == list(range(8))
    game_seed, bot_seed = next(itertools.islice(seeds(11), 5, None))
    assert play_match(compiled, 5, game_seed, bot_seed, record=True) == played[5]
    assert len({m.seed for m in played}) == 8


def test_seats_of_their_own_play_the_same_matches_whatever_the_workers_and_replay(klats):
    """With `seats`, each seat's bot draws from a source of its own; the recorded moves of all
    seats, in order, replay the match."""
    compiled = compile_ruleset(klats.model, 3)
    seats = ("random",) * 3
    alone = list(matches(compiled, 10, 4, seats=seats, record=True))
    assert list(matches(compiled, 10, 4, seats=seats, record=True, workers=2)) == alone
    assert [m.moves for m in alone] != [m.moves for m in matches(compiled, 10, 4, record=True)]
    for match in alone:
        log = gamelog.GameLog("klats.rules", "", 3, {}, match.seed, seats, match.moves, match.result)
        assert gamelog.replay(log, compiled).state.totals == list(match.totals)


def _generated_before_playing(compiled, index, game_seed, bot_seed) -> bool:
    """Whether this process holds the fast engine's functions for `compiled` before it plays the
    match (it then plays it, so that they are seen to work)."""
    found = codegen._LOADED.get(id(compiled))
    ready = found is not None and found[0]() is compiled
    play_match(compiled, index, game_seed, bot_seed)
    return ready


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="workers inherit the module through fork")
def test_forked_workers_inherit_the_generated_engine_rather_than_write_it_each(arne4):
    """The parent writes the fast engine's module once, before the pool forks: no worker spends
    its first match generating and compiling it again."""
    ready = list(matches(arne4, 8, 3, workers=2, play=_generated_before_playing))
    assert ready == [True] * 8


def _process(compiled, index, game_seed, bot_seed) -> int:
    return os.getpid()


def test_with_two_workers_this_process_plays_beside_one_more(klats):
    """`--workers 2` is two processes playing: this one, and a pool of one more."""
    played_by = set(matches(compile_ruleset(klats.model, 3), 40, 1, workers=2, play=_process))
    assert os.getpid() in played_by and len(played_by) == 2


def test_the_table_rebuilds_the_same_compiled_ruleset(arne4):
    """What a worker compiles from the table shows the faces, in the same language, and the params
    of the original: the logs a worker's matches write read the same."""
    russian = compile_ruleset(arne4.model, 4, {"hand_size": 6}, "ru")
    assert russian.faces != arne4.faces
    for compiled in (arne4, russian):
        again = Table.of(compiled).compile()
        assert (again.faces, again.params, again.players) == (compiled.faces, compiled.params, 4)
    assert Table.of(russian).key != Table.of(arne4).key


def test_logs_come_out_in_match_order_whatever_the_workers(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for log, workers in ((one, "1"), (two, "2")):
        result = cli("selfplay", KLATS, "-p", "3", "-g", "24", "-s", "5", "--log", log, "-w", workers, "--json")
        assert result.code == 0, result.stderr
    assert one.read_text(encoding="utf-8") == two.read_text(encoding="utf-8")
    lines = one.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 24
    assert [json.loads(line)["seed"] for line in lines] == [g for g, _ in itertools.islice(seeds(5), 24)]


def test_a_round_that_cannot_end_stops_the_workers_with_a_clear_error(tmp_path):
    rules = tmp_path / "stuck.rules"
    rules.write_text(STUCK, encoding="utf-8")
    result = cli("selfplay", rules, "-p", "2", "-g", "300", "-w", "2")
    assert result.code == 1
    assert "cannot end" in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(EngineError):
        run(compile_ruleset(load_text(STUCK, "stuck.rules").model, 2), 300, 1, workers=2)


_TESTS_PROCESS = os.getpid()  # the process that runs the tests: a pool forked from it inherits this


def _dies_in_a_worker(compiled, index, game_seed, bot_seed) -> int:
    if os.getpid() != _TESTS_PROCESS:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
    return index


def test_a_worker_that_dies_stops_the_run_with_a_clear_error_rather_than_a_wait_for_ever(klats):
    """`Pool` starts a new worker in place of one that dies, and the chunk the dead one held never
    comes back."""
    with within(60), pytest.raises(WorkerLost):
        list(matches(compile_ruleset(klats.model, 3), 40, 1, workers=2, play=_dies_in_a_worker))


def _some_written(folder) -> bool:
    """Whether the log being written in `folder`, under its temporary name, holds anything yet."""
    return any(part.stat().st_size for part in folder.glob(".*.part"))


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the workers through /proc")
def test_a_worker_killed_ends_selfplay_with_its_message_and_the_log_of_the_matches_finished(tmp_path):
    log = tmp_path / "run.jsonl"
    with running("selfplay", KLATS, "-p", "3", "-g", "1000000", "-w", "2", "--log", log, "--json") as proc:
        workers = waited(lambda: _descendants(proc.pid), bool, 60)
        assert workers, "the worker never started"
        # a match's log is in the file being written: the kill comes after a match finished, on a slow machine too
        assert waited(lambda: _some_written(tmp_path), bool, 60), "no match finished"
        os.kill(workers[0], signal.SIGKILL)
        _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 1, stderr
    assert "a worker process ended before it finished its matches" in stderr and "Traceback" not in stderr
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines and f"the logs of the {len(lines):,} matches finished before are in {log}" in stderr
    assert [json.loads(line)["seed"] for line in lines] == [g for g, _ in itertools.islice(seeds(1), len(lines))]


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the workers through /proc")
def test_a_selfplay_killed_leaves_no_worker_playing_on():
    """The workers read the end of their pipes once the parent is gone, and exit."""
    with running("selfplay", KLATS, "-p", "3", "-g", "1000000", "-w", "3", "--json") as proc:
        workers = waited(lambda: _descendants(proc.pid), lambda found: len(found) >= 2, 60)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)  # no `finally` runs: the workers are left to find out
        proc.wait()
        assert waited(lambda: [pid for pid in workers if _alive(pid)], lambda alive: not alive, 30) == []


def _bytes(count: int) -> bytes:
    return b"x" * count


def test_a_worker_killed_in_the_middle_of_sending_its_result_is_lost_not_waited_for():
    """The case that hangs `multiprocessing.Pool`: the worker dies with half its answer sent."""
    with within(60), Pool(1, _bytes) as pool:
        assert pool.submit(3, ahead=1).get() == b"xxx"
        task = pool.submit(100_000_000, ahead=1)  # far more than a pipe holds: the worker waits in the send
        worker = pool.workers[0]
        while not worker.pipe.poll(0.1):
            pass
        os.kill(worker.process.pid, signal.SIGKILL)
        while not task.ready():  # it comes to know, without a wait for ever
            time.sleep(0.05)
        with pytest.raises(WorkerLost):
            task.get()
        assert pool.submit(3, ahead=1) is None  # no worker is left


def _slept(seconds: float) -> tuple[int, float]:
    time.sleep(seconds)
    return os.getpid(), seconds


def test_map_gives_the_results_in_order_and_the_next_item_to_the_worker_that_has_room():
    """While one worker plays a long item, the other plays every short one: items are not dealt
    out in turn."""
    items = [2.0] + [0.001] * 6  # fewer than map keeps waiting (4 a worker) behind the long one
    with within(60), Pool(2, _slept) as pool:
        played = list(pool.map(items, ahead=1))
    assert [seconds for _, seconds in played] == items
    slow = played[0][0]
    assert [pid for pid, _ in played[1:] if pid == slow] == []


def _dies_at_five(item: int) -> int:
    if item == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_map_raises_worker_lost_in_the_turn_of_the_dead_workers_item():
    given = []
    with within(60), Pool(2, _dies_at_five) as pool, pytest.raises(WorkerLost):
        for result in pool.map(range(20), ahead=1):
            given.append(result)
    assert given == [0, 1, 2, 3, 4]


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not this one")


def _raises(kind: str) -> str:
    if kind == "engine":
        raise EngineError("the round cannot end")
    if kind == "odd":
        raise _Unpicklable(kind)
    return kind


def test_a_jobs_error_comes_back_in_its_tasks_turn_and_the_worker_goes_on():
    with within(60), Pool(1, _raises) as pool:
        first, second = pool.submit("engine", ahead=2), pool.submit("odd", ahead=2)
        with pytest.raises(EngineError, match="the round cannot end"):
            first.get()
        with pytest.raises(RuntimeError, match="a worker's _Unpicklable could not be sent back: odd"):
            second.get()
        assert pool.submit("fine", ahead=1).get() == "fine"


def test_workers_must_be_at_least_one():
    result = cli("selfplay", KLATS, "-p", "3", "-g", "2", "--workers", "0")
    assert result.code == 2 and "--workers must be at least 1" in result.stderr


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the workers through /proc")
def test_ctrl_c_stops_the_run_and_its_workers():
    with running("selfplay", KLATS, "-p", "3", "-g", "1000000", "-w", "3", "--json") as proc:
        workers = waited(lambda: _descendants(proc.pid), lambda found: len(found) >= 2, 60)  # -w 3: the parent, two
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGINT)  # as Ctrl-C at a terminal would, though the workers get none here
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, stderr
        assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
        assert waited(lambda: [pid for pid in workers if _alive(pid)], lambda alive: not alive, 10) == []


def _descendants(pid: int) -> list[int]:
    """The live processes below `pid` (its children, theirs, ...)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _alive(int(entry)):
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    parents[int(entry)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [pid]
    while todo:
        above = todo.pop()
        below = [child for child, parent in parents.items() if parent == above]
        found += below
        todo += below
    return found


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


# ------------------------------------------------------------------ Ray


def test_ray_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when Ray is not installed
    result = cli("selfplay", KLATS, "-p", "3", "-g", "2", "--ray", "local")
    assert result.code == 1
    assert "Ray is not installed; install the extra: pip install 'cardrules[ray]'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is not installed: pip install 'cardrules[ray]' runs this test")
def test_ray_gives_the_figures_and_logs_of_one_process(tmp_path):
    """A Ray started on this machine, in a process of its own (Ray leaves threads and handlers
    behind in the process that starts it)."""
    on_ray, alone = tmp_path / "ray.jsonl", tmp_path / "alone.jsonl"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run([sys.executable, "-m", "cardrules.cli.main", "selfplay", KLATS, "-p", "3", "-g", "40", "-s",
                           "2", "--log", str(on_ray), "--json", "--ray", "local"], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    result = cli("selfplay", KLATS, "-p", "3", "-g", "40", "-s", "2", "--log", alone, "--json", "-w", "1")
    assert result.code == 0, result.stderr
    assert ({k: v for k, v in json.loads(done.stdout).items() if k not in TIMING}
            == {k: v for k, v in json.loads(result.stdout).items() if k not in TIMING})
    assert on_ray.read_text(encoding="utf-8") == alone.read_text(encoding="utf-8")
