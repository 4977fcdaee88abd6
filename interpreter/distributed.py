"""Matches played on a Ray cluster (the optional extra `pip install 'cardrules[ray]'`).

Ray does the distribution: the table goes once into its object store, each chunk of matches is
a task, and the results come back in match order through `selfplay.in_order`, so a run on a
cluster gives the figures, logs and failures that one process gives. A worker compiles a table
once per process (`selfplay.compiled_here`), whatever the number of tasks it runs.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from .selfplay import AHEAD, Chunk, Match, Table, compiled_here, in_order, play_chunk

LOCAL = "local"  # `--ray local`: start Ray on this machine rather than join a cluster


class RayError(Exception):
    """Ray is not installed, or the cluster cannot be reached: the message says which."""


def _ray():
    try:
        import ray
    except ImportError:
        raise RayError("Ray is not installed; install the extra: pip install 'cardrules[ray]'") from None
    return ray


def connect(address: str) -> None:
    """Join the cluster at `address` ("auto": the one this machine belongs to), or start Ray on
    this machine (`LOCAL`); nothing when this process is connected already."""
    ray = _ray()
    if ray.is_initialized():
        return
    try:
        ray.init(address=None if address == LOCAL else address, include_dashboard=False, log_to_driver=False)
    except ConnectionError as e:
        raise RayError(f"cannot reach the Ray cluster at {address}: {e}") from None


def _play(table: Table, chunk: Chunk) -> list[Match]:
    return play_chunk(compiled_here(table), chunk)


def matches(table: Table, chunks: Iterable[Chunk], address: str) -> Iterator[Match]:
    """The chunks played as Ray tasks, yielded in match order; closing it cancels what is left."""
    ray = _ray()
    connect(address)
    play = ray.remote(_play)
    shared = ray.put(table)
    ahead = AHEAD * max(1, int(ray.cluster_resources().get("CPU", 1)))
    in_flight = set()

    def submit(chunk: Chunk):
        ref = play.remote(shared, chunk)
        in_flight.add(ref)
        return ref

    def wait(ref) -> list[Match]:
        played = ray.get(ref)
        in_flight.discard(ref)
        return played

    try:
        yield from in_order(submit, wait, chunks, ahead)
    finally:
        for ref in in_flight:  # left when the run stops early: an error, Ctrl-C, the caller closing it
            ray.cancel(ref, force=True)
