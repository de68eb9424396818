"""Worker processes: a worker killed mid-task (out of memory, `kill -9`) costs time, never a result."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from interpreter.core.workers import MAX_DEATHS, WorkerDied, Workers


def _square_dying_once(marker: str, n: int) -> int:
    """n², except that the worker computing 3² is killed the first time."""
    if n == 3 and not os.path.exists(marker):
        Path(marker).write_text("killed once")
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def _square_dying_always(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


@pytest.mark.timeout(300)
def test_results_as_they_finish_survive_a_killed_worker(tmp_path: Path) -> None:
    marker = str(tmp_path / "marker")
    with Workers[int](2) as pool:
        for n in range(8):
            pool.submit(n, _square_dying_once, marker, n)
        got = dict(pool.finished())
    assert os.path.exists(marker)
    assert got == {n: n * n for n in range(8)} and pool.pending() == 0


@pytest.mark.timeout(300)
def test_results_taken_in_order_survive_a_killed_worker(tmp_path: Path) -> None:
    marker = str(tmp_path / "marker")
    with Workers[str](2, "fork") as pool:
        for n in range(6):
            pool.submit(f"task {n}", _square_dying_once, marker, n)
        got = [pool.result(f"task {n}") for n in range(6)]
    assert os.path.exists(marker)
    assert got == [n * n for n in range(6)]


@pytest.mark.timeout(300)
def test_a_task_that_kills_every_worker_stops_with_an_error_not_a_hang() -> None:
    got: dict[int, int] = {}
    with Workers[int](2) as pool:
        for n in range(5):
            pool.submit(n, _square_dying_always, n)
        with pytest.raises(WorkerDied, match=f"died {MAX_DEATHS} times in a row"):
            for n, square in pool.finished():
                got[n] = square
    assert 3 not in got
