"""A real local Ray cluster for a test: `ray start --head` in a temp dir of its own, on free ports,
stopped by killing its own processes (never `ray stop`, which stops every Ray cluster of the machine)."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

RAY = Path(sys.executable).with_name("ray")
# Ports for the cluster's workers, from the first of the range.
WORKER_PORTS = 40


def free_port() -> int:
    """A TCP port nobody listens on now."""
    [port] = free_ports(1)
    return port


def free_ports(count: int) -> list[int]:
    """`count` distinct TCP ports nobody listens on now: each is held until all are chosen, since the
    system may hand a port just released to the next asker (the dashboard's and the metrics' ports
    came out equal once, and Ray refused to start)."""
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket()
            held.append(s)
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in held]
    finally:
        for s in held:
            s.close()


def node_ip() -> str:
    """The address Ray's node processes listen on, found as Ray finds it (the source address of a
    route out; a UDP connect sends nothing), or the loopback without a route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("8.8.8.8", 80))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _mentions(pid: int, text: str) -> bool:
    try:
        return text in Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return False


def children(parent: int) -> list[int]:
    """The processes whose parent is `parent` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == parent:
                found.append(int(entry.name))
    return found


class Cluster:
    """A Ray head node on this machine: its GCS address, its client (ray://) address, its processes."""

    def __init__(self, temp_dir: Path):
        # Ray's socket paths must stay short (107 bytes): a temp dir of its own under /tmp.
        self.temp_dir = temp_dir
        (self.port, self.client_port, self.runtime_env_port, node_manager, object_manager, agent_listen, agent_grpc,
         metrics, dashboard) = free_ports(9)
        # Ray's client server (ray:// addresses) runs only where Ray's client (grpc) is installed.
        self.serves_clients = importlib.util.find_spec("grpc") is not None
        # The runtime-environment port: the agent a ray:// client's own server asks as it starts.
        ports = {"--port": self.port, "--node-manager-port": node_manager, "--object-manager-port": object_manager,
                 "--dashboard-agent-listen-port": agent_listen, "--dashboard-agent-grpc-port": agent_grpc,
                 "--metrics-export-port": metrics, "--runtime-env-agent-port": self.runtime_env_port,
                 "--dashboard-port": dashboard}
        # The workers' range is chosen last, clear of every port above: the system hands out free
        # ports close to each other, so a range started first took the next ones, and Ray refused to
        # start ("worker_ports is trying to use a port number ... used by other components").
        taken = set(ports.values()) | {self.client_port}
        worker = free_port()
        while any(worker <= port <= worker + WORKER_PORTS for port in taken):
            worker = free_port()
        ports.update({"--min-worker-port": worker, "--max-worker-port": worker + WORKER_PORTS})
        if self.serves_clients:
            ports["--ray-client-server-port"] = self.client_port
        args = [str(RAY), "start", "--head", "--num-cpus", "2", "--temp-dir", str(temp_dir), "--include-dashboard",
                "false", "--disable-usage-stats", "--block", *[str(x) for kv in ports.items() for x in kv]]
        # A ray:// client's own server process must start within this many seconds (Ray's default,
        # 30, is too short on a busy 2-core machine). Not much more: when that server dies as it
        # starts (forked while gRPC's threads were busy), the proxy waits this long before it
        # starts another, and a run here waited 180 s.
        env = {**os.environ, "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "90"}
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                                     env=env)
        deadline = time.monotonic() + 180
        while not self._listening():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                assert self.proc.stderr is not None
                raise RuntimeError("the Ray head did not start: " + self.proc.stderr.read().decode()[-2000:])
            time.sleep(0.5)

    @property
    def address(self) -> str:
        """HOST:PORT of the cluster's GCS, as `ray start --head --port` prints it (on the loopback)."""
        return f"127.0.0.1:{self.port}"

    @property
    def client_address(self) -> str:
        """The ray:// address of the cluster's client server."""
        return f"ray://127.0.0.1:{self.client_port}"

    def _listening(self) -> bool:
        # With clients served, the runtime-environment agent too: Ray's client proxy asks it, with a
        # few retries, before it starts a client's own server, and a ray:// test failed under CI's
        # load with "Starting Ray client server failed" (the agent listens on the node's address).
        ports = [("127.0.0.1", self.port)]
        if self.serves_clients:
            ports += [("127.0.0.1", self.client_port), (node_ip(), self.runtime_env_port)]
        for where in ports:
            try:
                with socket.create_connection(where, timeout=1):
                    pass
            except OSError:
                return False
        return True

    def client_server_logs(self, lines: int = 40) -> str:
        """The last lines of the logs of the cluster's client proxy and of each client's own server: what
        a failed ray:// test shows, since the cluster and its temp dir are gone when the run ends."""
        parts = []
        for log in sorted((self.temp_dir / "session_latest" / "logs").glob("ray_client_server*")):
            tail = log.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.name}\n" + "\n".join(tail))
        return "\n".join(parts)

    def raylet(self) -> int | None:
        """The process id of this cluster's raylet."""
        for pid in self.pids():
            if _mentions(pid, "raylet/raylet"):
                return pid
        return None

    def pids(self) -> list[int]:
        """Every process of this cluster: those that name its temp dir, and their children."""
        own = {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _mentions(int(p.name), str(self.temp_dir))}
        own.add(self.proc.pid)
        for pid in list(own):
            own.update(children(pid))
        return sorted(own)

    def stop(self) -> None:
        """Kill this cluster's processes (its own ids only), the `ray start` one last."""
        for _ in range(3):
            pids = [p for p in self.pids() if p != os.getpid()]
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.5)
        self.proc.wait(timeout=30)
