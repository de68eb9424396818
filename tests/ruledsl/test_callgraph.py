"""Which phases run which (ruledsl/check/callgraph.py): when the agent path need not count the depth of
phases that wait."""

from __future__ import annotations

from pathlib import Path

from lang_helpers import engine as tiny
from ruledsl.check.callgraph import _depth_bounded
from ruledsl.runtime_support import MAX_DEPTH


def test_depth_needs_no_count_only_when_no_waiting_phase_runs_itself() -> None:
    chain = {"main": {"turn", "tidy"}, "turn": {"buy", "tidy"}, "buy": set(), "tidy": {"tidy"}}
    assert _depth_bounded({"main", "turn", "buy"}, chain)            # tidy runs itself but never waits
    assert not _depth_bounded({"main", "turn", "buy", "tidy"}, chain)  # ... now it waits
    loop = {"main": {"a"}, "a": {"b"}, "b": {"a"}}
    assert not _depth_bounded({"main", "a", "b"}, loop)
    many = {f"p{i}": {f"p{i + 1}"} for i in range(MAX_DEPTH // 2)}
    assert not _depth_bounded(set(many), many)                      # a chain that could come near the limit


def test_the_agent_path_does_not_count_depth_when_no_waiting_phase_runs_itself(tmp_path: Path) -> None:
    # (A game whose waiting phase runs itself, and stops at the limit on both paths:
    # tests/core/test_agent_path.py.)
    e = tiny(tmp_path, """\
        phase main:
            for i in range(3):
                run turn(i)
            end winners seats

        phase turn(n: int):
            choose x from [1, 2] by seats[0]
            depth = n + x
        """, global_={"depth": ("int", 0)}, seats=(1, 1))
    assert "c.depth" not in e.program.code.source
    state = e.play(1, 1, [lambda st, seat, options: 0])
    assert state["result"] == {"winners": [0]} and state["global"]["depth"] == 3
