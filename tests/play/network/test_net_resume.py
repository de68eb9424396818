"""A host killed with -9 resumes with the same state and codes; a killed client joins again and plays on."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import sys
from pathlib import Path
from typing import Any

from interpreter.core.journal import Journal
from interpreter.play.network.codes import codes_path
from net_helpers import ROOT, HostProcess, Recorder, random_picker

GAME = ["city", "--seats", "human,human", "--seed", "424242", "--port", "0"]
SCREEN = ("text", "waiting")


def _screens(client: Recorder) -> list[dict[str, Any]]:
    """The screens received, their words only: a resumed host has no earlier turn to mark changes
    against, and the legend that says there are some is laid out on one line less; who was
    connected when each was drawn (the seat marked disconnected) depends on who joined first."""
    def words(text: str) -> str:
        return " ".join(text.replace("changed since your last turn", "").replace(" (disconnected)", "").split())
    return [{k: words(m[k]) if k == "text" else [words(x) for x in m[k]] for k in SCREEN}
            for m in client.messages if m["type"] == "screen"]


def test_a_host_killed_mid_game_resumes_the_same_game_and_the_clients_join_again(tmp_path: Path) -> None:
    journal = tmp_path / "table.json"
    env = {"XDG_STATE_HOME": str(tmp_path)}
    host = HostProcess(*GAME, "--journal", str(journal), env=env)
    # The seed, the journal and the codes stay with the host, readable by its user only.
    for path in (journal, codes_path(journal)):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    codes = [host.codes["Ana"], host.codes["Ben"]]
    answered = [0]

    def pick(seed: int) -> Any:
        choose = random_picker(seed)

        def answer(client: Recorder, ask: dict[str, Any]) -> str | None:
            if answered[0] >= 12 and not ask["secret"]:
                return None  # stop here: this seat has a question open, the other none
            answered[0] += 1
            return choose(client, ask)
        return answer

    async def before() -> tuple[list[Recorder], int]:
        clients = [Recorder(host.port, codes[i], pick(i)) for i in (0, 1)]
        for c in clients:
            await c.connect()
        tasks = [asyncio.ensure_future(c.play()) for c in clients]
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED, timeout=60)
        assert len(done) == 1 and pending
        stopped = tasks.index(done.pop())  # the client that kept its question open
        await asyncio.sleep(1.5)  # what the host sent the other seat at the same time has arrived
        host.kill()
        await asyncio.wait(pending, timeout=10)
        return clients, stopped

    old, stopped = asyncio.run(before())
    saved = Journal.load(journal).choices
    assert len(saved) >= 12
    again = HostProcess("--resume", str(journal), "--port", str(host.port), env=env)
    assert again.codes == host.codes

    async def after() -> list[Recorder]:
        clients = [Recorder(again.port, codes[i], random_picker(i + 10)) for i in (0, 1)]
        for c in clients:
            await c.connect()
        asked = await clients[stopped].play(until=lambda m: m["type"] == "ask")
        # The same question, on the same screens, as before the kill.
        assert asked is not None and old[stopped].asks
        last = old[stopped].messages[-1]
        assert (asked["prompt"], asked["options"]) == (last["prompt"], last["options"])
        other = clients[1 - stopped]
        try:
            await asyncio.wait_for(other.play(until=lambda m: m["type"] == "screen"), 10)
        except asyncio.TimeoutError:
            raise AssertionError(f"{stopped} {other.messages} {old[1 - stopped].messages[-3:]}") from None
        for k in (0, 1):
            assert _screens(clients[k])[-1] == _screens(old[k])[-1]
        clients[stopped].send({"type": "answer", "ask": asked["ask"], "option": asked["options"][0][0]})
        ends = await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients)), 60)
        assert [m["type"] if m else None for m in ends] == ["end", "end"]
        return clients

    asyncio.run(after())
    out = again.finish()
    assert again.proc.returncode == 0 and "Game over" in out, out
    final = Journal.load(journal)
    assert final.result is not None and final.choices[:len(saved)] == saved


async def _read_until(stream: asyncio.StreamReader, pattern: bytes, seen: bytearray) -> bytes:
    """Read the client's output until `pattern` appears after what was already looked at."""
    start = len(seen)
    while pattern not in seen[start:]:
        chunk = await asyncio.wait_for(stream.read(4096), 30)
        assert chunk, bytes(seen).decode("utf-8", "replace")
        seen += chunk
    return bytes(seen[start:])


def _first_key(screen: bytes) -> str:
    """The key of the first option the client listed (a number, or an option's name)."""
    lines = screen.decode("utf-8", "replace").splitlines()
    prompt = max(i for i, line in enumerate(lines) if line.startswith("Ana: "))
    first = next(line for line in lines[prompt + 1:] if line.startswith("  ") or re.match(r"^\s+\d+\.", line))
    found = re.match(r"^\s+(\d+)\. ", first)
    return found.group(1) if found else first.strip()


def test_a_client_killed_mid_game_joins_again_and_the_game_goes_on(tmp_path: Path) -> None:
    host = HostProcess(*GAME, "--journal", str(tmp_path / "table.json"), env={"XDG_STATE_HOME": str(tmp_path)})
    where = f"127.0.0.1:{host.port}"

    async def main() -> None:
        wrong = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "interpreter.cli", "join", where, "--code", "x" * 22, cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE)
        refused, _ = await asyncio.wait_for(wrong.communicate(), 30)
        assert wrong.returncode == 2 and b"wrong code" in refused
        ben = Recorder(host.port, host.codes["Ben"], random_picker(1))
        await ben.connect()
        bens = asyncio.ensure_future(ben.play())
        ana = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "interpreter.cli", "join", where, "--code", host.codes["Ana"], cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert ana.stdin is not None and ana.stdout is not None
        seen = bytearray()
        screen = await _read_until(ana.stdout, b"Ana> ", seen)
        assert b"Joined" in screen
        # A mistyped answer: a hint and the same prompt, nothing sent.
        ana.stdin.write(b"nonsense\n")
        hint = await _read_until(ana.stdout, b"Ana> ", seen)
        assert b"'nonsense' is not one of the options" in hint
        ana.stdin.write(f"{_first_key(screen)}\n".encode())
        await _read_until(ana.stdout, b"Ana> ", seen)
        ana.send_signal(signal.SIGKILL)
        await ana.wait()
        # Ana joins again (here from a scripted client) and the game goes on to its end.
        back = Recorder(host.port, host.codes["Ana"], random_picker(0))
        await back.connect()
        last = await asyncio.wait_for(asyncio.gather(back.play(), bens), 90)
        assert [m["type"] if m else None for m in last] == ["end", "end"]
        assert back.asks and back.messages[0]["type"] == "welcome"

    asyncio.run(main())
    out = host.finish()
    assert host.proc.returncode == 0 and "Game over" in out
    assert "Ana joined" in out and "Ana left" in out
    assert os.path.exists(tmp_path / "table.json")
