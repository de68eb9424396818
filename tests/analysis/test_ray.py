"""--backend ray: the same figures as one process, from a local Ray instance.

Kept small (Ray is slow to start) and run in its own process, as a user runs it, so that Ray's
threads never share a process with the tests that fork workers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.analysis.figures import timing_free
from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_ray_backend_gives_the_same_figures_as_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--bots", "random", "downtown", "-n", "12", "--players", "3", "--json"]
    assert main([*args, "--jobs", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", *args, "--backend", "ray"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    on_ray = json.loads(done.stdout)
    assert on_ray["run"] == {"jobs": None, "backend": "ray"}
    assert json.dumps(timing_free(local)) == json.dumps(timing_free(on_ray))


def test_training_on_ray_writes_the_same_file_as_one_process(tmp_path: Path) -> None:
    """`cityrules train --backend ray` plays the same self-play games and fits the same value: the
    file is the same byte for byte as one local process's."""
    args = ["train", str(ROOT / "examples" / "harbour"), "--rounds", "2", "--games", "6", "--no-progress"]
    one, two = tmp_path / "one.json", tmp_path / "ray.json"
    assert main([*args, "--jobs", "1", "--out", str(one)]) == 0
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", *args, "--backend", "ray", "--out", str(two)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert one.read_bytes() == two.read_bytes()
    assert json.loads(one.read_text())["network"], "a fitted network, not an empty file"
