"""Every shipped game folder is installed, and setuptools is told about each (no warnings at `make play`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_folder_is_a_listed_package_with_its_files() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = sorted(p.name for p in (ROOT / "games").iterdir() if (p / "game.yaml").is_file())
    listed = sorted(p.split(".", 1)[1] for p in config["packages"] if p.startswith("cityrules_games."))
    assert listed == folders
    for name in folders:
        assert set(config["package-data"][f"cityrules_games.{name}"]) >= {"*.yaml", "*.rules"}


def test_pexpect_is_a_dev_dependency_for_the_terminal_tests() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("pexpect") for d in project["optional-dependencies"]["dev"])
