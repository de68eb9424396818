"""The README's PettingZoo and OpenSpiel examples run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_the_readme_shows_a_short_example_of_each() -> None:
    assert [("pettingzoo" in b, "openspiel" in b) for b in BLOCKS] == [(True, False), (False, True)]
    assert all(len([line for line in b.splitlines() if line.strip()]) <= 12 for b in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=["pettingzoo", "openspiel"])
def test_a_readme_example_runs(block: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    printed = out.getvalue()
    assert re.fullmatch(r"(winners: \[[0-9, ]+\]|returns: \[[0-9., ]+\])\n", printed), printed
