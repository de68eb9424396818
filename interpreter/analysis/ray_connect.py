"""Joining a Ray cluster (or starting Ray here) for `--backend ray`, with one-line errors.

`--address HOST:PORT` (a cluster's GCS port, as `ray start --head --port` prints it), `--address
ray://HOST[:PORT]` (Ray's client server, port 10001 unless given) and `--address auto` (the cluster
this machine belongs to) join a cluster; no address starts Ray on this machine. Whatever goes
wrong (no cluster answering within RAY_WAIT_SECONDS, Ray's client not installed, Ray unable to start)
is one line, as a ValueError the CLI prints; what Ray itself prints never reaches stdout.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RAY_WAIT_SECONDS = 30.0
CLIENT_PORT = 10001     # Ray's client server, the port of ray:// addresses by default
_AUTH_MODE = "RAY_AUTH_MODE"
# Joining a ray:// address is tried this many times while the cluster answers that it could not start
# the connection's own server (what Ray's client proxy says, first line, when that server dies starting).
CLIENT_ATTEMPTS = 3
CLIENT_RETRY_SECONDS = 1.0
_SERVER_START_FAILED = "Initialization failure from server"


def parse_address(address: str) -> tuple[str, int]:
    """The host and port of `HOST:PORT`, `[IPv6]:PORT` or `ray://HOST[:PORT]`."""
    client = address.startswith("ray://")
    rest = address[len("ray://"):] if client else address
    rest = rest.split("/", 1)[0]
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    else:
        host, _, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not port_text and client:
        return host, CLIENT_PORT
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"--address {address}: write the cluster's address as HOST:PORT, ray://HOST:PORT or auto")
    return host, int(port_text)


def wait_for(address: str, seconds: float | None = None) -> None:
    """Wait until something listens at the address, at most `seconds` (RAY_WAIT_SECONDS); else a one-line ValueError."""
    seconds = RAY_WAIT_SECONDS if seconds is None else seconds
    host, port = parse_address(address)
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection((host, port), timeout=max(0.1, min(2.0, deadline - time.monotonic()))):
                return
        except OSError:
            if time.monotonic() >= deadline:
                raise ValueError(f"--address {address}: no Ray cluster answers there (waited {seconds:.0f} s); "
                                 "start one with 'ray start --head', or leave --address out to run Ray "
                                 "on this machine") from None
            time.sleep(0.5)


def _token_available() -> bool:
    """A Ray cluster token on this machine (Ray looks in these places, in this order)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(path).is_file() if path else (Path.home() / ".ray" / "auth_token").is_file()


def _first_line(err: BaseException) -> str:
    """The gist of a Ray error in one line: its first line, and its last when the first announces more."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    if not lines:
        return type(err).__name__
    text = f"{lines[0]} {lines[-1]}" if lines[0].endswith(":") and len(lines) > 1 else lines[0]
    return text[:300]


def ray_connect(address: str | None) -> tuple[Any, bool]:
    """Ray, joined to the cluster at `address` or started here (address None) for a batch, and whether
    this call started it (False when this process had joined Ray already)."""
    if importlib.util.find_spec("ray") is None:
        raise ValueError("--backend ray needs Ray: pip install 'cityrules[ray]'")
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address is not None and address != "auto":
        if address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
            raise ValueError(f"--address {address}: ray:// addresses need Ray's client: pip install 'cityrules[ray]'")
        wait_for(address)
        if _AUTH_MODE not in os.environ and _token_available():
            # Ray sends this machine's cluster token only to clusters it finds itself (no address, or
            # auto): a cluster named by its address (GCS or ray://), started with token authentication
            # (Ray's default for `ray start`), would refuse the batch. Ray reads this when first imported.
            os.environ[_AUTH_MODE] = "token"
    import ray
    if ray.is_initialized():
        return ray, False
    client = address is not None and address.startswith("ray://")
    if not client:
        options["include_dashboard"] = False
    attempt = 1
    while True:
        try:
            with _quiet():
                ray.init(address=address, **options)
            return ray, True
        except Exception as err:  # Ray's failures come in many classes; each is one line to the user
            try:
                ray.shutdown()
            except Exception:
                pass
            if client and _SERVER_START_FAILED in str(err) and attempt < CLIENT_ATTEMPTS:
                # The cluster's client proxy starts a server of our own for each connection; on a busy
                # head node that start can fail once (the server exits as it starts) and the next works.
                time.sleep(CLIENT_RETRY_SECONDS)
                attempt += 1
                continue
            where = f"could not join the Ray cluster at {address}" if address else "Ray could not start on this machine"
            raise ValueError(f"--backend ray: {where}: {_first_line(err)}") from None


@contextmanager
def _quiet() -> Iterator[None]:
    """Drop what Ray prints while it starts or connects (retries, notes): a failure says it in one line."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as sink:
        try:
            saved = [os.dup(1), os.dup(2)]
        except OSError:   # no standard outputs to protect
            yield
            return
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


@contextmanager
def ray_output_to_stderr() -> Iterator[None]:
    """Send whatever is written to stdout meanwhile to stderr: Python's writes and native ones alike."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:
        yield
        return
    os.dup2(2, 1)
    before = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stderr.flush()
        sys.stdout = before
        os.dup2(saved, 1)
        os.close(saved)
