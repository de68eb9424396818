"""docs/bots.md's own player runs as the page shows, and plays as its docstring says."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from doc_helpers import doc_items
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "bots.md"


def _written(tmp_path: Path) -> tuple[Path, list[str]]:
    """The page's player file written into tmp_path, and the commands of the console block after it."""
    items = doc_items(PAGE)
    k = next(i for i, item in enumerate(items) if item.note == "file: players/cautious.py")
    path = tmp_path / "players" / "cautious.py"
    path.parent.mkdir()
    path.write_text(items[k].text, encoding="utf-8")
    console = next(item for item in items[k + 1:] if item.lang == "console")
    commands = [line[2:] for line in console.text.splitlines() if line.startswith("$ cityrules ")]
    return path, commands


def _run(tmp_path: Path, command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *shlex.split(command)[1:], *extra],
                          cwd=tmp_path, env=env, input="quit\n", capture_output=True, text=True, timeout=300)


def test_the_pages_commands_seat_the_pages_player(tmp_path: Path) -> None:
    _, commands = _written(tmp_path)
    assert [c.split()[1] for c in commands] == ["simulate", "play"]
    simulate = _run(tmp_path, commands[0], "--no-progress")
    assert simulate.returncode == 0 and "Traceback" not in simulate.stderr, simulate.stderr
    assert "players/cautious.py:Cautious" in simulate.stdout
    play = _run(tmp_path, commands[1], "--seed", "4")
    assert play.returncode == 0 and "Traceback" not in play.stderr, play.stderr
    assert "Ben (players/cautious.py:Cautious)" in play.stdout


def test_the_pages_player_buys_one_parcel_whenever_it_is_short_of_money(tmp_path: Path) -> None:
    _, commands = _written(tmp_path)
    journals = tmp_path / "journals"
    run = _run(tmp_path, commands[0].replace("-n 20", "-n 6"), "--no-progress", "--journals", str(journals))
    assert run.returncode == 0, run.stderr
    engine = Engine(load_game("downtown"))
    short = 0
    for path in sorted(journals.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["agents"][0] == "players/cautious.py:Cautious"
        state = engine.new_game(data["seats"], data["seed"])
        for seat, option in data["choices"]:
            if seat == 0 and option.startswith("parcels:") and state["seat"]["money"][0] < 10:
                short += 1
                assert option == "parcels:1"
            state = engine.apply(state, option, seat)
    assert short > 0  # the rule was put to the test
