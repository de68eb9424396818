"""The terminal session: answers people type, and journals that survive a stop."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.decision import Option, Result
from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.menu import Menu
from interpreter.play.session import Seat, Session

OPTIONS = (Option("kind:housing", "housing"), Option("kind:industry", "industry"), Option("kind:commerce", "commerce"))


def test_answers_by_number_id_name_or_prefix() -> None:
    menu = Menu.of(OPTIONS)
    assert menu.parse("2") == OPTIONS[1]
    assert menu.parse("kind:commerce") == OPTIONS[2]
    assert menu.parse("Housing") == OPTIONS[0]
    assert menu.parse("ind") == OPTIONS[1]
    assert menu.parse("4") is None
    assert menu.parse("0") is None
    assert menu.parse("") is None
    assert menu.parse("park") is None


def test_a_scripted_game_to_the_end_then_the_same_journal_replays(tmp_path: Path) -> None:
    engine = Engine(load_game("downtown"))
    journal = Journal("downtown", 3, 9, ["Ana", "Ben", "Chloé"], ["human", "bot", "bot"])
    out: list[str] = []
    # The human always answers with the first option as the screen keys it; a wrong answer first.
    wrong = ["nonsense"]

    def read(prompt: str) -> str:
        if wrong:
            return wrong.pop()
        decision = engine.pending(session.state)
        assert not isinstance(decision, Result)
        return Menu.of(decision.options(0)).keys[0]

    session = Session(engine, journal, [Seat("human", "Ana"), Seat("bot", "Ben"), Seat("bot", "Chloé")],
                      tmp_path / "j.json", read=read, write=out.append, clear=lambda: None)
    final = session.run()
    assert final["result"] is not None
    assert any("'nonsense' is not one of the options" in line for line in out)
    assert any("Winner(s):" in line for line in out)
    saved = Journal.load(tmp_path / "j.json")
    assert saved.result == final["result"] and len(saved.choices) == final["decisions"]
    # Resuming a finished journal gives the finished game back.
    again = Session(engine, saved, session.seats, tmp_path / "j.json", read=lambda p: "1", write=lambda s: None,
                    clear=lambda: None)
    assert again.state["result"] == final["result"]


def test_journal_rejects_files_that_are_not_journals(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"hello": 1}')
    try:
        Journal.load(bad)
    except ValueError as err:
        assert "not a cityrules journal" in str(err)
    else:
        raise AssertionError("accepted a non-journal")


def test_long_option_lists_are_laid_out_in_numbered_columns() -> None:
    labels = [f"cell {i}" for i in range(40)]
    lines = Menu.of(tuple(Option(f"c:{i}", label) for i, label in enumerate(labels))).lines(width=80)
    text = "\n".join(lines)
    assert len(lines) < 40
    assert all(f"{k}. cell {k - 1}" in text for k in range(1, 41))
    assert Menu.of((Option("x:a", "a"), Option("x:b", "b"))).lines() == ["  1. a", "  2. b"]
