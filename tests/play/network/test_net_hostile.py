"""Broken and hostile clients are dropped; the table and the other clients play on."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from interpreter.play.network.host import Limits
from interpreter.play.network.protocol import HEADER, VERSION, encode
from net_helpers import Recorder, fast_saves, new_table, random_picker, start_host

LIMITS = Limits(hello_timeout=0.5, idle_timeout=30, body_timeout=0.5, rate=20, burst=20)


async def _closed_within(reader: asyncio.StreamReader, seconds: float) -> bytes:
    """Everything the host sent before closing; fails the test if it stays open."""
    return await asyncio.wait_for(reader.read(), seconds)


async def _hostile(port: int, send: bytes, pause: float = 0.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(send)
    if pause:
        await asyncio.sleep(pause)
    got = await _closed_within(reader, 5)
    writer.close()
    return got


def test_hostile_clients_are_dropped_while_the_game_goes_on(tmp_path: Path) -> None:
    table, codes = new_table("downtown", ["human", "human", "random"], tmp_path / "j.json")
    said: list[str] = []

    async def main() -> dict[str, bytes]:
        host, task = await start_host(table, codes, LIMITS, said)
        players = [Recorder(host.port, codes[i], random_picker(i), delay=0.05) for i in (0, 1)]
        for p in players:
            await p.connect()
        games = asyncio.ensure_future(asyncio.gather(*(p.play() for p in players)))
        while not players[0].asks and not players[1].asks:
            await asyncio.sleep(0.01)
        port = host.port
        flood = b"".join(encode({"type": "ping"}) for _ in range(500))
        results = await asyncio.gather(
            _hostile(port, os.urandom(4096)),                                   # garbage
            _hostile(port, HEADER.pack(100 * 1024 * 1024)),                     # a 100 MB message announced
            _hostile(port, b""),                                                # connects, says nothing
            _hostile(port, HEADER.pack(50) + b'{"type":'),                     # a message never finished
            _hostile(port, encode({"type": "watch", "version": VERSION}) + flood),   # a flood
            _hostile(port, encode({"type": "join", "version": VERSION, "code": "guess" * 5})),  # a wrong code
            _hostile(port, encode({"type": "watch", "version": VERSION}) + b"\xff" * 10),  # garbage after hello
        )
        # All of them were dropped while the game was still being played, and it played on to the end.
        assert not task.done()
        moves = table.moves
        last = await asyncio.wait_for(games, 120)
        assert [m["type"] if m else None for m in last] == ["end", "end"]
        assert table.moves > moves
        await asyncio.wait_for(task, 30)
        return dict(zip(["garbage", "huge", "silent", "unfinished", "flood", "wrong code", "after hello"], results))

    got = asyncio.run(main())
    assert b"protocol error" in got["huge"] and b"104857600 bytes announced" in got["huge"]
    assert got["silent"] == b""
    assert b"not finished" in got["unfinished"]
    assert b"too many messages" in got["flood"]
    assert b"wrong code" in got["wrong code"]
    assert b"protocol error" in got["after hello"] and b"welcome" in got["after hello"]
    assert table.over()
    dropped = [line for line in said if "dropped" in line]
    assert len(dropped) >= 5, said


def test_a_seat_joined_again_from_another_connection_is_taken_back(tmp_path: Path) -> None:
    table, codes = new_table("downtown", ["human", "human", "random"], tmp_path / "j.json")

    async def main() -> None:
        host, task = await start_host(table, codes)
        ana = Recorder(host.port, codes[0], random_picker(0))
        await ana.connect()
        first = await ana.play(until=lambda m: m["type"] == "ask")
        assert first is not None
        # Ana's seat joined again (Ana moved to another terminal): the old connection is told and closed,
        # the new one is asked the same question.
        again = Recorder(host.port, codes[0], random_picker(0))
        await again.connect()
        replaced = await asyncio.wait_for(ana.play(), 10)
        assert replaced is None and b"another connection" in ana.raw
        asked = await again.play(until=lambda m: m["type"] == "ask")
        assert asked is not None and (asked["prompt"], asked["options"]) == (first["prompt"], first["options"])
        again.send({"type": "answer", "ask": asked["ask"], "option": asked["options"][0][0]})
        ben = Recorder(host.port, codes[1], random_picker(1))
        await ben.connect()
        last = await asyncio.wait_for(asyncio.gather(again.play(), ben.play()), 120)
        assert [m["type"] if m else None for m in last] == ["end", "end"]
        await asyncio.wait_for(task, 30)

    asyncio.run(main())
    assert table.over()


def test_a_joined_client_that_goes_silent_is_dropped_and_the_game_waits_for_nobody(tmp_path: Path) -> None:
    """A half-open connection (the peer vanished without closing) looks like silence: dropped."""
    table, codes = new_table("downtown", ["human", "random", "random"], tmp_path / "j.json")
    said: list[str] = []

    async def main() -> bytes:
        host, task = await start_host(table, codes, Limits(idle_timeout=0.5), said)
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(encode({"type": "watch", "version": VERSION}))
        got = await _closed_within(reader, 10)
        writer.close()
        assert not task.done()
        task.cancel()
        return got

    got = asyncio.run(main())
    assert b"welcome" in got and b"screen" in got
    assert "A spectator dropped: silent for too long." in said


def test_an_answer_that_is_not_an_option_or_is_stale_is_refused_and_the_question_asked_again(tmp_path: Path) -> None:
    table, codes = new_table("downtown", ["human", "random", "random"], tmp_path / "j.json")

    async def main() -> None:
        host, task = await start_host(table, codes)
        ana = Recorder(host.port, codes[0], random_picker(0))
        await ana.connect()
        ask = await ana.play(until=lambda m: m["type"] == "ask")
        assert ask is not None
        for wrong in ({"ask": ask["ask"], "option": "lot:999"}, {"ask": ask["ask"] + 7, "option": ask["options"][0][0]},
                      {"ask": ask["ask"], "option": ["not", "text"]}):
            ana.send({"type": "answer", **wrong})
            refused = await ana.play(until=lambda m: m["type"] == "refused_answer")
            again = await ana.play(until=lambda m: m["type"] == "ask")
            assert refused is not None and again is not None and again == ask
        assert table.moves == 0
        ana.send({"type": "answer", "ask": ask["ask"], "option": ask["options"][0][0]})
        last = await asyncio.wait_for(ana.play(), 60)
        assert last is not None and last["type"] == "end"
        await asyncio.wait_for(task, 30)

    asyncio.run(main())


def test_a_client_that_never_reads_is_cut_off_and_the_table_plays_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its socket buffers fill, then the host's queue for it: it is dropped, nobody else waits."""
    fast_saves(monkeypatch)
    table, codes = new_table("london", ["human", "human"], tmp_path / "j.json")
    said: list[str] = []

    async def main() -> int:
        host, task = await start_host(table, codes, Limits(queue=8, write_timeout=1.0, send_buffer=8192), said)
        # A spectator that never reads a byte (it sees every screen: its buffers fill the fastest).
        sleeper = socket.socket()
        sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sleeper.connect(("127.0.0.1", host.port))
        sleeper.sendall(encode({"type": "watch", "version": VERSION}))
        players = [Recorder(host.port, codes[i], random_picker(i)) for i in (0, 1)]
        for p in players:
            await p.connect()
        games = asyncio.ensure_future(asyncio.gather(*(p.play() for p in players)))
        while not any("dropped" in line for line in said):
            assert not games.done(), said
            await asyncio.sleep(0.05)
        moves = table.moves
        last = await asyncio.wait_for(games, 120)
        assert [m["type"] if m else None for m in last] == ["end", "end"]
        await asyncio.wait_for(task, 30)
        sleeper.close()
        return moves

    moves = asyncio.run(main())
    # Dropped mid-game, and the game went on to its end.
    assert table.over() and moves < table.moves
    assert [line for line in said if line.startswith("A spectator dropped: ")
            and ("unread" in line or "not read" in line)], said
