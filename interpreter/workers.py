"""Worker processes, each with a pipe of its own, so that one that dies never leaves the run waiting.

`multiprocessing.Pool` and `ProcessPoolExecutor` bring every worker's results back through one
shared pipe guarded by one lock. A worker killed while it sends (the out-of-memory killer, a
user's `kill`) dies holding that lock, or leaves half a message in that pipe, and the parent then
waits for ever: in `Pool.terminate`, or in the executor's reading thread. Here a worker shares
nothing with the others: its death is the end of its own pipe, which the parent reads as
`WorkerLost` in the turn of the first task it held.

The parent owns Ctrl-C: the workers ignore it, and leaving the `Pool` ends them. A worker whose
parent is gone (killed) reads the end of its pipe and exits.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import pickle
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .errors import CardrulesError

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

Item = TypeVar("Item")  # what a task gives a worker's job
Result = TypeVar("Result")  # what the job gives back


class WorkerLost(CardrulesError):
    """A worker ended before it gave back its tasks' results: killed, or out of memory. Not an
    error of the input, but one every command reports as a message with a hint, as it does those."""

    def __init__(self) -> None:
        super().__init__("a worker process ended before it finished its matches (killed, or out of memory?)",
                         "run again; with fewer --workers if memory ran short")


class Task(Generic[Result]):
    """A task sent to a worker: `ready` once its result, its error or its worker's death is known;
    `get` waits for that and gives the result, or raises the error (or `WorkerLost`)."""

    def __init__(self, worker: _Worker[Any, Result]):
        self.worker = worker
        self.outcome: tuple[bool, Any] | None = None  # (True, result) or (False, exception), once known

    def ready(self) -> bool:
        if self.outcome is None:
            self.worker.receive(block=False)
        return self.outcome is not None

    def get(self) -> Result:
        while self.outcome is None:
            self.worker.receive(block=True)
        done, value = self.outcome
        if not done:
            raise value
        return value  # type: ignore[no-any-return]  # the job's result, as the worker sent it


class _Worker(Generic[Item, Result]):
    """One process and the parent's end of its pipe; `sent` holds its tasks under way, oldest
    first, as it answers them."""

    def __init__(self, context: BaseContext, job: Callable[[Item], Result], start: Callable[..., None] | None,
                 args: tuple[Any, ...], earlier: list[_Worker[Item, Result]]):
        self.pipe, theirs = context.Pipe()
        self.sent: deque[Task[Result]] = deque()
        inherited = ((*(w.pipe for w in earlier), self.pipe) if context.get_start_method() == "fork"
                     else ())  # a forked worker holds the parent's ends of its pipe and the earlier ones
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]  # every context has Process
            target=_serve, args=(theirs, job, start, args, inherited), daemon=True)
        self.process.start()
        theirs.close()  # the worker's end lives in the worker alone: its death is then the end of the pipe

    @property
    def lost(self) -> bool:
        return self.pipe.closed

    def send(self, item: Item) -> Task[Result] | None:
        """The task of `item`, sent; None when the worker is gone."""
        if self.lost:
            return None
        try:
            self.pipe.send(item)
        except OSError:  # it died since it was last heard from
            self._lose()
            return None
        task: Task[Result] = Task(self)
        self.sent.append(task)
        return task

    def receive(self, block: bool) -> None:
        """Read the answers that have come (with `block`, wait for at least one, or for the worker's
        end): each is the outcome of the oldest task under way."""
        while self.sent:
            if not self.pipe.poll():
                if block:
                    multiprocessing.connection.wait([self.pipe, self.process.sentinel])
                if not self.pipe.poll():
                    if not self.process.is_alive():  # ended, its pipe not yet seen to end (a spawned worker's)
                        self._lose()
                    return
            try:
                message = self.pipe.recv_bytes()
            except (EOFError, OSError):  # its end of the pipe closed, in a message or between two
                self._lose()
                return
            self.sent.popleft().outcome = _loaded(message)
            block = False

    def _lose(self) -> None:
        """The worker is gone: its tasks under way end with `WorkerLost`, each in its turn."""
        self.pipe.close()
        while self.sent:
            self.sent.popleft().outcome = (False, WorkerLost())

    def stop(self) -> None:
        self.pipe.close()
        self.process.terminate()
        self.process.join()


class Pool(Generic[Item, Result]):
    """`count` worker processes: each runs `start(*args)` once, if given, then `job(item)` for
    each item sent to it. A context manager: leaving it ends every worker at once, however it is
    left."""

    def __init__(self, count: int, job: Callable[[Item], Result], start: Callable[..., None] | None = None,
                 args: tuple[Any, ...] = ()):
        context = multiprocessing.get_context()
        self.workers: list[_Worker[Item, Result]] = []
        try:
            for _ in range(count):
                self.workers.append(_Worker(context, job, start, args, self.workers))
        except BaseException:
            self.stop()
            raise

    def submit(self, item: Item, ahead: int) -> Task[Result] | None:
        """The task of `item`, sent to the worker with the fewest under way; None when every
        worker has `ahead` under way, or none is left."""
        while True:
            for worker in self.workers:
                worker.receive(block=False)
            idle = [w for w in self.workers if not w.lost and len(w.sent) < ahead]
            if not idle:
                return None
            task = min(idle, key=lambda w: len(w.sent)).send(item)
            if task is not None:
                return task

    def map(self, items: Iterable[Item], ahead: int = 2) -> Iterator[Result]:
        """Each item's result, in the items' order. A worker holds at most `ahead` items and gets
        the next one as soon as it has room, so the quickest play the most; the results kept
        waiting for a slow one are at most a few per worker. A lost worker raises `WorkerLost` in
        the turn of its first item."""
        most = 4 * ahead * len(self.workers)
        pending: deque[Task[Result]] = deque()
        for item in items:
            while (task := self.submit(item, ahead)) is None:
                if all(w.lost for w in self.workers):
                    while pending:
                        yield pending.popleft().get()
                    raise WorkerLost
                busy = [w for w in self.workers if not w.lost]
                multiprocessing.connection.wait([w.pipe for w in busy] + [w.process.sentinel for w in busy])
            pending.append(task)
            while pending and (pending[0].ready() or len(pending) >= most):
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()

    def __enter__(self) -> Pool[Item, Result]:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


def _serve(pipe: Connection, job: Callable[[Any], Any], start: Callable[..., None] | None, args: tuple[Any, ...],
           inherited: tuple[Connection, ...]) -> None:
    """A worker's life: answer each item with its job's outcome until the parent's end closes. It
    first closes the parent's ends it inherited, so that the parent's death closes its pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for end in inherited:
        end.close()
    if start is not None:
        start(*args)
    while True:
        try:
            item = pipe.recv()
        except (EOFError, OSError):  # the parent is done with this worker, or gone
            return
        try:
            message = pickle.dumps((True, job(item)))
        except Exception as e:  # noqa: BLE001 - the job's error, raised in the parent in the task's turn
            message = _dumped_error(e)
        try:
            pipe.send_bytes(message)
        except OSError:
            return


def _dumped_error(error: Exception) -> bytes:
    """The error as a message: itself, or what it was when it does not pickle."""
    try:
        return pickle.dumps((False, error))
    except Exception:  # noqa: BLE001 - an error of the job's own making: named, since it cannot travel
        return pickle.dumps((False, RuntimeError(f"a worker's {type(error).__name__} could not be sent back: "
                                                 f"{error}")))


def _loaded(message: bytes) -> tuple[bool, Any]:
    """A worker's answer: what it sent, or the error of reading it back."""
    try:
        outcome: tuple[bool, Any] = pickle.loads(message)
    except Exception as e:  # noqa: BLE001 - raised in the task's turn, as the job's own error would be
        return False, e
    return outcome
