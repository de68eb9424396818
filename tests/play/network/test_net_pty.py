"""`cityrules join` on pseudo-terminals, as people use it at a networked London table: what is
typed while waiting is set aside, Ctrl-C and quit leave while waiting, the others see the seat
marked disconnected until it joins again, and a spectator is told what applies to it."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect

from net_helpers import ROOT, HostProcess

PROMPT = re.compile(rb"(Ana|Ben)> ")


def _join(port: int, *args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "100", "LINES": "50", "NO_COLOR": "1"}
    term = pexpect.spawn(sys.executable, ["-m", "interpreter.cli", "join", f"127.0.0.1:{port}", *args],
                         cwd=str(ROOT), env=env, timeout=60, dimensions=(50, 100))
    term.logfile_read = io.BytesIO()  # everything the terminal showed
    return term


def _first_key(screen: bytes) -> bytes:
    """The key of the first option of the question just shown (its number or its name)."""
    lines = screen.replace(b"\r", b"").split(b"\n")
    start = max(i for i, line in enumerate(lines) if re.match(rb"^(Ana|Ben): ", line))
    for line in lines[start + 1:]:
        found = re.match(rb"^\s+(\d+)\. ", line)
        if found:
            return found.group(1)
        if line.startswith(b"  ") and not line.startswith(b"(type"):
            return line.split(b" \xe2\x80\x94 ")[0].strip().split(b"  ")[0]
    raise AssertionError(screen.decode("utf-8", "replace"))


def _play_until_waiting(term: pexpect.spawn, other: bytes) -> None:
    """Answer the first option of each question until the table waits for `other`."""
    for _ in range(40):
        if term.expect([PROMPT, b"Waiting for: " + other]) == 1:
            return
        term.sendline(_first_key(term.logfile_read.getvalue()))
    raise AssertionError("the turn never passed")


def test_join_on_a_terminal_sets_typing_aside_leaves_on_ctrl_c_and_marks_the_absent(tmp_path: Path) -> None:
    host = HostProcess("london", "--seats", "human,human", "--seed", "77", "--port", "0",
                       "--journal", str(tmp_path / "table.json"), env={"XDG_STATE_HOME": str(tmp_path)})
    terms: list[pexpect.spawn] = []
    try:
        ana = _join(host.port, "--code", host.codes["Ana"])
        ben = _join(host.port, "--code", host.codes["Ben"])
        terms += [ana, ben]
        ana.expect(b"Joined London as Ana")
        ben.expect(b"Joined London as Ben")
        _play_until_waiting(ana, b"Ben")
        ana.sendline(b"2")
        ana.expect(b"'2' was not used: nothing is asked of you now \\(waiting for Ben\\)")
        ana.sendline(b"score")
        ana.expect(b"Ana  money")
        # No prompt while nothing is asked of Ana.
        assert ana.expect([PROMPT, pexpect.TIMEOUT], timeout=1.5) == 1
        ben.expect(PROMPT)
        ana.sendintr()  # Ctrl-C while waiting: she leaves, her seat is kept
        ana.expect(b"Left the table. Your seat is kept")
        ana.expect(pexpect.EOF)
        ana.close()
        assert ana.exitstatus == 130
        ben.expect(b"Ana is disconnected")
        ben.sendline(b"board")
        ben.expect(b"A Ana \\(disconnected\\)")
        watcher = _join(host.port, "--watch")
        terms.append(watcher)
        watcher.expect(b"Watching London as a spectator")
        watcher.expect(b"Waiting for: Ben")
        watcher.sendline(b"1")
        watcher.expect(b"'1' was not used: a spectator answers nothing")
        again = _join(host.port, "--code", host.codes["Ana"])
        terms.append(again)
        again.expect(b"Joined London as Ana")
        ben.expect(b"Ana has joined the table")
        watcher.expect(b"Ana has joined the table")
        again.sendline(b"quit")  # quit while waiting works too
        again.expect(b"Left the table. Your seat is kept")
        again.expect(pexpect.EOF)
        watcher.sendintr()
        watcher.expect(b"Stopped watching. Watch again with the same command.")
        watcher.expect(pexpect.EOF)
        shown = watcher.logfile_read.getvalue()
        assert b"You see what every player may see" in shown and b"seat is kept" not in shown
    finally:
        for term in terms:
            term.close(force=True)
        host.kill()
