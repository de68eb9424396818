"""The examples of docs/scenarios.md are played: each ```yaml block annotated `<!-- scenario: GAME -->`
is the only scenario file of a copy of GAME and must pass; with `; fails`, the ```text block that
follows it is exactly what `cityrules test` prints (the time in milliseconds aside)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from workbench_helpers import ROOT, TIMING, game_copy, run

DOC = ROOT / "docs" / "scenarios.md"
FENCE = re.compile(r"^```(\w*)\s*$")
NOTE = re.compile(r"^<!--\s*scenario:\s*(?P<game>[\w/.-]+)\s*(?P<fails>;\s*fails)?\s*-->\s*$")


@dataclass(frozen=True)
class Example:
    line: int
    game: str
    scenario: str
    output: str | None     # what `cityrules test` prints when the example is meant to fail


def blocks() -> list[tuple[int, str, str, str | None]]:
    """Every fenced block: (line of its fence, language, text, the annotation line above it)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        note = lines[i - 1] if i > 0 and lines[i - 1].startswith("<!--") else None
        found.append((i + 1, m.group(1), "\n".join(lines[i + 1:end]) + "\n", note))
        i = end + 1
    return found


def examples() -> list[Example]:
    found = []
    all_blocks = blocks()
    for k, (line, lang, text, note) in enumerate(all_blocks):
        if lang != "yaml":
            continue
        m = NOTE.match(note or "")
        assert m, f"docs/scenarios.md:{line}: a yaml block needs <!-- scenario: GAME --> above it"
        output = None
        if m["fails"]:
            nxt = all_blocks[k + 1]
            assert nxt[1] == "text", f"docs/scenarios.md:{line}: a failing example is followed by its ```text output"
            output = nxt[2]
        found.append(Example(line, m["game"], text, output))
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
