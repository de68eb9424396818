"""The host's server: seats' clients and spectators over asyncio streams, one game loop.

One task plays the game (bots, saving, sending each connection its screen and question); one task
per connection reads that client's messages, and one writes to it from a bounded queue. Whatever a
client does (garbage, a huge or unfinished message, a flood, silence, not reading) only ever
closes that client's connection: the game loop never waits for a client.

A bot thinks on a worker thread, on a copy of the state, so a slow bot never stops the loop: pings
and commands are answered meanwhile. The state is changed only on the loop, and a human's answer
that arrives while a bot thinks is applied right after the bot's (the bot chose for the state it
was given, so the journal is the same whatever the timing of that thinking).
"""

from __future__ import annotations

import asyncio
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from ruledsl.printable import printable

from ...core.state import copy_state
from . import screens
from .codes import seat_of
from .protocol import (
    BODY_TIMEOUT,
    MAX_FROM_CLIENT,
    VERSION,
    Closed,
    ProtocolError,
    encode,
    int_field,
    read_message,
    text_field,
)
from .screens import styled
from .table import Table


@dataclass(frozen=True)
class Limits:
    """What the host tolerates from a connection before dropping it."""

    hello_timeout: float = 10.0   # seconds from connecting to saying who it is
    idle_timeout: float = 90.0    # seconds without a message (clients ping every PING seconds)
    body_timeout: float = BODY_TIMEOUT  # seconds from a message's first byte to its last
    rate: float = 20.0            # messages a second, sustained...
    burst: float = 60.0           # ...and in a burst
    queue: int = 512              # messages waiting for a client that does not read
    write_timeout: float = 30.0   # seconds a client may take to accept what was sent
    # Bytes the system may hold for a client that does not read (it would grow to megabytes each).
    send_buffer: int = 256 * 1024
    watchers: int = 32
    connections: int = 128
    publish_every: float = 0.5    # seconds between screens while bots play a long run


class Connection:
    """One client: its seat (None for a spectator), its writer queue and what it was last sent."""

    def __init__(self, writer: asyncio.StreamWriter, limits: Limits, peer: str):
        self.writer = writer
        self.limits = limits
        self.peer = peer
        self.seat: int | None = None
        self.joined = False
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.seen_log: int | None = None
        self.width = screens.WIDTH
        self.before: dict[str, Any] | None = None  # the seat's view when it was last asked
        self.shown: dict[str, Any] | None = None   # ...and in the last screen it was sent
        self.shown_moves = -1
        self.asked: int | None = None
        self.hinting: asyncio.Future[None] | None = None  # a hint being worked out for this client
        self.closed = False
        self.dropped = ""  # why the host cut this connection, when it did
        self.tokens = limits.burst
        self.last = time.monotonic()
        self.pump = asyncio.ensure_future(self._pump())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client that lets too many pile up is dropped."""
        if self.closed:
            return
        if self.queue.qsize() >= self.limits.queue:
            self.drop(f"{self.limits.queue} messages waiting unread")
            return
        self.queue.put_nowait(encode(message))

    def allow(self) -> bool:
        """Take one message from the rate budget; False when the client floods."""
        now = time.monotonic()
        self.tokens = min(self.limits.burst, self.tokens + (now - self.last) * self.limits.rate)
        self.last = now
        self.tokens -= 1
        return self.tokens >= 0

    async def _pump(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    break
                self.writer.write(data)
                await asyncio.wait_for(self.writer.drain(), self.limits.write_timeout)
        except asyncio.TimeoutError:
            self.drop(f"what was sent not read within {self.limits.write_timeout:g} s")
        except (OSError, ConnectionError):
            pass
        finally:
            self.closed = True
            self.writer.close()

    def drop(self, why: str) -> None:
        """Cut a client that does not read at once: what it was sent and did not take is thrown away,
        and its reader sees the end (a graceful close would wait for the unread bytes to go)."""
        if not self.dropped:
            self.dropped = f"dropped: {why}"
        self.closed = True
        self.queue.put_nowait(None)
        self.writer.transport.abort()

    def close(self, last: dict[str, Any] | None = None) -> None:
        """Send `last` (if any) after what is queued, then close."""
        if self.closed:
            return
        if last is not None:
            self.queue.put_nowait(encode(last))
        self.closed = True
        self.queue.put_nowait(None)


class Host:
    """Serves one table until its game ends (or reaches the cap)."""

    def __init__(self, table: Table, codes: list[str | None], limits: Limits = Limits(),
                 say: Callable[[str], None] = print):
        self.table = table
        self.codes = codes
        self.limits = limits
        self.say = say
        self.connections: list[Connection] = []
        self.changed = asyncio.Event()
        self.port = 0
        # One worker: the bots' engine is used by one thread at a time.
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots")
        self.thinking = False
        self.deferred: dict[Connection, dict[str, Any]] = {}  # answers that came while a bot thought

    async def serve(self, bind: str, port: int, ready: Callable[[int], None] = lambda port: None) -> None:
        """Listen on `bind`:`port` (0: any free port), call `ready(port)`, play the game to its end."""
        server = await asyncio.start_server(self._handle, bind, port, limit=MAX_FROM_CLIENT + 64)
        self.port = server.sockets[0].getsockname()[1]
        ready(self.port)
        try:
            await self._play()
        finally:
            server.close()
            for conn in list(self.connections):
                conn.close()
            pumps = [c.pump for c in self.connections]
            if pumps:
                await asyncio.wait(pumps, timeout=5)
            self.worker.shutdown(wait=False, cancel_futures=True)

    async def _play(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            if await self._bot_step():
                if loop.time() - last > self.limits.publish_every:
                    self.publish()
                    last = loop.time()
                await asyncio.sleep(0)  # let the clients' messages in between bot moves
                continue
            self.publish()
            last = loop.time()
            if self.table.over() or self.table.capped():
                break
            self.changed.clear()
            await self.changed.wait()
        self.finish()

    async def _bot_step(self) -> bool:
        """Let one bot answer, thinking on the worker thread; False when no bot may answer now."""
        table = self.table
        seat = table.bot_turn()
        if seat is None:
            return False
        self.thinking = True
        try:
            option = await asyncio.get_running_loop().run_in_executor(
                self.worker, table.bot_pick, seat, copy_state(table.state))
        finally:
            self.thinking = False
        table.bot_answer(seat, option)
        deferred, self.deferred = self.deferred, {}
        for conn, message in deferred.items():
            if not conn.closed:
                self._receive(conn, message)
        return True

    def publish(self) -> None:
        """Save, then send every connection its screen (when the game moved) and its open question."""
        self.table.save()  # nothing is shown that a resumed host would not show again
        for conn in list(self.connections):
            if conn.joined:  # a connection that has not said who it is gets nothing
                self._update(conn)

    def _update(self, conn: Connection) -> None:
        table = self.table
        if conn.shown_moves != table.moves:
            message, conn.seen_log, conn.shown = screens.screen(table.screens, table.state, conn.seat,
                                                                conn.seen_log, conn.before, conn.width, self.absent())
            conn.send(message)
            conn.shown_moves = table.moves
        number = None if conn.seat is None else table.question_number(conn.seat)
        if conn.seat is not None and number is not None and number != conn.asked:
            ask = table.question(conn.seat, conn.width)  # (drawn only when it is new to this client)
            if ask is not None:
                conn.send(ask)
                conn.asked = ask["ask"]
                conn.before = conn.shown  # as in play: the next screens mark what changed since this turn

    def absent(self) -> frozenset[int]:
        """The human seats nobody plays from a terminal now (never joined, left, or cut off)."""
        present = {c.seat for c in self.connections if c.joined}
        return frozenset(s for s in range(len(self.codes)) if self.codes[s] is not None and s not in present)

    def _presence(self, was: frozenset[int], joining: Connection | None = None) -> None:
        """Tell every connection which seats are absent, when that changed since `was` (not
        `joining`: its first screen says it)."""
        now = self.absent()
        if now == was or self.table.over():
            return
        names = screens.absent_names(self.table.names, now)
        for conn in self.connections:
            if conn.joined and not conn.closed and conn is not joining:
                conn.send({"type": "presence", "absent": names})

    def finish(self) -> None:
        """Tell every connection how the game ended (or that it stopped at the cap)."""
        table = self.table
        for conn in list(self.connections):
            if not conn.joined:
                conn.close()
            elif table.over():
                conn.close(screens.ending(table.screens, table.state, conn.seat, conn.seen_log, conn.width))
            else:
                conn.close({"type": "stopped", "reason": f"the game did not end within {table.cap} decisions; "
                                                          "the host saved it"})

    # ------------------------------------------------------------ connections
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        peer = str(writer.get_extra_info("peername"))
        conn = Connection(writer, self.limits, peer)
        self.connections.append(conn)
        reason = "left"
        try:
            if len(self.connections) > self.limits.connections:
                conn.close({"type": "refused", "reason": "the table is full"})
                return
            hello = await read_message(reader, MAX_FROM_CLIENT, self.limits.hello_timeout, self.limits.body_timeout)
            if not self._join(conn, hello):
                return
            while not conn.closed:
                message = await read_message(reader, MAX_FROM_CLIENT, self.limits.idle_timeout, self.limits.body_timeout)
                if not conn.allow():
                    reason = "dropped: too many messages"
                    conn.close({"type": "error", "reason": "too many messages: disconnected"})
                    break
                if self._receive(conn, message):
                    conn.tokens += 1  # an answer the game took is never flooding: one per question
        except Closed:
            pass
        except ProtocolError as err:
            reason = f"dropped: {err}"
            conn.close({"type": "error", "reason": f"protocol error: {err}"})
        except asyncio.TimeoutError:
            reason = "dropped: silent for too long"
            conn.close()
        except (OSError, ConnectionError):
            reason = "connection lost"
        finally:
            was = self.absent()
            conn.close()
            reason = conn.dropped or reason
            if conn in self.connections:
                self.connections.remove(conn)
            who = self._who(conn)
            self._presence(was)
            if who:
                self.say(f"{who} {reason}.")
            elif reason.startswith("dropped"):
                self.say(printable(f"A connection from {peer} was {reason}."))

    def _who(self, conn: Connection) -> str:
        if not conn.joined:
            return ""
        return printable(self.table.names[conn.seat]) if conn.seat is not None else "A spectator"

    def _join(self, conn: Connection, hello: dict[str, Any]) -> bool:
        kind = hello["type"]
        was = self.absent()
        if int_field(hello, "version") != VERSION:
            conn.close({"type": "refused", "reason": f"this table speaks protocol version {VERSION}: "
                                                      "use the same cityrules version as the host"})
            return False
        if kind == "watch":
            if sum(1 for c in self.connections if c.joined and c.seat is None) >= self.limits.watchers:
                conn.close({"type": "refused", "reason": "too many spectators"})
                return False
            seat = None
        elif kind == "join":
            seat = seat_of(self.codes, text_field(hello, "code") or "")
            if seat is None:
                conn.close({"type": "refused", "reason": "wrong code: check the code the host gave you "
                                                          "(it is case-sensitive)"})
                return False
            for other in self.connections:
                if other is not conn and other.joined and other.seat == seat:
                    other.close({"type": "error", "reason": "your seat was joined from another connection"})
                    other.joined = False
        else:
            conn.close({"type": "refused", "reason": "say 'join' with a code, or 'watch'"})
            return False
        conn.seat, conn.joined = seat, True
        width = int_field(hello, "width")
        if width is not None:
            conn.width = max(screens.MIN_WIDTH, min(screens.MAX_WIDTH, width))
        table = self.table
        conn.send({"type": "welcome", "seat": seat, "name": None if seat is None else table.names[seat],
                   "names": table.names, "title": table.engine.game.title})
        self.say(f"{self._who(conn)} joined.")
        self._presence(was, conn)
        if table.over():
            conn.close(screens.ending(table.screens, table.state, seat, None, conn.width))
        else:
            self._update(conn)
        return True

    def _receive(self, conn: Connection, message: dict[str, Any]) -> bool:
        """Act on a message; True when it was an answer the game took."""
        kind = message["type"]
        if kind == "ping":
            conn.send({"type": "pong"})
            return False
        if kind == "command":
            self._command(conn, text_field(message, "name", 20) or "", text_field(message, "arg") or "")
            return False
        if kind == "answer" and conn.seat is not None and self.thinking:
            self.deferred[conn] = message  # applied once the bot has answered: one state at a time
            return True
        if kind == "answer" and conn.seat is not None:
            option = text_field(message, "option")
            refused = self.table.answer(conn.seat, int_field(message, "ask"), option or "")
            if refused is None:
                conn.asked = None
                self.changed.set()
                return True
            conn.send({"type": "refused_answer", "reason": refused})
            ask = self.table.question(conn.seat, conn.width)
            if ask is not None:
                conn.send(ask)
                conn.asked = ask["ask"]
            return False
        conn.send({"type": "error", "reason": f"unexpected message '{printable(kind[:40])}'"})
        return False

    def _command(self, conn: Connection, name: str, argument: str) -> None:
        """Answer a read-only command (board, log, info, score, explain, rules, hint) from the
        connection's own view."""
        name = name.lower()
        if name != "hint":
            text, styles = styled(self.table.command(conn.seat, name, argument, conn.width, conn.before,
                                                     self.absent()))
            conn.send({"type": "reply", "command": name, "text": text, "styles": styles})
        elif conn.seat is None:
            conn.send({"type": "reply", "command": name, "text": "  A spectator gets no hints."})
        elif conn.hinting is None or conn.hinting.done():
            conn.hinting = asyncio.ensure_future(self._hint(conn, conn.seat))
        else:
            conn.send({"type": "reply", "command": name, "text": "  A hint is already being worked out."})

    async def _hint(self, conn: Connection, seat: int) -> None:
        """Work the hint out on the worker thread (it searches like the mcts bot), then send it."""
        table = self.table
        menu = table.hint_menu(seat)
        if menu is None:
            text = "  You have no question to answer now."
        else:
            question = table.asked.get(seat)
            text = await asyncio.get_running_loop().run_in_executor(
                self.worker, table.hint, seat, copy_state(table.state), menu)
            if table.asked.get(seat) != question:
                # Advice on a question already answered (or replaced) would read as advice on the new one.
                text = "  The game moved on while the hint was worked out; type 'hint' again for this question."
        conn.send({"type": "reply", "command": "hint", "text": text})
