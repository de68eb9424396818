"""Worker processes for batches of games that survive the death of one of them.

A worker killed from outside (the out-of-memory killer, `kill -9`) breaks a pool of processes, and
every task it was running is lost with it. Tasks here are functions of their data (a slice of seeds,
a trial game), so a fresh pool runs the unfinished ones again and the batch gives the same result.
A task that kills every worker it runs on stops the batch with WorkerDied after MAX_DEATHS deaths in
a row. Workers ignore Ctrl-C: the parent stops them all at once (`close`), without their tracebacks.
"""

from __future__ import annotations

import concurrent.futures
import gc
import multiprocessing
import signal
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, Callable, Generic, Hashable, Iterator, TypeVar

Key = TypeVar("Key", bound=Hashable)

# Deaths of the pool in a row (no task's result taken between them) after which it stops rather
# than start its unfinished tasks again.
MAX_DEATHS = 3


class WorkerDied(ChildProcessError):
    """Worker processes kept dying before any unfinished task could finish (the command line reports
    it as a failed child process, without a traceback)."""


_settled = False


def settle() -> None:
    """Leave what this process holds now (a game, its trained value, what its formulas remember)
    out of the garbage collector's full passes, once per process: it lives as long as the process,
    and a full pass over it paused a bot's decision for 20-30 ms now and then (benchmarks/matches.py
    measures the collector's share). The cycles already unreachable are collected first."""
    global _settled
    if not _settled:
        _settled = True
        gc.collect()
        gc.freeze()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them all at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Workers(Generic[Key]):
    """A pool of `jobs` processes running tasks named by keys; a dead worker's tasks run again."""

    def __init__(self, jobs: int, start_method: str | None = None):
        # fork where there is one (unless told): the workers start at once, and inherit what the
        # parent has loaded.
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context(start_method or ("fork" if "fork" in methods else "spawn"))
        self._jobs = jobs
        self._tasks: dict[Key, tuple[Callable[..., Any], tuple[Any, ...]]] = {}
        self._futures: dict[Key, Future[Any]] = {}
        self._deaths = 0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def submit(self, key: Key, work: Callable[..., Any], *args: Any) -> None:
        """Start `work(*args)` (a module-level function and plain data: both travel to a worker)."""
        self._tasks[key] = (work, args)
        self._futures[key] = self._executor().submit(work, *args)

    def pending(self) -> int:
        """Tasks submitted whose results have not been taken."""
        return len(self._tasks)

    def __contains__(self, key: object) -> bool:
        """Whether task `key` was submitted and its result not taken yet."""
        return key in self._tasks

    def result(self, key: Key) -> Any:
        """The result of task `key`, once it has finished (raises what the task raised)."""
        while True:
            try:
                value = self._futures[key].result()
            except BrokenProcessPool:
                self._restart()
                continue
            return self._taken(key, value)

    def finished(self) -> Iterator[tuple[Key, Any]]:
        """Every submitted task's key and result, as they finish."""
        while self._tasks:
            keys = {future: key for key, future in self._futures.items()}
            try:
                for future in concurrent.futures.as_completed(keys):
                    key = keys[future]
                    yield key, self._taken(key, future.result())
            except BrokenProcessPool:
                self._restart()

    def close(self) -> None:
        """Stop now: unstarted tasks dropped, running ones killed (Ctrl-C, a batch closed early)."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        processes = list((pool._processes or {}).values())
        result_queue = pool._result_queue        # (shutdown lets go of it)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        # A worker killed while sending a result leaves half a message in the result pipe: the pool's
        # manager thread then waits for the rest for ever, and the interpreter, which joins that
        # thread at exit, never exits (a batch stopped by Ctrl-C hung after its report, now and then).
        # Every worker is gone; closing our own end for writing lets that wait end (end of file).
        if result_queue is not None:
            result_queue._writer.close()    # type: ignore[attr-defined]  # (its reader is being read)

    def __enter__(self) -> "Workers[Key]":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(self._jobs, mp_context=self._context,
                                                                initializer=_ignore_interrupts)
        return self._pool

    def _taken(self, key: Key, value: Any) -> Any:
        del self._tasks[key], self._futures[key]
        self._deaths = 0
        return value

    def _restart(self) -> None:
        """A worker died: a fresh pool runs again every unfinished task (those finished before the
        death keep their results)."""
        self._deaths += 1
        self.close()
        if self._deaths >= MAX_DEATHS:
            raise WorkerDied(f"a worker process died {self._deaths} times in a row, with {len(self._tasks)} "
                             "unfinished part(s) of the batch; stopped")
        for key, (work, args) in self._tasks.items():
            future = self._futures[key]
            if not (future.done() and not future.cancelled() and future.exception() is None):
                self._futures[key] = self._executor().submit(work, *args)
