"""Hot seat on a real (pseudo-)terminal: the bytes the players' terminal receives at each hand-over."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from interpreter.core.journal import Journal
from play_helpers import ROOT, interrupt_until_saved

CLEAR_SCROLLBACK = b"\x1b[3J"
HANDOVER = re.compile(rb"=== (\w+)'s turn\. Hand the keyboard to \1; everybody else, look away\. ===\r\n"
                      rb"\1, press Enter when only you can see the screen\. ")
PROMPT = rb"\r\n(Ana|Ben)> "
ENTER = rb"press Enter when only you can see the screen\. "


def _answer(screen: bytes) -> bytes:
    """The first option of the menu just shown: its number, or its name where options go by name."""
    text = screen.decode("utf-8", "replace")
    if "(type an option as it is shown)" in text:
        return text.rsplit("(type an option as it is shown)", 1)[1].split()[0].encode()
    return b"1"


@pytest.mark.parametrize("game, seats, private", [
    ("downtown", "human,human,bot", [b"(secret)", b"your vote?"]),
    ("london", "human,human", [b"Your hand (", b"Your action"]),
])
def test_hand_over_clears_screen_and_scrollback_and_shows_nothing_before_confirmation(
        tmp_path: Path, game: str, seats: str, private: list[bytes]) -> None:
    journal = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, ["-m", "interpreter.cli", "play", game, "--seats", seats, "--seed", "5",
                                           "--journal", str(journal)],
                          cwd=str(ROOT), env={**os.environ, "TERM": "xterm"}, timeout=60, dimensions=(50, 132))
    stream = b""
    handovers = 0
    answered = 0
    while handovers < 4:
        which = child.expect([ENTER, PROMPT])
        assert isinstance(child.before, bytes) and isinstance(child.after, bytes)
        stream += child.before + child.after
        if which == 0:
            handovers += 1
            assert CLEAR_SCROLLBACK in stream, "the hand-over did not clear the scrollback"
            cleared = stream.rsplit(CLEAR_SCROLLBACK, 1)
            assert cleared[0].endswith(b"\x1b[2J"), "the screen itself was not cleared first"
            after = cleared[1]
            # From the clear to the prompt: the banner and the question, nothing of anybody's screen.
            assert HANDOVER.fullmatch(after), after
            if handovers > 1:
                assert answered, "no private screen came before this hand-over: nothing was checked"
                assert all(p in cleared[0] for p in private[:1]), "the private screen was never shown"
            child.send(b"\r")
        else:
            answered += 1
            child.send(_answer(child.before) + b"\r")
    # Ctrl-C at a prompt saves and says how to go on.
    child.expect(PROMPT)
    interrupt_until_saved(child)
    assert len(Journal.load(journal).choices) >= answered - 4
