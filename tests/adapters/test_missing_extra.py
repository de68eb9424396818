"""Without the `rl` extra, importing a research interface says in one line what to install; without
the `rl-deep` extra (PyTorch), the research interfaces work all the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("adapter, missing", [("pettingzoo", "pettingzoo"), ("pettingzoo", "gymnasium"),
                                              ("openspiel", "pyspiel")])
def test_importing_an_adapter_without_its_packages_names_the_extra(adapter: str, missing: str) -> None:
    # The package is made unimportable as if it were not installed (a None entry in sys.modules).
    code = f"import sys; sys.modules[{missing!r}] = None; import interpreter.adapters.{adapter}"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("interpreter.adapters._extra.MissingExtra: ")
    assert missing in last and last.endswith("pip install 'cityrules[rl]'")


def test_the_error_is_a_module_not_found_error() -> None:
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import interpreter.adapters.openspiel\n"
            "except ModuleNotFoundError as err:\n    print(err.name, '|', err)")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == ("pyspiel | the research interfaces need pyspiel, which is not installed: "
                                  "pip install 'cityrules[rl]'")


def test_the_research_interfaces_run_without_torch() -> None:
    # PyTorch comes with the rl-deep extra only (OpenSpiel's deep agents): `cityrules[rl]` must do without it.
    code = ("import sys; sys.modules['torch'] = None\n"
            "from open_spiel.python import rl_environment\n"
            "from interpreter.adapters import openspiel, pettingzoo\n"
            "pettingzoo.env('downtown', players=4).reset(seed=1)\n"
            "print(rl_environment.Environment(openspiel.load('downtown')).reset().first())")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
