"""Play a batch in this process, over local processes, or on a Ray cluster, with the same figures.

The batch's slices (see BatchSpec.slices) are handed out to workers; each returns the Tally of its
slice, and the tallies are merged in seed order whatever order they finished in. Ctrl-C stops the
batch: the slices already finished are kept and reported, the rest are dropped.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TypeVar

from ..core.workers import Workers
from .batch import BatchSpec, play_slice
from .ray_connect import ray_connect, ray_output_to_stderr
from .tally import Tally

Progress = Callable[[int, int], None]   # (games done, games in the batch)

BACKENDS = ("processes", "ray")
Task = TypeVar("Task")
Done = TypeVar("Done")


@dataclass
class BatchResult:
    """A played batch: its tally, which seeds it covers, and how long it took."""

    spec: BatchSpec
    tally: Tally
    seed_ranges: list[tuple[int, int]]      # first and last seed of each run of played seeds
    interrupted: bool = False
    seconds: float = 0.0
    jobs: int | None = 1                    # None on Ray: the cluster decides
    backend: str = "processes"
    notes: list[str] = field(default_factory=list)


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def run_batch(spec: BatchSpec, jobs: int | None = None, backend: str = "processes", address: str | None = None,
              progress: Progress | None = None) -> BatchResult:
    """Play every seed of the batch and merge the slices' tallies in seed order."""
    slices = spec.slices()
    jobs = max(1, min(jobs or default_jobs(), len(slices) or 1))
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}' (backends: {', '.join(BACKENDS)})")
    done: dict[int, Tally] = {}
    games_done = 0
    interrupted = False
    start = time.perf_counter()
    results = run_tasks(_play_indexed, [(spec, i, s) for i, s in enumerate(slices)], jobs, backend, address)
    try:
        for i, tally in results:
            done[i] = tally
            games_done += tally.games
            if progress is not None:
                progress(games_done, spec.games)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    merged = Tally(spec.seats)
    merged.count_patterns(spec.patterns)
    if spec.keep_games:
        merged.keep_games()
    ranges: list[tuple[int, int]] = []
    for i in sorted(done):
        merged.merge(done[i])
        s = slices[i]
        if ranges and ranges[-1][1] + 1 == s[0]:
            ranges[-1] = (ranges[-1][0], s[-1])
        else:
            ranges.append((s[0], s[-1]))
    return BatchResult(spec, merged, ranges, interrupted, time.perf_counter() - start,
                       None if backend == "ray" else jobs, backend)


def _play_indexed(task: tuple[BatchSpec, int, range]) -> tuple[int, Tally]:
    spec, i, seeds = task
    return i, play_slice(spec, seeds)


def run_tasks(work: Callable[[Task], tuple[int, Done]], tasks: list[Task], jobs: int, backend: str = "processes",
              address: str | None = None) -> Iterator[tuple[int, Done]]:
    """`work(task)` for every task, in this process (one job), a pool of processes, or Ray tasks,
    yielded as they finish: each result comes with the index its task gives, for merging in order.

    `work` must be a module-level function, and tasks plain data: both travel to the workers.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}' (backends: {', '.join(BACKENDS)})")
    if backend == "ray":
        return _ray_results(work, tasks, address)
    if jobs == 1:
        return (work(task) for task in tasks)
    return _pool_results(work, tasks, jobs)


def _pool_results(work: Callable[[Task], tuple[int, Done]], tasks: list[Task], jobs: int) -> Iterator[tuple[int, Done]]:
    """Tasks run by a pool of processes, yielded as they finish (a dead worker's run again: workers.py)."""
    with Workers[int](jobs) as pool:
        for key, task in enumerate(tasks):
            pool.submit(key, work, task)
        for _, result in pool.finished():
            yield result


def _ray_results(work: Callable[[Task], tuple[int, Done]], tasks: list[Task], address: str | None
                 ) -> Iterator[tuple[int, Done]]:
    """Tasks run as Ray tasks (a local Ray instance unless an address is given).

    What Ray prints itself (a dead worker, an autoscaler note) goes to stderr, never to stdout:
    stdout may be the JSON a script reads.
    """
    with ray_output_to_stderr():
        ray, started_here = ray_connect(address)
        remote = ray.remote(work)
        pending: list[Any] = [remote.remote(task) for task in tasks]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started_here:
                ray.shutdown()
