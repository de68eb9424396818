"""The terminal session: answers people type, and journals that survive a stop."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.decision import Option
from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.session import Seat, Session, parse_answer

OPTIONS = (Option("kind:housing", "housing"), Option("kind:industry", "industry"), Option("kind:commerce", "commerce"))


def test_answers_by_number_id_name_or_prefix() -> None:
    assert parse_answer("2", OPTIONS) == OPTIONS[1]
    assert parse_answer("kind:commerce", OPTIONS) == OPTIONS[2]
    assert parse_answer("Housing", OPTIONS) == OPTIONS[0]
    assert parse_answer("ind", OPTIONS) == OPTIONS[1]
    assert parse_answer("4", OPTIONS) is None
    assert parse_answer("0", OPTIONS) is None
    assert parse_answer("", OPTIONS) is None
    assert parse_answer("park", OPTIONS) is None


def test_a_scripted_game_to_the_end_then_the_same_journal_replays(tmp_path: Path) -> None:
    engine = Engine(load_game("downtown"))
    # Random bots: this is about the session's loop; tests/play/test_play_bots.py seats search bots.
    journal = Journal("downtown", 3, 9, ["Ana", "Ben", "Chloé"], ["human", "random", "random"])
    out: list[str] = []
    # The human always answers with the first option; a wrong answer first, to check the retry.
    answers = iter(["nonsense"] + ["1"] * 10_000)
    session = Session(engine, journal, [Seat("human", "Ana"), Seat("random", "Ben"), Seat("random", "Chloé")],
                      tmp_path / "j.json", read=lambda prompt: next(answers), write=out.append)
    final = session.run()
    assert final["result"] is not None
    assert any("'nonsense' is not one of the options" in line for line in out)
    assert any("Winner(s):" in line for line in out)
    saved = Journal.load(tmp_path / "j.json")
    assert saved.result == final["result"] and len(saved.choices) == final["decisions"]
    # Resuming a finished journal gives the finished game back.
    again = Session(engine, saved, session.seats, tmp_path / "j.json", read=lambda p: "1", write=lambda s: None)
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
    from interpreter.play.session import option_columns
    labels = [f"cell {i}" for i in range(40)]
    text = option_columns(labels, width=80)
    lines = text.splitlines()
    assert len(lines) < 40
    assert all(f"{k}. cell {k - 1}" in text for k in range(1, 41))
    assert option_columns(["a", "b"]) == "  1. a\n  2. b"


def test_two_people_at_one_screen_hand_over_before_each_private_view(tmp_path: Path) -> None:
    engine = Engine(load_game("london"))
    journal = Journal("london", 2, 4, ["Ana", "Ben"], ["human", "human"])
    out: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 12:
            raise EOFError
        return "" if "press Enter" in prompt else "1"

    Session(engine, journal, [Seat("human", "Ana"), Seat("human", "Ben")], tmp_path / "l.json",
            read=read, write=out.append).run()
    # Every answer is preceded by a hand-over, because hands are visible to their owner only.
    answers = [p for p in prompts if p.endswith("> ")]
    handovers = [p for p in prompts if "press Enter" in p]
    assert answers and len(handovers) >= len(answers) - 1
