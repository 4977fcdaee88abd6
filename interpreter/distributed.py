"""Matches played on a Ray cluster (the optional extra `pip install 'cardrules[ray]'`).

Ray does the distribution: the table goes once into its object store, each chunk of matches is
a task, and the results come back in match order through `selfplay.in_order`, so a run on a
cluster gives the figures, logs and failures that one process gives. A worker compiles a table
once per process (`selfplay.compiled_here`), whatever the number of tasks it runs.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from .selfplay import AHEAD, Chunk, Played, Table, compiled_here, in_order, play_chunk

if TYPE_CHECKING:
    from ray import ObjectRef
    from ray._private.worker import RemoteFunction1  # what ray.remote makes of a function of two arguments

LOCAL = "local"  # `--ray local`: start Ray on this machine rather than join a cluster


class RayError(Exception):
    """Ray is not installed, or the cluster cannot be reached: the message says which."""


def _need_ray() -> None:
    """Nothing when Ray is installed; else a RayError saying how to install it."""
    try:
        import ray  # noqa: F401 - only asking whether it is there
    except ImportError:
        raise RayError("Ray is not installed; install the extra: pip install 'cardrules[ray]'") from None


def connect(address: str) -> None:
    """Join the cluster at `address` ("auto": the one this machine belongs to), or start Ray on
    this machine (`LOCAL`); nothing when this process is connected already."""
    _need_ray()
    import ray

    if ray.is_initialized():
        return
    try:
        ray.init(address=None if address == LOCAL else address, include_dashboard=False, log_to_driver=False)
    except ConnectionError as e:
        raise RayError(f"cannot reach the Ray cluster at {address}: {e}") from None


def _play(table: Table, chunk: Chunk[Played]) -> list[Played]:
    return play_chunk(compiled_here(table), chunk)


def matches(table: Table, chunks: Iterable[Chunk[Played]], address: str) -> Iterator[Played]:
    """The chunks played as Ray tasks, yielded in match order; closing it cancels what is left."""
    _need_ray()
    import ray

    connect(address)
    play: RemoteFunction1[list[Played], Table, Chunk[Played]] = ray.remote(_play)
    shared = ray.put(table)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]  # ray leaves it unannotated
    ahead = AHEAD * max(1, int(cpus))
    in_flight: set[ObjectRef[list[Played]]] = set()

    def submit(chunk: Chunk[Played]) -> ObjectRef[list[Played]]:
        ref = play.remote(shared, chunk)
        in_flight.add(ref)
        return ref

    def wait(ref: ObjectRef[list[Played]]) -> list[Played]:
        played = ray.get(ref)
        in_flight.discard(ref)
        return played

    try:
        yield from in_order(submit, wait, chunks, ahead)
    finally:
        for ref in in_flight:  # left when the run stops early: an error, Ctrl-C, the caller closing it
            ray.cancel(ref, force=True)
