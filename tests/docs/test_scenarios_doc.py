"""The examples of docs/scenarios.md are played: each ```yaml block annotated `<!-- scenario: GAME -->`
is the only scenario file of a copy of GAME and must pass; with `; fails`, the ```text block that
follows it is exactly what `cityrules test` prints (the time in milliseconds aside)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from doc_helpers import doc_items
from workbench_helpers import ROOT, TIMING, game_copy, run

DOC = ROOT / "docs" / "scenarios.md"
NOTE = re.compile(r"^<!--\s*scenario:\s*(?P<game>[\w/.-]+)\s*(?P<fails>;\s*fails)?\s*-->\s*$")


@dataclass(frozen=True)
class Example:
    line: int
    game: str
    scenario: str
    output: str | None     # what `cityrules test` prints when the example is meant to fail


def examples() -> list[Example]:
    found = []
    blocks = [item for item in doc_items(DOC) if item.lang is not None]
    for k, block in enumerate(blocks):
        if block.lang != "yaml":
            continue
        m = NOTE.match(f"<!-- {block.note} -->")
        assert m, f"docs/scenarios.md:{block.line}: a yaml block needs <!-- scenario: GAME --> above it"
        output = None
        if m["fails"]:
            nxt = blocks[k + 1]
            assert nxt.lang == "text", f"docs/scenarios.md:{block.line}: a failing example is followed by its output"
            output = nxt.text
        found.append(Example(block.line, m["game"], block.text, output))
    return found


@pytest.mark.parametrize("example", examples(), ids=lambda e: f"line{e.line}")
def test_example(example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path, ROOT / example.game)
    (folder / "tests").mkdir()
    (folder / "tests" / "cases.yaml").write_text(example.scenario, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "test", folder.name)
    if example.output is None:
        assert code == 0 and err == "", f"docs/scenarios.md:{example.line}: the example fails:\n{out}{err}"
    else:
        assert code == 1
        assert TIMING.sub("N ms)", out) == example.output, f"docs/scenarios.md:{example.line}: prints\n{out}"


def test_the_document_has_examples_of_both_kinds() -> None:
    kinds = {e.output is None for e in examples()}
    assert kinds == {True, False}
