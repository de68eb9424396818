"""Shared bits of the session tests: a scripted table, the command run as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.menu import Menu
from interpreter.play.session import Seat, Session

if TYPE_CHECKING:
    import pexpect

ROOT = Path(__file__).resolve().parents[1]
CLEAR = "<<clear>>"
SAVED = rb"Saved\. Resume with:  cityrules play --resume "


def interrupt_until_saved(child: "pexpect.spawn", presses: int = 3) -> None:
    """Press Ctrl-C as a person does: again if nothing happened. CPython's readline loses a SIGINT
    that arrives between drawing the prompt and waiting for a key (it is handled only when its wait
    is interrupted), a window of microseconds that a loaded test machine widens to tenths of a
    second; the second press is then obeyed. The session must save and say how to resume."""
    import pexpect
    for press in range(presses):
        child.sendintr()
        try:
            child.expect(SAVED, timeout=10 if press < presses - 1 else 90)
            break
        except pexpect.TIMEOUT:
            if press == presses - 1:
                raise
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def cli(*args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 120,
        cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`cityrules ARGS` in a child process, with text in and out."""
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, env={**os.environ, **(env or {})})


class Table:
    """A session whose humans answer through `answer(table, seat, prompt)`; every line is kept in `out`."""

    def __init__(self, game: str, kinds: list[str], seed: int, path: Path,
                 answer: Callable[["Table", int | None, str], str], names: list[str] | None = None):
        self.engine = Engine(load_game(game))
        names = names or ["Ana", "Ben", "Chloé", "Dev"][: len(kinds)]
        self.journal = Journal(game, len(kinds), seed, names, kinds)
        self.path = path
        self.out: list[str] = []
        self.prompts: list[str] = []
        self.answer = answer
        self.session = Session(self.engine, self.journal, [Seat(k, n) for k, n in zip(kinds, names)], path,
                               read=self._read, write=self.out.append, clear=lambda: self.out.append(CLEAR))

    def _read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        decision = self.question()
        seat = None
        if isinstance(decision, Decision):
            names = [s.name for s in self.session.seats]
            seat = next((s for s in decision.seats if prompt.startswith(names[s])), None)
        return self.answer(self, seat, prompt)

    def question(self) -> Decision | None:
        """The question on the screen: the pending decision, or one asked ahead of its turn."""
        asking = self.session.asking
        decision = self.engine.pending(self.session.state)
        if asking is not None and isinstance(decision, Decision) and asking[0] not in decision.seats:
            return asking[1]
        return decision if isinstance(decision, Decision) else None

    def first_key(self, seat: int) -> str:
        """What the screen lists first for `seat` at the question on the screen."""
        decision = self.question()
        assert isinstance(decision, Decision)
        return Menu.of(decision.options(seat)).keys[0]

    def run(self) -> None:
        """Play until the end or until an answer raises (EOFError stops and saves)."""
        self.session.run()
