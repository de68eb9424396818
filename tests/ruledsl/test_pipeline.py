"""The compiler's passes are one named sequence in code, and docs/architecture.md lists them in its order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lang_helpers import engine
from ruledsl import compiler
from ruledsl.compiler import FIRST_RUN_PASSES, PASSES, Compiler, Pass

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"


def doc_passes() -> list[str]:
    """The bold titles of the numbered list of passes in the architecture doc, in its order."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("The passes, in the order `Compiler.compile` runs them")
    section = text[start:text.index("\n## ", start)]
    return [m.lower() for m in re.findall(r"^\d+\. \*\*([^*]+)\*\*", section, re.MULTILINE)]


def test_the_architecture_doc_lists_the_passes_in_the_order_they_run() -> None:
    # Parsing comes before the compiler, and the Program (with its logged events) is made between
    # the passes of `compile` and those of the first run: the doc shows both where they happen.
    expected = ["parse", *(p.name for p in PASSES), "logged events", *(p.name for p in FIRST_RUN_PASSES)]
    assert doc_passes() == expected


def test_each_pass_is_documented_where_it_is_listed() -> None:
    for step in (*PASSES, *FIRST_RUN_PASSES):
        assert step.name and step.does and step.modules, step
        for module in re.findall(r"[a-z_/]+\.py", step.modules):
            assert (ROOT / "ruledsl" / module).exists(), f"{step.name}: no module {module}"


def test_compile_runs_every_pass_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []

    def recording(step: Pass) -> Pass:
        def run(c: Compiler) -> object:
            ran.append(step.name)
            return step.run(c)
        return Pass(step.name, step.modules, step.does, run)

    monkeypatch.setattr(compiler, "PASSES", tuple(recording(p) for p in PASSES))
    monkeypatch.setattr(compiler, "FIRST_RUN_PASSES", tuple(recording(p) for p in FIRST_RUN_PASSES))
    eng = engine(tmp_path, """\
        phase main:
            choose x from [1, 2] by seats[0]
            end winners seats
        """)
    eng.new_game(2, seed=1)
    assert ran == [p.name for p in (*PASSES, *FIRST_RUN_PASSES)]
