"""Every shipped game folder is installed, and setuptools is told about each (no warnings at `make play`);
`make test` installs every extra."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_folder_is_a_listed_package_with_its_files() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = sorted(p.relative_to(ROOT / "games").as_posix().replace("/", ".")
                     for p in (ROOT / "games").glob("*/**") if p.is_dir() and "__pycache__" not in p.parts)
    listed = sorted(p.split(".", 1)[1] for p in config["packages"] if p.startswith("cityrules_games."))
    assert listed == folders  # every folder with files in it (a game, its tests) is a listed package
    for name in folders:
        patterns = config["package-data"][f"cityrules_games.{name}"]
        files = [f for f in (ROOT / "games" / name.replace(".", "/")).iterdir() if f.is_file()]
        assert all(any(f.match(p) for p in patterns) for f in files), name


def test_pexpect_is_a_dev_dependency_for_the_terminal_tests() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("pexpect") for d in project["optional-dependencies"]["dev"])


def test_harbour_is_installed_with_its_files() -> None:
    # The README's examples load examples/harbour: a pip install must carry it, as cityrules_examples.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for package, folder in (("cityrules_examples.harbour", "examples/harbour"),
                            ("cityrules_examples.harbour.tests", "examples/harbour/tests")):
        assert package in config["packages"]
        files = [f for f in (ROOT / folder).iterdir() if f.is_file()]
        assert files and all(any(f.match(p) for p in config["package-data"][package]) for f in files), folder
    assert config["package-dir"]["cityrules_examples.harbour"] == "examples/harbour"


def test_make_test_installs_every_extra_and_torch_is_pinned_exactly() -> None:
    # The tests import every extra's packages (none skips when one is missing), so `make test` installs
    # them all. torch is pinned to the CPU build on the project's machines: a range could fetch a CUDA
    # build of several GB.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    installed = re.findall(r"pip install --quiet -e '\.\[([\w,-]+)\]'", (ROOT / "Makefile").read_text())
    assert len(installed) == 1 and sorted(installed[0].split(",")) == sorted(extras)
    assert [r for reqs in extras.values() for r in reqs if re.match(r"torch\b", r)] == ["torch==2.13.0"]
