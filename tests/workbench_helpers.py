"""Helpers for the workbench tests (tests/workbench/): game folders to break, and the CLI run."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]
HARBOUR = ROOT / "examples" / "harbour"
TIMING = re.compile(r"\d+ ms\)")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`cityrules ARGS...`: exit status, standard output, standard error."""
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def game_copy(tmp_path: Path, source: Path = HARBOUR, keep_tests: bool = False) -> Path:
    """A copy of a game folder to change freely (without its scenarios unless asked)."""
    folder = tmp_path / source.name
    shutil.copytree(source, folder, ignore=None if keep_tests else shutil.ignore_patterns("tests"))
    return folder


def scenarios(folder: Path, text: str, name: str = "cases.yaml") -> Path:
    """Write a scenario file into the game's tests folder."""
    path = folder / "tests" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the line of a file that contains `text` (which must be there once)."""
    lines = [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line]
    assert len(lines) == 1, f"{text!r} is on lines {lines} of {path}"
    return lines[0]


def place(path: Path, marker: str, at: str | None = None) -> str:
    """`NAME:LINE:COLUMN` of the text `at` (default: `marker`) on the line that holds `marker`."""
    line = line_of(path, marker)
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(at or marker) + 1
    return f"{path.name}:{line}:{column}"
