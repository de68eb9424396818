"""Keys pressed while no question is on the screen (bots thinking, a hand-over) answer nothing: they
are dropped with a one-line notice, on a real (pseudo-)terminal. `quit` and Ctrl-C still stop the
session while bots think."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect

from interpreter.core.journal import Journal
from play_helpers import ROOT, SAVED, interrupt_until_saved

IGNORED = b"(ignored what was typed before the question was shown)"
ENTER = rb"press Enter when only you can see the screen\. "


def _spawn(tmp_path: Path, seats: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1"}
    return pexpect.spawn(sys.executable, ["-m", "interpreter.cli", "play", "downtown", "--seats", seats, "--seed", "3",
                                          "--journal", str(tmp_path / "game.json")],
                         cwd=str(ROOT), env=env, timeout=90, dimensions=(50, 120))


def _to_the_vote(child: pexpect.spawn, hot_seat: bool = False) -> None:
    """Ana is mayor: she turns up a pile, then is asked her (secret) vote, before the bots."""
    if hot_seat:
        child.expect(ENTER)
        child.send(b"\r")
    child.expect(rb"which pile\?.*\r\nAna> ")
    child.send(b"1\r")
    child.expect(rb"your vote\?.*\r\nAna> ")


def test_keys_typed_while_bots_think_answer_nothing(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "human,mcts,mcts,mcts")
    _to_the_vote(child)
    # Her vote, then '2' ('yes, play the lobby token') typed at once, while the three bots vote.
    child.send(b"1\r2\r")
    child.expect(rb"Play your lobby token.*?\r\nAna> ")
    assert isinstance(child.after, bytes)
    assert child.after.count(IGNORED) == 1, child.after
    child.send(b"1\r")  # 'no': the answer given once the question was shown
    child.expect(rb"\r\nAna> ")
    child.send(b"quit\r")
    child.expect(SAVED)
    child.expect(pexpect.EOF)
    choices = Journal.load(tmp_path / "game.json").choices
    assert choices[0] == (0, "side:west") and choices[1] == (0, "kind:housing")
    assert (0, "use_lobby:no") in choices and (0, "use_lobby:yes") not in choices


def test_quit_typed_while_bots_think_stops_at_once(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "human,mcts,mcts,mcts")
    _to_the_vote(child)
    child.send(b"1\rquit\r")
    index = child.expect([SAVED, rb"\r\nAna> "])
    assert index == 0, "a question came before 'quit' was obeyed"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # The vote in progress is not saved (it would reveal Ana's secret answer before the others'):
    assert Journal.load(tmp_path / "game.json").choices == [(0, "side:west")]


def test_ctrl_c_while_bots_think_saves(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "human,mcts,mcts,mcts")
    _to_the_vote(child)
    child.send(b"1\r")
    # Her vote is read (echoed with its line end): the bots are thinking when Ctrl-C comes.
    child.expect(rb"1\r\n")
    interrupt_until_saved(child)


def test_enter_typed_before_a_hand_over_does_not_confirm_it(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "human,human,random")
    _to_the_vote(child, hot_seat=True)
    child.send(b"1\r")
    child.expect(rb"Play your lobby token.*\r\nAna> ")  # asked ahead, in the same sitting
    # Ana answers and, in the same breath, presses Enter twice more and types '2': all of it is in
    # the terminal before the hand-over to Ben is shown.
    child.send(b"1\r\r2\r\r")
    child.expect(rb"=== Ben's turn.*?" + ENTER)
    assert isinstance(child.after, bytes)
    assert IGNORED in child.after
    # The hand-over still waits for Ben: his Enter shows his question, and nothing came before it.
    child.send(b"\r")
    child.expect(rb"\r\nBen> ")
    assert isinstance(child.before, bytes)
    assert b"your vote?" in child.before, "the typed-ahead Enter confirmed the hand-over"
    assert b"not one of the options" not in child.before and b"press Enter" not in child.before
    interrupt_until_saved(child)
