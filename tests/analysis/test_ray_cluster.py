"""--backend ray against a real Ray cluster started by the test: joined by HOST:PORT and ray://, with
stdout that stays JSON when a worker dies; and the one-line errors when no cluster answers or Ray
cannot start. The cluster is this test's own (its temp dir, free ports) and is stopped by killing
its own processes. Kept few and small: Ray is slow to start on a busy machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.analysis import ray_connect
from interpreter.analysis.figures import timing_free
from interpreter.cli import main
from ray_helpers import Cluster, children, free_port

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["simulate", "--bots", "random", "downtown", "--players", "3", "--json"]
# Every test here on one pytest-xdist worker, so one cluster serves them all: two clusters' ray://
# proxies started together both found port 23000 free for a client's own server (Ray picks it by
# trying to bind, from a fixed range), and one of them then failed ("Starting Ray client server failed").
pytestmark = pytest.mark.xdist_group("ray-cluster")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    import tempfile
    with tempfile.TemporaryDirectory(prefix="cr-ray-", dir="/tmp") as tmp:
        head = Cluster(Path(tmp))
        try:
            yield head
        finally:
            head.stop()


def _env() -> dict[str, str]:
    """This tree first on the path of a command run in a subprocess (then what the test's path holds)."""
    path = os.pathsep.join([str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
    return {**os.environ, "PYTHONPATH": path}


def _simulate(games: int, *more: str, during: Any = None) -> subprocess.CompletedProcess[str]:
    env = _env()
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", *ARGS, "-n", str(games), *more], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if during is not None:
        during(proc)
    out, err = proc.communicate(timeout=600)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _local(games: int, capsys: pytest.CaptureFixture[str]) -> Any:
    assert main([*ARGS, "-n", str(games), "--jobs", "1"]) == 0
    return timing_free(json.loads(capsys.readouterr().out))


def test_a_cluster_is_joined_by_host_and_port(cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    done = _simulate(12, "--backend", "ray", "--address", cluster.address)
    assert done.returncode == 0, done.stderr[-3000:]
    on_ray = json.loads(done.stdout)
    assert on_ray["run"] == {"jobs": None, "backend": "ray"}
    assert json.dumps(timing_free(on_ray)) == json.dumps(_local(12, capsys))


def test_a_cluster_is_joined_by_a_ray_client_address(cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    done = _simulate(6, "--backend", "ray", "--address", cluster.client_address)
    if importlib.util.find_spec("grpc") is None:
        # Without Ray's client (the ray extra installs it), the error names what to install, in one line.
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip().splitlines() == [
            f"cityrules simulate: --address {cluster.client_address}: ray:// addresses need Ray's client: "
            "pip install 'cityrules[ray]'"]
        return
    assert done.returncode == 0, done.stderr[-3000:] + "\n" + cluster.client_server_logs()
    assert json.dumps(timing_free(json.loads(done.stdout))) == json.dumps(_local(6, capsys))


def test_a_dead_worker_leaves_stdout_json_and_the_figures_whole(cluster: Cluster,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    killed: list[int] = []

    def kill_one_busy_worker(proc: subprocess.Popen[str]) -> None:
        def watch() -> None:
            deadline = time.monotonic() + 120
            while not killed and proc.poll() is None and time.monotonic() < deadline:
                raylet = cluster.raylet()
                for pid in children(raylet) if raylet else []:
                    try:
                        title = Path(f"/proc/{pid}/cmdline").read_bytes()
                    except OSError:
                        continue
                    if title.startswith(b"ray::_play_indexed"):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        return
                time.sleep(0.05)
        threading.Thread(target=watch, daemon=True).start()

    done = _simulate(600, "--backend", "ray", "--address", cluster.address, during=kill_one_busy_worker)
    assert killed, "no worker was seen playing"
    assert done.returncode == 0, done.stderr[-3000:]
    assert "worker died" in done.stderr     # Ray's own line: on stderr, not ahead of the JSON
    assert json.dumps(timing_free(json.loads(done.stdout))) == json.dumps(_local(600, capsys))


def test_no_cluster_at_the_address_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(ray_connect, "RAY_WAIT_SECONDS", 1.0)   # (30 s as shipped)
    port = free_port()
    started = time.monotonic()
    assert main([*ARGS, "-n", "3", "--backend", "ray", "--address", f"127.0.0.1:{port}"]) == 2
    assert time.monotonic() - started < 20
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"cityrules simulate: --address 127.0.0.1:{port}: no Ray cluster answers there (waited 1 s); "
                                "start one with 'ray start --head', or leave --address out to run Ray on this machine"]


def test_a_local_ray_that_cannot_start_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**_env(), "RAY_TMPDIR": str(blocker / "ray")}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", *ARGS, "-n", "3", "--backend", "ray"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("cityrules simulate: --backend ray: Ray could not start on this machine: ") and "Not a directory" in line
