"""docs/architecture.md names every module of ruledsl/ and interpreter/, so a newcomer's map has no blank."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("ruledsl", "interpreter")


def modules() -> list[Path]:
    return sorted(p for d in PACKAGES for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts)


def named(module: Path, doc: str) -> bool:
    """A module is named by its path (`interpreter/core/engine.py`, or `core/engine.py` inside its
    package), or by its file name on a line that names its folder (`interpreter/core/`: `engine.py`);
    a package by its folder."""
    relative = module.relative_to(ROOT)
    folder = f"`{relative.parent.as_posix()}/"
    if module.name == "__init__.py":
        return folder in doc
    inside = relative.relative_to(relative.parts[0])
    return (f"`{relative.as_posix()}`" in doc or f"`{inside.as_posix()}`" in doc
            or any(folder in line and f"`{module.name}`" in line for line in doc.splitlines()))


def test_every_module_is_named_in_the_architecture_doc() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert len(modules()) > 100
    assert [str(m.relative_to(ROOT)) for m in modules() if not named(m, doc)] == []


def test_a_module_the_doc_does_not_name_is_found() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert not named(ROOT / "ruledsl" / "opt" / "unheard_of.py", doc)
    assert not named(ROOT / "interpreter" / "nowhere" / "__init__.py", doc)
    assert named(ROOT / "ruledsl" / "opt" / "lift.py", doc)


def test_each_compiler_stage_says_what_it_takes_and_gives() -> None:
    doc = DOC.read_text(encoding="utf-8")
    stages = sorted(p.parent for p in (ROOT / "ruledsl").glob("*/__init__.py"))
    assert {s.name for s in stages} >= {"syntax", "check", "gen", "opt", "budget"}
    for stage in stages:
        docstring = ast.get_docstring(ast.parse((stage / "__init__.py").read_text(encoding="utf-8")))
        assert docstring and "take" in docstring and "give" in docstring, stage
        assert f"| `ruledsl/{stage.name}/` |" in doc, stage
