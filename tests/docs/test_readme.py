"""The README's shell examples run as written on a fresh checkout, and print what the README shows."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _examples() -> list[tuple[str, list[str]]]:
    """Each `$ cityrules ...` line of the README's code blocks, with the output lines shown under it."""
    examples: list[tuple[str, list[str]]] = []
    inside = command = False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
            command = False
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            examples.append((line[2:].split("  #")[0].strip(), []))
            command = True
        elif command and line.strip():
            examples[-1][1].append(line)
    return examples


def _normal(text: str) -> str:
    return re.sub(r"\d+ ms\)", "N ms)", text.rstrip())


def test_the_readme_shell_examples_run_and_print_what_it_shows(tmp_path: Path) -> None:
    examples = _examples()
    assert len(examples) >= 10 and all(cmd.startswith("cityrules ") for cmd, _ in examples)
    # A fresh checkout: the repository's folders, and nothing saved or written before.
    for name in ("games", "examples"):
        shutil.copytree(ROOT / name, tmp_path / name, symlinks=True)  # the broken gallery has link loops
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
           "PYTHONPATH": str(ROOT)}
    for command, shown in examples:
        args = shlex.split(command)[1:]
        run = subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=tmp_path, env=env,
                             input="quit\n", capture_output=True, text=True, timeout=300)
        assert "Traceback" not in run.stderr, (command, run.stderr)
        failing = any("FAILED" in line or "error[" in line for line in shown)
        assert run.returncode == (1 if failing else 0), (command, run.stdout, run.stderr)
        out = [_normal(line) for line in run.stdout.splitlines()]
        for line in shown:
            assert _normal(line) in out, (command, line, run.stdout)


def test_validate_json_is_one_array_as_the_readme_says() -> None:
    assert "`--format json` prints one JSON array holding every diagnostic" in (ROOT / "README.md").read_text()
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", "examples/broken/unknown-phase",
                          "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    records = json.loads(run.stdout)
    assert isinstance(records, list) and {r["code"] for r in records} == {"unknown-phase", "unreachable-phase"}
