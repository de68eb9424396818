"""`play` with search bots at the table, through the terminal: resumed games get the same bot
answers, and `hint` advises from what the human's seat may see."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot_helpers import advance, engine
from interpreter.core.journal import Journal
from interpreter.core.state import copy_state
from interpreter.load.loader import game_ref
from interpreter.play.menu import Menu
from interpreter.play.session import Seat, Session

ROOT = Path(__file__).resolve().parents[2]
GAME = ["examples/harbour", "--seed", "4", "--seats", "human,mcts,greedy"]


def play(args: list[str], answers: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", *args], input="".join(a + "\n" for a in answers),
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def choices(journal: Path) -> list[list[object]]:
    data = json.loads(journal.read_text(encoding="utf-8"))
    assert data["agents"] == ["human", "mcts", "greedy"]
    return list(data["choices"])


def test_a_session_with_bots_resumes_with_the_same_bot_answers(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole.json", tmp_path / "split.json"
    play([*GAME, "--journal", str(whole)], ["1", "2", "1", "2"])
    play([*GAME, "--journal", str(split)], ["1", "2"])
    first_part = choices(split)
    play(["--resume", str(split)], ["1", "2"])
    assert choices(split)[:len(first_part)] == first_part
    assert choices(split) == choices(whole)
    seats = {seat for seat, _ in choices(whole)}
    assert {1, 2} <= seats, "both bots answered"


def test_hint_advises_and_changes_nothing(tmp_path: Path) -> None:
    plain, hinted = tmp_path / "plain.json", tmp_path / "hinted.json"
    play([*GAME, "--journal", str(plain)], ["1", "2", "1"])
    out = play([*GAME, "--journal", str(hinted)], ["1", "hint", "2", "1"]).stdout
    assert "hint: the mcts bot" in out and "% to win" in out
    assert "help" in play([*GAME, "--journal", str(tmp_path / "h.json")], ["help"]).stdout
    assert choices(hinted) == choices(plain)


def test_hint_is_the_same_whatever_the_seat_cannot_see(tmp_path: Path) -> None:
    eng = engine("examples/harbour")
    journal = Journal(game_ref(eng.game), 3, 2, ["Ana", "Ben", "Chloé"], ["human", "mcts", "mcts"])
    session = Session(eng, journal, [Seat("human", "Ana"), Seat("mcts", "Ben"), Seat("mcts", "Chloé")],
                      tmp_path / "j.json", read=lambda _: "quit", write=lambda _: None)
    state = advance(eng, session.state, "offer", 2, skip=1)
    menu = Menu.of(eng.pending(state).options(0))  # type: ignore[union-attr]
    twin = copy_state(state)
    twin["global"]["deck"].reverse()
    twin["rng"] ^= 0x1234
    session.state = state
    first = session.hint(0, menu)
    session.state = twin
    assert session.hint(0, menu) == first and "% to win" in first


def test_seats_and_journals_name_known_bots(tmp_path: Path) -> None:
    bad = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "examples/harbour", "--seats",
                          "human,clever", "--journal", str(tmp_path / "x.json")], input="", capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and "unknown seat kind 'clever'" in bad.stderr
    journal = tmp_path / "j.json"
    play([*GAME, "--journal", str(journal)], ["1"])
    data = json.loads(journal.read_text(encoding="utf-8"))
    data["agents"] = ["human", "mcts:nope", "greedy"]
    journal.write_text(json.dumps(data), encoding="utf-8")
    before = journal.read_text(encoding="utf-8")
    resumed = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "--resume", str(journal)], input="1\n",
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert resumed.returncode == 2 and "no bot profile 'nope'" in resumed.stderr
    assert journal.read_text(encoding="utf-8") == before
