"""Shared test helpers: where the rulesets are, and two ways to run the command line: in-process
(fast, for most tests) and as a real subprocess (exit codes, pipes, no TTY)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
RULESETS = REPO / "rulesets"
SHARED = REPO.parent / "shared"

# A round that cannot end: nobody can ever play, and no `end round` condition holds.
STUCK = """\
game "Stuck" { }
players 2..2
attribute rank in 1..9
card plain { rank each  face "r{rank}" }
zone stock shared hidden
zone heap shared public
zone hand per seat owner
setup {
    shuffle deck into stock
    deal 2 from stock to hand
}
play put {
    card from hand where card.rank > 9
    to heap
}
turn { play one of put or pass }
end round out when some s in seats: count(hand of s) == 0
score s = 0
match {
    until max(totals) >= 1
    winner highest
}
"""


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


def cli(*args: str, input: str | None = None) -> Result:
    """Run `cardrules ARGS` in-process and return its exit code and both streams."""
    from cardrules.cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)
    return Result(result.exit_code, result.stdout, result.stderr)


def cli_process(*args: str, input: str | None = None, timeout: float = 120) -> Result:
    """Run `cardrules ARGS` as a separate process with no terminal, as CI and pipes do."""
    done = subprocess.run(_command(args), input=input, capture_output=True, text=True, timeout=timeout,
                          env=_environment(), cwd=REPO)
    return Result(done.returncode, done.stdout, done.stderr)


@contextmanager
def running(*args: str) -> Iterator[subprocess.Popen]:
    """`cardrules ARGS` started as a separate process, for a test that stops it with SIGINT:
    SIGINT raises KeyboardInterrupt in it as Ctrl-C at a terminal does, even where the suite runs
    as a background job (`command &` in a script starts it with SIGINT ignored, and Python keeps
    it ignored). It runs in a session of its own, killed when the block ends: a test that fails
    leaves no run of a million matches, nor its workers, playing on."""
    process = subprocess.Popen(_command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=_environment(), cwd=REPO, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        yield process
    finally:
        with suppress(ProcessLookupError):  # the session ended, as it should
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _command(args: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "cardrules.cli.main", *map(str, args)]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}


T = TypeVar("T")


def waited(value: Callable[[], T], done: Callable[[T], bool], seconds: float, every: float = 0.1) -> T:
    """`value()` once `done` holds of it, or as it stands after `seconds`: polled every `every`
    seconds, for what another process does in its own time (a worker started, a log written)."""
    deadline = time.monotonic() + seconds
    while not done(found := value()) and time.monotonic() < deadline:
        time.sleep(every)
    return found


@contextmanager
def within(seconds: int):
    """Fail, rather than hang the suite, if the block takes longer than `seconds`."""
    def stop(*_):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def write(folder: Path, name: str, text: str) -> Path:
    """A file of `text` (UTF-8) named `name` in `folder`, for tests of files a user writes."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def klats():
    from cardrules.interpreter.load import load

    return load(str(RULESETS / "klats.rules"))
