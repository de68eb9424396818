"""The registry of built-ins (ruledsl/builtins.py) is complete, agrees with itself and is the only list."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ruledsl.builtins import BUILTINS, Builtin, Work
from ruledsl.gen import codegen
from ruledsl.opt.purity import walk
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_rules

ROOT = Path(__file__).resolve().parents[2]
LANGUAGE = ROOT / "docs" / "language.md"


def section_6() -> str:
    text = LANGUAGE.read_text(encoding="utf-8")
    start = text.index("## 6. Built-in functions")
    return text[start:text.index("\n## 7.", start)]


def rows_of(name: str) -> list[str]:
    """The rows of section 6's table whose first cell shows a call of `name`."""
    return [line for line in section_6().splitlines()
            if line.startswith("| ") and f"`{name}(" in line.split(" | ")[0]]


def parsed_call(example: str) -> A.Call:
    tree, diags = parse_rules(f"formula example() = {example}\n", "example.rules")
    assert tree is not None, diags
    calls = [n for n in walk(tree) if isinstance(n, A.Call)]
    assert calls, example
    return calls[0]


@pytest.mark.parametrize("spec", BUILTINS.values(), ids=list(BUILTINS))
def test_each_builtin_is_complete(spec: Builtin) -> None:
    assert 0 < spec.fewest <= spec.most
    assert "->" in spec.typing
    assert callable(spec.rule)
    assert callable(spec.code)
    call = parsed_call(spec.example)
    assert call.name == spec.name and spec.fewest <= len(call.args) <= spec.most, spec.example
    for name, fn in spec.runtime.items():
        assert codegen._HELPERS.get(name) is fn, f"generated code cannot call {name} for {spec.name}()"


@pytest.mark.parametrize("spec", BUILTINS.values(), ids=list(BUILTINS))
def test_each_builtin_is_documented_with_its_example(spec: Builtin) -> None:
    rows = rows_of(spec.name)
    assert rows, f"docs/language.md, section 6, has no row for {spec.name}()"
    assert any(spec.example in row for row in rows), f"{spec.name}()'s rows should show its example {spec.example!r}"


def test_the_docs_document_no_builtin_the_registry_lacks() -> None:
    documented = {name for line in section_6().splitlines() if line.startswith("| ")
                  for name in re.findall(r"`(\w+)\(", line.split(" | ")[0])}
    assert documented == set(BUILTINS)


def test_the_properties_agree() -> None:
    for spec in BUILTINS.values():
        assert not spec.searches_list or spec.reads_list, spec.name  # a search only reads its list
        assert not spec.kept_when_costly or spec.reads_list, spec.name
        assert not spec.paid_list or spec.new_list, spec.name
        assert not (spec.searches_list and spec.makes_value), spec.name
    assert BUILTINS["range"].work is Work.RUNS and BUILTINS["sorted"].makes_value
    assert BUILTINS["sum"].searches_list and not BUILTINS["len"].searches_list


def _name_lists(path: Path) -> list[int]:
    """Lines of literal tuples, lists, sets or dicts holding three or more built-in names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            if isinstance(node, ast.Dict) and not all(isinstance(v, (ast.Constant, ast.Tuple)) for v in node.values):
                continue  # a namespace of Python functions (codegen's safe built-ins), not a list of names
            elements = node.keys if isinstance(node, ast.Dict) else node.elts
            names = {e.value for e in elements if isinstance(e, ast.Constant) and e.value in BUILTINS}
            if len(names) >= 3:
                found.append(node.lineno)
    return found


def test_no_module_keeps_its_own_list_of_builtins() -> None:
    registry = (ROOT / "ruledsl" / "builtins.py", ROOT / "ruledsl" / "gen" / "builtin_code.py")
    modules = [p for d in ("ruledsl", "interpreter") for p in (ROOT / d).rglob("*.py") if p not in registry]
    lists = {str(p.relative_to(ROOT)): lines for p in modules if (lines := _name_lists(p))}
    assert not lists, f"lists of built-in names outside ruledsl/builtins.py: {lists}"
