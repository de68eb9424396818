"""Bots at a networked table think off the host's event loop: a slow bot never freezes the table."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from net_helpers import Recorder, new_table, random_picker, start_host


class Gate:
    """A bot that, when asked, waits until the test opens its gate, then takes the first option."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.open = threading.Event()
        self.threads: set[str] = set()

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """Wait for the gate (at most 10 s: a stuck test must not hang), then the first option."""
        self.threads.add(threading.current_thread().name)
        self.asked.set()
        self.open.wait(10)
        return 0


def test_while_a_bot_thinks_the_host_answers_its_clients_and_then_plays_on(tmp_path: Path) -> None:
    table, codes = new_table("downtown", ["human", "random", "random"], tmp_path / "j.json")
    gate = Gate()
    table.bots[1] = gate  # type: ignore[assignment]

    async def main() -> None:
        host, task = await start_host(table, codes)
        ana = Recorder(host.port, codes[0], random_picker(0))
        await ana.connect()
        playing = asyncio.ensure_future(ana.play(until=lambda m: m["type"] == "pong"))
        while not gate.asked.is_set():
            await asyncio.sleep(0.01)
        # The bot is thinking (and will until the gate opens): the table still answers.
        moves = table.moves
        ana.send({"type": "ping"})
        pong = await asyncio.wait_for(playing, 10)
        assert pong is not None and pong["type"] == "pong"
        assert table.moves == moves and not gate.open.is_set()
        gate.open.set()
        last = await asyncio.wait_for(ana.play(), 60)
        assert last is not None and last["type"] == "end"
        await asyncio.wait_for(task, 30)

    asyncio.run(main())
    assert table.over() and gate.threads and threading.main_thread().name not in gate.threads


def test_the_same_seed_and_answers_give_the_same_journal_with_bots_thinking_off_the_loop(tmp_path: Path) -> None:
    """Ana answers while the bots think (she is quick); the journal does not depend on that timing."""
    def run(k: int) -> list[tuple[int, str]]:
        path = tmp_path / f"j{k}.json"
        table, codes = new_table("downtown", ["human", "greedy", "random"], path)

        async def main() -> None:
            host, task = await start_host(table, codes)
            ana = Recorder(host.port, codes[0], random_picker(7), delay=0.002 * k)
            await ana.connect()
            last = await asyncio.wait_for(ana.play(), 60)
            assert last is not None and last["type"] == "end"
            await asyncio.wait_for(task, 30)

        asyncio.run(main())
        return Journal.load(path).choices

    first = run(0)
    assert first and run(1) == first
