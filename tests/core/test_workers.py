"""Worker processes: a worker killed mid-task (out of memory, `kill -9`) costs time, never a result."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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


def test_a_process_that_played_a_batch_slice_keeps_what_it_loaded_out_of_the_collector() -> None:
    # In a fresh process (this one may have settled already): after its first game, the game, its
    # value and what its formulas remember are frozen once, so that no later full pass over them
    # pauses a bot's decision (benchmarks/matches.py measures it).
    script = (
        "import gc\n"
        "from interpreter.analysis.batch import BatchSpec, play_slice\n"
        "from interpreter.load.games import resolve_game\n"
        "spec = BatchSpec(str(resolve_game('downtown')), None, 4, ('random',) * 4, 0, 3)\n"
        "assert gc.get_freeze_count() == 0\n"
        "play_slice(spec, range(0, 1))\n"
        "first = gc.get_freeze_count()\n"
        "play_slice(spec, range(1, 3))\n"
        "print(first, gc.get_freeze_count())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    first, later = int(out[0]), int(out[1])
    assert first > 10_000 and later <= first     # frozen once (what is freed since leaves the count)
