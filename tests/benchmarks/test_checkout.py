"""benchmarks/checkout.py: a benchmark measures the checkout it is run from, not the installed one."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
FIRST_PARTY = ("interpreter", "ruledsl", "common", "matches")


def _first_imports(path: Path) -> list[str]:
    """The modules a script imports at its top level, in order."""
    names: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py") if p.name != "checkout.py"))
def test_every_benchmark_puts_its_checkout_first_before_it_imports_the_project(script: str) -> None:
    names = _first_imports(BENCH / script)
    project = [k for k, name in enumerate(names) if name.split(".")[0] in FIRST_PARTY]
    if not project:
        return   # it runs the project in subprocesses, or through helpers that put its folder first
    assert "checkout" in names and names.index("checkout") < project[0], (
        f"{script} imports {names[project[0]]} before checkout: run from a worktree, it would measure the installed code")


def test_a_script_run_from_another_checkout_imports_that_checkouts_interpreter(tmp_path: Path) -> None:
    """The project is installed editable from this folder: a copy's benchmark must still find its own."""
    copy = tmp_path / "other"
    (copy / "benchmarks").mkdir(parents=True)
    (copy / "interpreter").mkdir()
    (copy / "interpreter" / "__init__.py").write_text("WHERE = 'the copy'\n", encoding="utf-8")
    shutil.copy(BENCH / "checkout.py", copy / "benchmarks" / "checkout.py")
    script = copy / "benchmarks" / "probe.py"
    script.write_text("import checkout\nimport interpreter\nprint(getattr(interpreter, 'WHERE', interpreter.__file__))\n",
                      encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "the copy"
