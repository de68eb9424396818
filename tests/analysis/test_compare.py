"""compare: common random numbers, paired intervals, and 'significant' only past Holm's correction."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_two_identical_folders_show_nothing_significant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "games" / "downtown", copy)
    code, out, _ = run(capsys, "compare", "--bots", "random", "downtown", str(copy), "-n", "30", "--jobs", "1", "--json")
    assert code == 0
    data = json.loads(out)
    names = {m["name"] for m in data["metrics"]}
    assert {"win:0", "win:3", "first_seat", "score:0", "rounds", "decisions", "lead_changes", "margin"} <= names
    for m in data["metrics"]:
        assert set(m) >= {"name", "a", "b", "difference", "ci", "significant"}
        assert not m["significant"] and m["difference"] in (0, None) and m["a"] == m["b"]
    assert data["games"] == 30 and "Holm" in data["correction"]


def test_a_restricted_seat_shows_a_significant_change(capsys: pytest.CaptureFixture[str]) -> None:
    # Ana may buy one parcel at a time only: among random bots that overspend, she keeps more money.
    code, out, _ = run(capsys, "compare", "--bots", "random", "downtown", "--restrict", "0:parcels:[23]", "-n", "400", "--jobs", "2")
    assert code == 0
    assert "B: Downtown, restricted 0:parcels:[23]" in out
    assert "Significant changes:" in out and "Ana's final money rises by" in out
    # Ben, Chloé and Dev were not restricted: their money does not change significantly.
    assert "Ben's final money rises" not in out and "Ben's final money falls" not in out


def test_compare_needs_something_to_differ(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "compare", "--bots", "random", "downtown", "-n", "5")
    assert code == 2 and "give two games, or one game with --variant or --restrict" in err
