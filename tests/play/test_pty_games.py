"""Whole games through a pseudo-terminal, as a person plays them: `cityrules play` in colour on an 80-
and a 200-column terminal, each answer typed from what the screen shows, by number or by label, with
commands and garbage typed in between. Every screen must fit the terminal, no byte sequence other
than colours may reach it, and each game ends with its scores broken down."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pexpect
import pytest
from rich.cells import cell_len

from interpreter.core.engine import Engine
from interpreter.core.journal import Journal, replay
from interpreter.load.loader import load_game
from interpreter.play.commands import COMMANDS as TABLE
from play_helpers import ROOT

PROMPT = rb"\r\n(Ana|Ben|Chlo\xc3\xa9)> "
# Colours and styles (SGR) are the only sequences a screen may hold; rich ends lines with them.
SGR = re.compile(r"\x1b\[[0-9;]*m")
OPTION = re.compile(r"(?:^|\s{2})\s*(\d+)\. (.+?)(?= — |\s{2,}|$)")
# (Escape sequences and other control characters typed are tested without readline, in
# test_session.py: on a terminal, readline takes them as keys.)
GARBAGE = ["lgo", "x" * 300, "'; DROP TABLE", "9999999999999999", "-1", "\uff11\uff12", "info zzzq"]
COMMANDS = ["help", "board", "log 3", "rules", "score", "explain", "info 1"]
COMMAND_WORDS = {name for c in TABLE for name in c.names}


def _menu(screen: str) -> tuple[str, list[tuple[str, str]]]:
    """The mode of the last question shown, and its options as (key, label) pairs."""
    block = screen.rsplit("\n\n", 1)[-1]
    if "(type an option as it is shown)" in block:
        names = block.split("(type an option as it is shown)", 1)[1]
        keys = [k.strip() for line in names.splitlines() for k in re.split(r"\s{2,}", line.split(" — ")[0])
                if k.strip() and not line.startswith(" " * 8)]  # (a detail wrapped under its entry)
        return "names", [(k, k) for k in keys]
    found = [(m.group(1), m.group(2).strip()) for line in block.splitlines() for m in OPTION.finditer(line)]
    return "numbers", found


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("game, seats", [("downtown", "human,random,random"), ("london", "human,random"),
                                         ("city", "human,random,random"), ("examples/harbour", "human,random")])
def test_a_whole_game_on_a_terminal(tmp_path: Path, game: str, seats: str, columns: int) -> None:
    journal = tmp_path / "game.json"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "50"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "interpreter.cli", "play", game, "--seats", seats, "--seed", "3",
                                           "--journal", str(journal)],
                          cwd=str(ROOT), env=env, timeout=120, dimensions=(50, columns))
    pick = random.Random(columns)
    transcript: list[str] = []
    by_label = by_number = extras = 0
    options: list[tuple[str, str]] = []
    while True:
        which = child.expect([PROMPT, pexpect.EOF])
        assert isinstance(child.before, bytes)
        raw = child.before.decode("utf-8")
        transcript.append(raw)
        if which == 1:
            break
        # The first line is the terminal's echo of what was typed; the rest is the session's.
        plain = SGR.sub("", raw.split("\r\n", 1)[-1] if transcript[1:] else raw).replace("\r\n", "\n")
        assert "\x1b" not in plain and "\x07" not in plain, repr(plain[:300])
        # (A file's path is printed whole, to be copied, however long.)
        too_wide = [line for line in plain.split("\n") if cell_len(line) > columns and str(tmp_path) not in line]
        assert not too_wide, too_wide[0]
        mode, found = _menu(plain)
        if found or "is not one of the options" not in plain:
            options = found  # (after a mistyped answer only a hint is shown: the options stand)
        assert options, plain[-800:]
        if pick.random() < 0.08:  # a command or garbage: the question must come back, the game go on
            extras += 1
            child.sendline(pick.choice(COMMANDS + GARBAGE))
            continue
        key, label = pick.choice(options)
        labels = [lbl.lower() for _, lbl in options]
        if mode == "numbers" and labels.count(label.lower()) == 1 and pick.random() < 0.5 \
                and label.split()[0].lower() not in COMMAND_WORDS:  # (a command is taken before an option)
            child.sendline(label)
            by_label += 1
        else:
            child.sendline(key)
            by_number += 1
    child.close()
    assert child.exitstatus == 0
    text = SGR.sub("", "".join(transcript)).replace("\r\n", "\n")
    assert "Game over." in text and "Final scores, as the rules counted them:" in text and "Winner(s): " in text
    assert by_label > 3 and by_number > 3 and extras > 0
    # What was typed is what the journal holds, and the journal replays to the same end.
    saved = Journal.load(journal)
    assert saved.result is not None
    assert replay(Engine(load_game(game)), saved)["result"] == saved.result
