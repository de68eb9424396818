"""A scripted LSP client: starts `cityrules lsp` as an editor would and talks JSON-RPC over its stdio."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent


def _path_with(root: Path) -> str:
    """PYTHONPATH with this tree first: the server runs in a game's folder, and must run this tree's code."""
    return os.pathsep.join([str(root), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])


def uri(path: Path) -> str:
    """The file URI an editor sends for a path."""
    found = from_fs_path(str(path.resolve()))
    assert found is not None
    return str(found)


def find(path: Path, text: str) -> tuple[int, int]:
    """0-based line and character of the first occurrence of a text in a file (as on disk)."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if text in line:
            return n, line.index(text)
    raise AssertionError(f"{text!r} is not in {path}")


class Client:
    """An editor connected to `cityrules lsp`: requests, notifications, and what the server sends back."""

    def __init__(self, cwd: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "interpreter.cli", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": _path_with(ROOT)})
        self.next_id = 0
        self.incoming: queue.Queue[dict[str, Any]] = queue.Queue()
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.arrivals: list[tuple[float, str]] = []   # (time, uri) of every publishDiagnostics
        self.versions: dict[str, int] = {}
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": os.getpid(), "rootUri": uri(cwd), "capabilities": {}})
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    return
                header += byte
            length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            message = json.loads(out.read(length))
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self.diagnostics[params["uri"]] = params["diagnostics"]
                self.arrivals.append((time.perf_counter(), params["uri"]))
            self.incoming.put(message)

    def send(self, message: dict[str, Any]) -> None:
        """Write one JSON-RPC message to the server."""
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_raw(self, data: bytes) -> None:
        """Write bytes to the server as they are (for malformed messages)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def next_error(self, timeout: float = 30) -> dict[str, Any]:
        """The next error answer the server sends that belongs to no request (its id is null)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.incoming.get(timeout=max(0.01, deadline - time.monotonic()))
            if "error" in message and message.get("id") is None and "method" not in message:
                error: dict[str, Any] = message["error"]
                return error

    def notify(self, method: str, params: dict[str, Any]) -> None:
        """Send a notification (no answer expected)."""
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any], timeout: float = 60) -> Any:
        """Send a request and wait for its answer (other messages keep arriving meanwhile)."""
        self.next_id += 1
        wanted = self.next_id
        self.send({"id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self.incoming.get(timeout=max(0.01, deadline - time.monotonic()))
            if message.get("id") == wanted and "method" not in message:
                assert "error" not in message, message["error"]
                return message.get("result")

    def answer(self, wanted: int, timeout: float = 60) -> dict[str, Any]:
        """The whole answer to a request sent with `send` (an error answer too)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.incoming.get(timeout=max(0.01, deadline - time.monotonic()))
            if message.get("id") == wanted and "method" not in message:
                return message

    def open(self, path: Path, text: str | None = None) -> str:
        """Open a file in the editor (its text as on disk unless given)."""
        u = uri(path)
        self.versions[u] = 1
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "yaml" if path.suffix == ".yaml" else "cityrules", "version": 1,
            "text": path.read_text(encoding="utf-8") if text is None else text}})
        return u

    def replace(self, path: Path, line: int, start: int, end: int, new: str) -> None:
        """Type over characters [start, end) of a 0-based line, as an editor's incremental change."""
        u = uri(path)
        self.versions[u] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": self.versions[u]},
            "contentChanges": [{"range": {"start": {"line": line, "character": start},
                                          "end": {"line": line, "character": end}}, "text": new}]})

    def type_at(self, path: Path, text: str, skip: int, length: int, new: str) -> tuple[int, int, list[dict[str, Any]]]:
        """Type `new` over `length` characters, `skip` characters after the first `text` of an open file.

        Returns the 0-based line and character where the typing starts, and the file's diagnostics after it.
        """
        line, col = find(path, text)
        before = time.perf_counter()
        self.replace(path, line, col + skip, col + skip + length, new)
        return line, col + skip, self.wait_diagnostics(uri(path), before)

    def wait_diagnostics(self, u: str, after: float, timeout: float = 60) -> list[dict[str, Any]]:
        """The diagnostics of a file published after a moment (perf_counter), waiting for them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(t >= after and where == u for t, where in list(self.arrivals)):
                return self.diagnostics[u]
            time.sleep(0.005)
        raise TimeoutError(f"no diagnostics for {u}")

    def position(self, u: str, line: int, character: int) -> dict[str, Any]:
        """Request parameters for a place in a document."""
        return {"textDocument": {"uri": u}, "position": {"line": line, "character": character}}

    def close(self) -> str:
        """End the session as an editor does; returns what the server wrote to stderr."""
        try:
            self.request("shutdown", {}, timeout=10)
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", "replace")
