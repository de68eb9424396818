"""Which phases run which (ruledsl/callgraph.py): when the agent path need not count the depth of
phases that wait, and that a game whose phases run themselves still stops at the limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.errors import RuleError
from lang_helpers import engine as tiny
from ruledsl.callgraph import _depth_bounded
from ruledsl.runtime_support import MAX_DEPTH


def test_depth_needs_no_count_only_when_no_waiting_phase_runs_itself() -> None:
    chain = {"main": {"turn", "tidy"}, "turn": {"buy", "tidy"}, "buy": set(), "tidy": {"tidy"}}
    assert _depth_bounded({"main", "turn", "buy"}, chain)            # tidy runs itself but never waits
    assert not _depth_bounded({"main", "turn", "buy", "tidy"}, chain)  # ... now it waits
    loop = {"main": {"a"}, "a": {"b"}, "b": {"a"}}
    assert not _depth_bounded({"main", "a", "b"}, loop)
    many = {f"p{i}": {f"p{i + 1}"} for i in range(MAX_DEPTH // 2)}
    assert not _depth_bounded(set(many), many)                      # a chain that could come near the limit


WAITING = """\
phase main:
    run turn(0)
    end winners seats

phase turn(n: int):
    choose x from [1, 2] by seats[0]
    depth = n
    {more}
"""


@pytest.mark.parametrize("more,counted", [("pass", False), ("run turn(n + 1)", True)])
def test_the_agent_path_counts_depth_only_for_phases_that_may_run_themselves(
        tmp_path: Path, more: str, counted: bool) -> None:
    e = tiny(tmp_path, WAITING.format(more=more), global_={"depth": ("int", 0)}, seats=(1, 1))
    assert ("c.depth" in e.program.code.source) is counted
    if counted:
        with pytest.raises(RuleError, match=f"more than {MAX_DEPTH} deep"):
            e.play(1, 1, [lambda st, seat, options: 0])
    else:
        assert e.play(1, 1, [lambda st, seat, options: 0])["result"] == {"winners": [0]}
