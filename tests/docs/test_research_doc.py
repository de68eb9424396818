"""docs/research.md's examples run as written, the DQN agents' included (the rl-deep extra)."""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "research.md").read_text(encoding="utf-8"), re.S)


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    # As the page advises for a network this small: two threads on a busy 2-core machine crawl.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_the_page_shows_the_adapters_and_a_dqn_agent() -> None:
    assert [("adapters.pettingzoo" in b, "pytorch import dqn" in b) for b in BLOCKS] == [(True, False), (False, True)]


@pytest.mark.parametrize("block", BLOCKS, ids=["adapters", "dqn"])
def test_an_example_runs(block: str, monkeypatch: pytest.MonkeyPatch, one_torch_thread: None) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/research.md", "exec"), {"__name__": "research"})
    printed = out.getvalue()
    if "dqn" in block:
        found = re.fullmatch(r"loss: (\S+)\n", printed)
        assert found is not None and found[1] != "None", printed    # None: the agent learnt nothing yet
        assert math.isfinite(float(found[1]))
    else:
        assert printed == ""
