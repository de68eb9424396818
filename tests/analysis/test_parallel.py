"""Batches over processes: a worker that dies (killed, out of memory) loses no game and hangs nothing."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from analysis_helpers import figures_of, spec_of
from interpreter.analysis import parallel
from interpreter.analysis.batch import BatchSpec, play_slice
from interpreter.analysis.figures import timing_free
from interpreter.analysis.parallel import run_batch
from interpreter.analysis.tally import Tally
from interpreter.cli import main


def _killing_first_time(marker: Path, seed: int) -> Any:
    """play_slice, except that the worker playing `seed` is killed the first time (as the system's
    out-of-memory killer or a `kill -9` would), mid-batch."""
    def dying(spec: BatchSpec, seeds: range) -> Tally:
        if seed in seeds and not marker.exists():
            marker.write_text("killed once")
            os.kill(os.getpid(), signal.SIGKILL)
        return play_slice(spec, seeds)
    return dying


@pytest.mark.timeout(300)
def test_a_killed_worker_loses_no_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of("downtown", 24, keep_games=True)
    alone = figures_of(run_batch(spec, 1))
    monkeypatch.setattr(parallel, "play_slice", _killing_first_time(tmp_path / "marker", 9))
    survived = run_batch(spec, 2)
    assert (tmp_path / "marker").exists()           # a worker really died
    assert not survived.interrupted and survived.tally.games == 24
    assert survived.seed_ranges == [(0, 23)]
    as_json = [json.dumps(timing_free(f), sort_keys=True) for f in (alone, figures_of(survived))]
    assert as_json[0] == as_json[1]


@pytest.mark.timeout(300)
def test_simulate_says_so_when_its_workers_keep_dying(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def dying(spec: BatchSpec, seeds: range) -> Tally:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")
    monkeypatch.setattr(parallel, "play_slice", dying)
    code = main(["simulate", "downtown", "-n", "8", "--jobs", "2", "--bots", "random", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1
    assert "cityrules simulate: a worker process died 3 times in a row" in err
    assert "Traceback" not in err
