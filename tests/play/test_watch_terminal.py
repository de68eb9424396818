"""`cityrules play GAME --watch` on a real (pseudo-)terminal: the rules are edited while a prompt waits."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect

from interpreter.core.journal import Journal
from lang_helpers import building_rules, write_game
from play_helpers import ROOT, interrupt_until_saved

RULES = building_rules(5, log=True)
PROMPT = rb"Ana> "


def _start(tmp_path: Path) -> tuple[pexpect.spawn, Path, Path]:
    (tmp_path / "game").mkdir()
    game = write_game(tmp_path / "game", RULES, seat={"score": ("int", 0)})
    journal = tmp_path / "j.json"
    child = pexpect.spawn(sys.executable, ["-m", "interpreter.cli", "play", str(game), "--seats", "human", "--seed",
                                           "1", "--journal", str(journal), "--watch"],
                          cwd=str(ROOT), env={**os.environ, "TERM": "xterm"}, timeout=60, dimensions=(50, 132))
    child.expect(rb"Watching ")
    for answer in (b"1", b"2"):  # a house, then a shop
        child.expect(PROMPT)
        child.send(answer + b"\r")
    child.expect(rb"Ana builds a shop")
    child.expect(PROMPT)
    return child, game, journal


def _edit(game: Path, old: str, new: str) -> None:
    """Save the rules file as an editor does: whole, at once."""
    path = game / "x.rules"
    text = path.read_text(encoding="utf-8")
    assert old in text
    tmp = game / ".x.rules.tmp"
    tmp.write_text(text.replace(old, new), encoding="utf-8")
    os.replace(tmp, path)


def _finish(child: pexpect.spawn) -> None:
    interrupt_until_saved(child)


def test_an_edit_that_keeps_the_game_legal_continues_it_under_the_new_rules(tmp_path: Path) -> None:
    child, game, journal = _start(tmp_path)
    _edit(game, "builds a {kind}", "puts up a {kind}")
    child.expect(rb"The rules changed: 2 choice\(s\) replayed onto them; the game goes on\.")
    child.expect(PROMPT)
    child.send(b"3\r")
    child.expect(rb"Ana puts up a park")  # the third choice, under the new rules
    child.expect(PROMPT)
    _finish(child)
    assert Journal.load(journal).choices == [(0, "kind:house"), (0, "kind:shop"), (0, "kind:park")]


def test_an_edit_that_makes_a_recorded_choice_illegal_stops_there_and_may_go_on_from_it(tmp_path: Path) -> None:
    child, game, journal = _start(tmp_path)
    _edit(game, '"shop", ', "")
    child.expect(rb"Choice 2 of the journal \(Ana: 'kind:shop'\) is not legal under the rules as they are now: "
                 rb"'kind:shop' is not offered\.")
    child.expect(rb"Now offered to Ana: kind:house, kind:park")
    child.expect(rb"Continue from choice 1 with the rules as they are now, in a new file\? \[y/N\] ")
    child.send(b"y\r")
    child.expect(rb"Continuing in (\S+), from choice 1; ")
    assert isinstance(child.match.group(1), bytes)
    fork = Path(child.match.group(1).decode())
    child.expect(rb"2\. park")  # the second choice again, with the new options
    child.expect(PROMPT)
    child.send(b"2\r")
    child.expect(rb"Ana builds a park")
    child.expect(PROMPT)
    _finish(child)
    assert fork != journal and fork.parent == journal.parent
    assert Journal.load(journal).choices == [(0, "kind:house"), (0, "kind:shop")]  # the saved game, untouched
    assert Journal.load(fork).choices == [(0, "kind:house"), (0, "kind:park")]


def test_an_edit_with_errors_is_reported_and_the_game_goes_on_with_the_old_rules(tmp_path: Path) -> None:
    child, game, journal = _start(tmp_path)
    _edit(game, "s.score += len(kind)", "s.score += len(kindd)")
    child.expect(rb"they have errors: the game goes on with the rules as they were\.")
    child.expect(rb"x\.rules:5:\d+: error\[unknown-name\]")
    child.expect(PROMPT)
    child.send(b"3\r")
    child.expect(rb"Ana builds a park")
    child.expect(PROMPT)
    _finish(child)
    assert len(Journal.load(journal).choices) == 3
