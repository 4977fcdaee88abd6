"""Writing files so that nothing is lost: never over one of the command's inputs, a whole file or
none (a temporary file in the same folder, renamed into place), and an append-only journal that
outlives its process (each line written whole, synced before a wait, under an exclusive lock).

Locks are `flock` locks on the file itself: advisory, so they stop other `cardrules` processes,
not an editor. Where `fcntl` is missing (Windows) files are written without locks.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

if sys.platform != "win32":  # pragma: no branch - POSIX
    import fcntl

LOCK_WAIT = 2.0  # seconds a finished file waits for another writer's rename before it gives up


class WriteRefused(OSError):
    """An output that may not be written: one of the inputs, or a file another process writes.
    `hint` says what to do."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint

    def __str__(self) -> str:
        return self.message


def same_file(one: str | Path, other: str | Path) -> bool:
    """Whether two paths name one file, also through a symlink or a hard link."""
    try:
        a, b = os.stat(one), os.stat(other)
    except (OSError, ValueError):
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def refuse_inputs(output: str | Path, inputs: Iterable[str | Path | None], option: str) -> None:
    """Raise `WriteRefused` when `output` is one of `inputs` (None entries are skipped)."""
    for given in inputs:
        if given is not None and same_file(output, given):
            same = "" if os.path.normpath(output) == os.path.normpath(given) else f" (the same file as {given})"
            raise WriteRefused(f"{option} {output} is an input of this command{same}: writing it would destroy it",
                               "give another file name for the output")


def _lock(descriptor: int, path: str | Path, blocking: bool = False) -> None:
    if sys.platform == "win32":
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        raise WriteRefused(f"{path} is being written by another cardrules process (a game in play or resumed)",
                           "wait for it to end, or give another file") from None


class Journal:
    """An append-only file of lines under an exclusive lock, held until `close`. Each `append`
    writes one whole line with one system call, so a process killed at any instant leaves every
    line it appended but the one it was writing, which is then torn (it lacks its line end) and
    left out by the readers. `sync` makes the lines so far survive the machine going down too;
    it costs a disk flush (milliseconds), so the writer calls it when it is about to wait."""

    def __init__(self, path: str | Path, create: bool = True):
        """Open `path` for appending (created if need be and `create`) and lock it; raise
        `WriteRefused` while another process holds it, `OSError` when it cannot be opened.
        Nothing is cut before `cut`: the lock comes first."""
        self.path = Path(path)
        descriptor = os.open(self.path, os.O_WRONLY | (os.O_CREAT if create else 0), 0o644)
        try:
            _lock(descriptor, self.path)
        except BaseException:
            os.close(descriptor)
            raise
        self.descriptor: int | None = descriptor
        self.unsynced = False

    def cut(self, size: int = 0) -> None:
        """Keep the first `size` bytes (0: none, a new journal); the next line goes after them."""
        os.ftruncate(self._open(), size)
        os.lseek(self._open(), 0, os.SEEK_END)

    def append(self, line: str) -> None:
        """Write `line` and its line end at once."""
        data = (line + "\n").encode("utf-8")
        while data:
            data = data[os.write(self._open(), data):]
        self.unsynced = True

    def sync(self) -> None:
        """Make the lines appended so far durable on the disk."""
        if self.unsynced:
            self.unsynced = False  # first: a line appended while this syncs (from another thread) is marked anew
            try:
                os.fsync(self._open())
            except OSError:  # a file system that cannot sync: written is what there is
                pass

    def _open(self) -> int:
        if self.descriptor is None:
            raise ValueError(f"the journal {self.path} is closed")
        return self.descriptor

    def close(self) -> None:
        if self.descriptor is not None:
            self.sync()
            os.close(self.descriptor)  # the lock goes with it
            self.descriptor = None


@contextmanager
def whole_file(path: str | Path) -> Iterator[IO[str]]:
    """A text file to write that appears at `path` only once it is complete: it is written in
    the same folder under a temporary name and renamed into place when the block ends without
    an exception (else it is removed). A journal being written at `path` is not replaced:
    `WriteRefused`, and the finished file is kept under its temporary name, which the message
    gives. Of two writers of one path, the last to finish wins, whole."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as sink:
            yield sink
            sink.flush()
            os.fsync(sink.fileno())
    except BaseException:
        os.unlink(temporary)
        raise
    try:
        _replace(temporary, path)
    except WriteRefused as e:
        raise WriteRefused(f"{e.message}; the finished file is kept as {temporary}",
                           f"rename it to {path} once the other process ends") from None
    except OSError:
        os.unlink(temporary)
        raise


def _replace(temporary: str, path: Path) -> None:
    """Rename `temporary` to `path`, holding the lock of the file it replaces if there is one,
    so that a journal in use is never swapped out under its writer."""
    try:
        os.link(temporary, path)  # atomic when nothing is there yet
    except FileExistsError:
        pass
    except OSError:  # a file system without hard links: rename, and accept the small race
        os.replace(temporary, path)
        return
    else:
        os.unlink(temporary)
        return
    descriptor = os.open(path, os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                _lock(descriptor, path)
                break
            except WriteRefused:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.05)
        os.replace(temporary, path)
    finally:
        os.close(descriptor)


def write_whole(path: str | Path, text: str) -> None:
    """Write `text` to `path` as one whole file (see `whole_file`)."""
    with whole_file(path) as sink:
        sink.write(text)
