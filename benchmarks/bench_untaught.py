"""Benchmark: games that tell the bots nothing (issue 25). After `cityrules train`, does `bot` beat
two random bots in at least 80 % of 60 games?

Two games: examples/harbour with its `bots:` section removed (no declared evaluation, no profiles),
and the game `cityrules new` writes grown as docs/tutorial.md grows it (the Orchard: a board,
trees, a harvest, a variant), its files taken from the page's file, append and edit steps. Each is
made in a scratch folder, trained there with the defaults of `cityrules train` (two jobs), then
played by `bot` against two random bots, the bot's seat turning every game; prints the wins with a
95 % Wilson interval and the training's wall time. Asserts nothing.

The bare game `cityrules new` writes is measured too, for what it shows: five rounds of "work for
2 or buy a point for 3" allow two points at most, which random bots often reach as well, so even
perfect play wins only about 47 % against two of them (shared wins counted as shares). Run: make
bench, or

    python benchmarks/bench_untaught.py --games 60
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.agents import bot_seed, make_agent
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from matches import wilson

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 3
TARGET = 0.80


def harbour_without_bots(scratch: Path) -> Path:
    """examples/harbour copied, with no `bots:` section (nor its trained file)."""
    folder = scratch / "harbour"
    shutil.copytree(ROOT / "examples" / "harbour", folder)
    (folder / "bots.trained.json").unlink(missing_ok=True)
    game_file = folder / "game.yaml"
    data = yaml.safe_load(game_file.read_text(encoding="utf-8"))
    data.pop("bots", None)
    game_file.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return folder


def new_game(scratch: Path) -> Path:
    """The game `cityrules new` writes."""
    folder = scratch / "newgame"
    subprocess.run([sys.executable, "-m", "interpreter.cli", "new", str(folder)], check=True,
                   stdout=subprocess.DEVNULL)
    return folder


def _doc_helpers() -> Any:
    """tests/doc_helpers.py, the tests' reader of the docs' pages, loaded from its file: putting
    tests/ on the import path would let its `ruledsl` test folder shadow the package."""
    spec = importlib.util.spec_from_file_location("doc_helpers", ROOT / "tests" / "doc_helpers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["doc_helpers"] = module      # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


def tutorial_game(scratch: Path) -> Path:
    """The game `cityrules new` writes, grown step by step as docs/tutorial.md grows it (the steps
    that write files, carried out as tests/docs/test_tutorial_doc.py carries them out)."""
    subprocess.run([sys.executable, "-m", "interpreter.cli", "new", str(scratch / "orchard")], check=True,
                   stdout=subprocess.DEVNULL)
    doc = _doc_helpers()
    page = ROOT / "docs" / "tutorial.md"
    for item in doc.doc_items(page):
        doc.apply_step(scratch, item, f"docs/tutorial.md:{item.line}")
    return scratch / "orchard"


def _play(task: tuple[str, int]) -> float:
    folder, index = task
    engine = Engine(load_game(folder))
    seed = 20_000 + index
    mine = index % PLAYERS
    agents = [make_agent("bot" if s == mine else "random", bot_seed(seed, s)) for s in range(PLAYERS)]
    state = engine.new_game(PLAYERS, seed)
    while state["result"] is None:
        s = engine.first_open_seat(state)
        engine.apply_index(state, s, agents[s].pick(engine, state, s))
    winners = state["result"]["winners"]
    return 1 / len(winners) if mine in winners else 0.0


def measure(name: str, folder: Path, games: int) -> str:
    """Train the folder's game, then play the match; one line of figures."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter.cli", "train", str(folder), "--jobs", "2", "--no-progress"],
                   check=True, stdout=subprocess.DEVNULL)
    trained = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(2) as pool:
        shares = pool.map(_play, [(str(folder), i) for i in range(games)], chunksize=1)
    wins = sum(shares)
    low, high = wilson(wins, games)
    met = "met" if low >= TARGET else ("likely" if wins / games >= TARGET else "NOT met")
    return (f"  {name}: bot vs 2 random bots won {wins / games:.0%} ({low:.0%}–{high:.0%}, {games} games; "
            f"target ≥ {TARGET:.0%}: {met}); training took {trained / 60:.1f} min wall time on 2 jobs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    print("Games that declare no evaluation, trained from their files alone:")
    with tempfile.TemporaryDirectory() as scratch:
        for name, make in (("harbour without its bots: section", harbour_without_bots),
                           ("the tutorial's Orchard, grown from cityrules new", tutorial_game),
                           ("cityrules new as written (perfect play wins about 47 %)", new_game)):
            print(measure(name, make(Path(scratch)), args.games), flush=True)


if __name__ == "__main__":
    main()
