"""A networked London table as its players see it: two humans and a spectator at terminal clients.

What is typed while the seat waits is never an answer; the prompt is shown once; a seat whose
client is killed is marked "(disconnected)" in the others' screens and waiting line until it joins
again; the spectator is told what applies to it; the commands of `play` show only the seat's view.
"""

from __future__ import annotations

import asyncio
import copy
import random
from pathlib import Path
from typing import Callable

import pytest

from interpreter.core.journal import Journal
from interpreter.play.network import client as client_module
from interpreter.play.network.client import Client
from interpreter.play.network.table import Table
from net_helpers import fast_saves, new_table, start_host
from twin_helpers import reverse_alike, swap_alike

HUMANS = ["human", "human"]


class Terminal:
    """A `Client` with what it printed and prompted, and the lines a person types into it."""

    def __init__(self, name: str, type_ahead: bool = False):
        self.name = name
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.written: list[str] = []
        self.prompts: list[str] = []
        self.client = Client(self.lines, self.written.append, self.prompts.append, type_ahead=type_ahead)

    def type(self, line: str) -> None:
        """Type a line and press Enter."""
        self.lines.put_nowait(line)

    def out(self) -> str:
        """Everything printed so far."""
        return "\n".join(self.written)

    def start(self, port: int, code: str | None) -> asyncio.Task[int]:
        """Join (or watch) the table."""
        return asyncio.ensure_future(self.client.run("127.0.0.1", port, code))


async def until(test: Callable[[], bool], timeout: float = 30) -> None:
    """Wait for `test()` to hold (the host and clients run meanwhile)."""
    for _ in range(int(timeout / 0.01)):
        if test():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def answer(term: Terminal, rng: random.Random) -> None:
    """Answer the question shown with a random option, as a person would type it."""
    await until(lambda: term.client.question is not None)
    question = term.client.question
    assert question is not None
    term.type(rng.choice(question.menu.keys))
    await until(lambda: term.client.question is not question)


async def play_until(terms: dict[int, Terminal], table: Table, stop: Callable[[], bool], seed: int) -> None:
    """The human seats answer at random (each at its own terminal) until `stop()` or the end."""
    rng = random.Random(seed)
    while not stop() and not table.over():
        await until(lambda: stop() or table.over() or any(
            t.client.question is not None for s, t in terms.items() if s in table.open_humans()))
        for seat in table.open_humans():
            if seat in terms and terms[seat].client.question is not None and not stop():
                await answer(terms[seat], rng)


def test_what_is_typed_while_waiting_is_no_answer_and_the_prompt_is_shown_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_module, "PING", 0.05)  # pongs come and go while Ana waits and decides
    table, codes = new_table("london", HUMANS, tmp_path / "j.json")
    ana, ben = Terminal("Ana"), Terminal("Ben")

    async def main() -> None:
        host, task = await start_host(table, codes)
        running = [ana.start(host.port, codes[0]), ben.start(host.port, codes[1])]
        await play_until({0: ana}, table, lambda: table.open_humans() == [1], 1)
        await until(lambda: "Waiting for: Ben" in ana.out())
        prompts, choices = len(ana.prompts), len(table.journal.choices)
        ana.type("2")  # Ben's turn: what Ana types now is no answer
        await until(lambda: "'2' was not used: nothing is asked of you now (waiting for Ben)" in ana.out())
        ana.type("score")  # ...but the commands work while she waits
        await until(lambda: "Ana  money" in ana.out().split("'2' was not used")[-1])
        ana.type("rules")  # where the rules are paused is Ben's to know now, not hers
        await until(lambda: "'rules' tells about the question you are asked" in ana.out())
        await asyncio.sleep(0.3)  # pings and pongs: no prompt while nothing is asked
        assert len(ana.prompts) == prompts and len(table.journal.choices) == choices
        await play_until({1: ben}, table, lambda: table.open_humans() == [0], 2)
        await until(lambda: ana.client.question is not None)
        asked = len(ana.prompts)
        await asyncio.sleep(0.3)
        # Her question waits for her: the '2' typed during Ben's turn did not answer it, and the
        # pongs meanwhile did not repeat the prompt.
        assert table.open_humans() == [0] and table.journal.choices[-1][0] == 1
        assert len(ana.prompts) == asked and ana.prompts[-1] == "Ana> "
        ben.type("quit")
        await until(lambda: table.open_humans() == [0])
        ana.type("quit")
        assert await asyncio.wait_for(asyncio.gather(*running), 10) == [0, 0]
        task.cancel()

    asyncio.run(main())
    assert "Left the table. Your seat is kept" in ana.out()


def test_a_line_typed_before_the_question_was_shown_does_not_answer_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The line is read before the question comes, and taken only after it is shown (as when it
    was typed while a command's answer was awaited)."""
    monkeypatch.setattr(client_module, "PING", 0.05)
    table, codes = new_table("london", HUMANS, tmp_path / "j.json")
    ana = Terminal("Ana")

    async def main() -> None:
        host, task = await start_host(table, codes)
        ana.client.replying = True  # what is typed waits, as while a command's answer is awaited
        ana.type("1")
        running = ana.start(host.port, codes[0])
        await until(lambda: ana.client.shown == 1)
        assert ana.client.typed.qsize() == 1  # read before the question was shown, not yet taken
        ana.client.replying = False  # (the next pong lets the loop take it)
        await until(lambda: "'1' was not used: it was typed before this question was shown." in ana.out())
        assert table.journal.choices == [] and ana.prompts[-1] == "Ana> "
        ana.type("quit")
        assert await asyncio.wait_for(running, 10) == 0
        task.cancel()

    asyncio.run(main())


def test_a_london_table_two_humans_a_spectator_and_a_client_killed_and_rejoined(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast_saves(monkeypatch)
    table, codes = new_table("london", HUMANS, tmp_path / "j.json")
    ana, ben, watcher = Terminal("Ana"), Terminal("Ben"), Terminal("watcher")
    back = Terminal("Ben")

    async def main() -> list[int]:
        host, task = await start_host(table, codes)
        running = [ana.start(host.port, codes[0]), ben.start(host.port, codes[1]), watcher.start(host.port, None)]
        await until(lambda: "Watching London as a spectator" in watcher.out())
        watcher.type("1")
        watcher.type("help")
        await play_until({0: ana, 1: ben}, table, lambda: len(table.journal.choices) >= 12
                         and table.open_humans() == [0], 3)
        # Ben's terminal is killed: the connection drops without a word.
        assert ben.client.writer is not None
        ben.client.writer.transport.abort()
        await until(lambda: "Ben is disconnected" in ana.out() and "Ben is disconnected" in watcher.out())
        assert await asyncio.wait_for(running[1], 10) == 1
        assert "The connection to the table was lost. Join again with the same command" in ben.out()
        ana.type("board")
        await until(lambda: "B Ben (disconnected)" in ana.out().split("Ben is disconnected")[-1])
        await play_until({0: ana}, table, lambda: table.open_humans() == [1], 4)
        await until(lambda: "Waiting for: Ben (disconnected)" in ana.out())
        await until(lambda: "Waiting for: Ben (disconnected)" in watcher.out())
        # Ben joins again with the same code: the mark goes, and he is asked where he left.
        running[1] = back.start(host.port, codes[1])
        await until(lambda: "Ben has joined the table." in ana.out() and "Ben has joined the table." in watcher.out())
        await play_until({0: ana, 1: back}, table, lambda: False, 5)
        return list(await asyncio.wait_for(asyncio.gather(*running), 60))

    statuses = asyncio.run(main())
    assert statuses == [0, 0, 0] and table.over()
    assert Journal.load(tmp_path / "j.json").result is not None
    assert "B Ben (disconnected)" not in ana.out().split("Ben has joined the table.")[-1]
    assert "Game over" in ana.out() and "Game over" in back.out() and "Game over" in watcher.out()
    # The spectator is told what applies to a spectator, never that a seat is kept for it.
    seen = watcher.out()
    assert "You see what every player may see" in seen
    assert "'1' was not used: a spectator answers nothing." in seen
    assert client_module.help_text(True) in watcher.written and "stop watching" in client_module.help_text(True)
    assert "  hint " not in client_module.help_text(True) and "  hint " in client_module.help_text(False)
    assert "seat is kept" not in seen and not watcher.prompts and not watcher.client.question


def test_a_spectator_quits_and_is_told_how_to_watch_again(tmp_path: Path) -> None:
    table, codes = new_table("london", HUMANS, tmp_path / "j.json")
    watcher = Terminal("watcher")

    async def main() -> int:
        host, task = await start_host(table, codes)
        running = watcher.start(host.port, None)
        await until(lambda: "Waiting for: Ana (disconnected)" in watcher.out())
        watcher.type("quit")
        status = await asyncio.wait_for(running, 10)
        task.cancel()
        return status

    assert asyncio.run(main()) == 0
    assert "Stopped watching. Watch again with the same command." in watcher.out()
    assert "seat is kept" not in watcher.out()


def test_the_commands_answer_the_same_whatever_the_other_seat_holds(tmp_path: Path) -> None:
    """Twin tables that differ only in Ben's hand and the deck: Ana is told the same, byte for byte."""
    tables = []
    for k in (0, 1):
        table, _ = new_table("london", HUMANS, tmp_path / f"j{k}.json")
        tables.append(table)
    twin = tables[1]
    twin.state = copy.deepcopy(tables[0].state)
    hand, deck = twin.state["seat"]["hand"][1], twin.state["global"]["deck"]
    swap_alike(twin.engine, "card", hand, 0, deck)
    reverse_alike(twin.engine, "card", deck)
    assert twin.state != tables[0].state
    commands = [("board", ""), ("board", "all"), ("score", ""), ("explain", ""), ("rules", ""),
                ("info", "hand"), ("info", "deck"), ("info", "Ben"), ("log", "")]
    for seat in (0, None):
        said = [[t.command(seat, name, arg, 80) for name, arg in commands] for t in tables]
        assert [[line.plain for line in lines] for lines in said[0]] == \
            [[line.plain for line in lines] for lines in said[1]]
    assert tables[0].question(0) == twin.question(0)
    # ...and Ben's own screen does differ: the comparison could have seen the hand.
    assert [x.plain for x in tables[0].command(1, "board", "", 80)] != [x.plain for x in twin.command(1, "board", "", 80)]
