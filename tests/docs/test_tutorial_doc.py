"""docs/tutorial.md is followed from top to bottom, in an empty folder, and every step checked.

The page's HTML comments (invisible when it is rendered) say what to do with what follows:

- `<!-- file: PATH -->` above a block: the block is the whole new content of that file;
- `<!-- append: PATH -->`: the block is added at the end of the file;
- `<!-- quoted: PATH -->`: the file, as it is at that point, holds the block's text;
- `<!-- edit: PATH: "OLD" => "NEW" -->` (no block): the text OLD, found once in the file, becomes
  NEW (both written as JSON strings, so `\\n` is a new line);
- `<!-- run -->` above a ```console block: each `$ cityrules ...` line is run, and what it prints
  must be the lines below it; `...` stands for any number of lines, `N ms)` for a time; with
  `<!-- run; any numbers -->` every number counts as any number;
- `<!-- not run: REASON -->`: a command shown only (one that waits for a person).

Every ```yaml, ```rules and ```console block carries one of them.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from doc_helpers import Item, apply_step, doc_items
from workbench_helpers import ROOT, TIMING, run

DOC = ROOT / "docs" / "tutorial.md"
CHECKED = ("yaml", "rules", "console")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def expected_pattern(expected: list[str], any_numbers: bool) -> re.Pattern[str]:
    parts = []
    for line in expected:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            text = NUMBER.sub("#", line) if any_numbers else line
            parts.append(re.escape(text) + r"\n")
    return re.compile("".join(parts))


def check_run(item: Item, capsys: pytest.CaptureFixture[str]) -> None:
    any_numbers = "any numbers" in item.note
    commands: list[tuple[str, list[str]]] = []
    for line in item.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"docs/tutorial.md:{item.line}: output before any command"
            commands[-1][1].append(line)
    for command, expected in commands:
        words = shlex.split(command)
        assert words[0] == "cityrules", f"docs/tutorial.md:{item.line}: only cityrules commands are run"
        _, out, err = run(capsys, *words[1:])
        printed = TIMING.sub("N ms)", out + err)
        if any_numbers:
            printed = NUMBER.sub("#", printed)
        assert expected_pattern(expected, any_numbers).fullmatch(printed), (
            f"docs/tutorial.md:{item.line}: `{command}` printed:\n{out}{err}")


def test_the_tutorial_step_by_step(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    steps = doc_items(DOC)
    assert sum(1 for s in steps if s.note.startswith("run")) >= 8
    for item in steps:
        where = f"docs/tutorial.md:{item.line}"
        note = item.note
        if item.lang is not None and item.lang not in CHECKED:
            continue
        assert item.lang is None or note, \
            f"{where}: a ```{item.lang} block needs an annotation (file, append, quoted, run, not run)"
        if apply_step(tmp_path, item, where):
            continue
        kind, _, arg = note.partition(":")
        arg = arg.strip()
        if kind == "quoted":
            assert item.text in (tmp_path / arg).read_text(encoding="utf-8"), f"{where}: not in {arg}"
        elif kind.startswith("run"):
            assert item.lang == "console", where
            check_run(item, capsys)
        else:
            assert kind == "not run" and arg, f"{where}: unknown annotation {note!r}"
