"""Shared bits of the networked-table tests: a recording client, an in-process host, the command's host."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.network.codes import new_codes
from interpreter.play.network.host import Host, Limits
from interpreter.play.network.protocol import HEADER, MAX_FROM_HOST, VERSION, decode, encode
from interpreter.play.network.table import Table

ROOT = Path(__file__).resolve().parents[1]
SEED = 8734592837461234567  # long enough that finding it by chance in a screen is impossible


class Recorder:
    """A programmatic client: every byte it receives is kept in `raw`, every message in `messages`."""

    def __init__(self, port: int, code: str | None, pick: Callable[["Recorder", dict[str, Any]], str | None],
                 host: str = "127.0.0.1", delay: float = 0.0):
        self.host, self.port, self.code, self.pick, self.delay = host, port, code, pick, delay
        self.raw = bytearray()
        self.messages: list[dict[str, Any]] = []
        self.asks: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        """Open the connection and say hello."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self.reader, self.writer = reader, writer
        hello: dict[str, Any] = {"type": "watch", "version": VERSION} if self.code is None else \
            {"type": "join", "version": VERSION, "code": self.code}
        writer.write(encode(hello))

    async def receive(self) -> dict[str, Any] | None:
        """The next message (None once the host closed)."""
        try:
            head = await self.reader.readexactly(HEADER.size)
            (size,) = HEADER.unpack(head)
            assert size <= MAX_FROM_HOST
            body = await self.reader.readexactly(size)
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        self.raw += head + body
        message = decode(body)
        self.messages.append(message)
        return message

    def send(self, message: dict[str, Any]) -> None:
        """Send a message to the host."""
        assert self.writer is not None
        self.sent.append(message)
        self.writer.write(encode(message))

    async def play(self, until: Callable[[dict[str, Any]], bool] = lambda m: False) -> dict[str, Any] | None:
        """Answer every question with `pick` until the host closes or `until(message)`; the last message."""
        while True:
            message = await self.receive()
            if message is None or until(message):
                return message
            if message["type"] == "ask":
                self.asks.append(message)
                if self.delay:
                    await asyncio.sleep(self.delay)  # a person thinking: other things happen meanwhile
                option = self.pick(self, message)
                if option is None:
                    return message
                self.send({"type": "answer", "ask": message["ask"], "option": option})
            if message["type"] in ("end", "stopped", "refused"):
                return message

    def close(self) -> None:
        """Drop the connection."""
        if self.writer is not None:
            self.writer.close()

    def text(self) -> str:
        """Everything received, as text."""
        return self.raw.decode("utf-8", "replace")  # (the length headers are not text)


def random_picker(seed: int) -> Callable[[Recorder, dict[str, Any]], str]:
    """Answers with a seeded random option."""
    rng = random.Random(seed)
    return lambda client, ask: str(rng.choice(ask["options"])[0])


def fast_saves(monkeypatch: Any) -> None:
    """Skip fsync in an in-process host's saves: a long game saves after every choice, and on a busy
    shared disk the syncs alone take seconds (what is saved, and when, is unchanged)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def new_table(game: str, kinds: list[str], path: Path, seed: int = SEED, cap: int = 20_000) -> tuple[Table, list[str | None]]:
    """A table for an in-process host, its journal at `path`."""
    engine = Engine(load_game(game))
    names = ["Ana", "Ben", "Chloé", "Dev", "Eli", "Farah"][: len(kinds)]
    journal = Journal(game, len(kinds), seed, names, kinds)
    journal.save(path, new=True)
    return Table(engine, journal, kinds, path, cap), new_codes(kinds)


async def start_host(table: Table, codes: list[str | None], limits: Limits = Limits(),
                     said: list[str] | None = None) -> tuple[Host, asyncio.Task[None]]:
    """Serve `table` on a free localhost port; the host and its task."""
    host = Host(table, codes, limits, say=(said.append if said is not None else lambda text: None))
    opened = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(host.serve("127.0.0.1", 0, opened.set_result))
    await asyncio.wait_for(asyncio.shield(opened), 30)
    return host, task


class HostProcess:
    """`cityrules host ...` in a child process; the join lines it printed, parsed."""

    LINE = re.compile(r"^\s+(\S+):\s+cityrules join (\S+):(\d+) --code (\S+)$")

    def __init__(self, *args: str, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "host", *args], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **(env or {})})
        self.codes: dict[str, str] = {}
        self.port = 0
        self.out: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.append(line)
            found = self.LINE.match(line.rstrip("\n"))
            if found:
                self.codes[found.group(1)] = found.group(4)
                self.port = int(found.group(3))
            if line.startswith("Spectators:"):
                return
        raise AssertionError("the host did not open: " + "".join(self.out) + self.proc.stderr.read())  # type: ignore[union-attr]

    def kill(self) -> None:
        """kill -9."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def finish(self, timeout: float = 60) -> str:
        """Wait for the host to end; everything it printed."""
        out, err = self.proc.communicate(timeout=timeout)
        return "".join(self.out) + out + err
