"""The terminal session: answers people type, and journals that survive a stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.decision import Option, Result
from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.menu import Menu
from interpreter.play.session import Seat, Session
from play_helpers import CLEAR, Table

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
    # Random bots: this is about the session's loop; tests/play/test_play_bots.py seats search bots.
    journal = Journal("downtown", 3, 9, ["Ana", "Ben", "Chloé"], ["human", "random", "random"])
    out: list[str] = []
    # The human always answers with the first option as the screen keys it; a wrong answer first.
    wrong = ["nonsense"]

    def read(prompt: str) -> str:
        if wrong:
            return wrong.pop()
        decision = engine.pending(session.state)
        assert not isinstance(decision, Result)
        return Menu.of(decision.options(0)).keys[0]

    session = Session(engine, journal, [Seat("human", "Ana"), Seat("random", "Ben"), Seat("random", "Chloé")],
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


def _hot_seat(tmp_path: Path, game: str, kinds: list[str], seed: int, answers: int,
              at_enter: str = "") -> Table:
    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if "press Enter" in prompt:
            # The next player first types something at the hand-over prompt, then presses Enter alone.
            if at_enter and table.prompts[-2:-1] != [prompt]:
                return at_enter
            return ""
        if sum(p.endswith("> ") for p in table.prompts) > answers:
            raise EOFError
        assert seat is not None
        return table.first_key(seat)

    table = Table(game, kinds, seed, tmp_path / f"{game}.json", answer)
    table.run()
    return table


@pytest.mark.parametrize("game, kinds", [("london", ["human", "human"]), ("downtown", ["human", "human", "bot"])])
def test_hot_seat_hands_over_exactly_when_the_person_at_the_keyboard_changes(tmp_path: Path, game: str,
                                                                            kinds: list[str]) -> None:
    table = _hot_seat(tmp_path, game, kinds, 4, 60)
    people = [p.split(">")[0] for p in table.prompts if p.endswith("> ")]
    handovers = [p.split(",")[0] for p in table.prompts if "press Enter" in p]
    changes = [who for k, who in enumerate(people) if k == 0 or people[k - 1] != who]
    assert handovers == changes
    assert len(changes) < len(people), "no player answered twice in a row: the same-player case was not met"


@pytest.mark.parametrize("game, kinds", [("london", ["human", "human"]), ("downtown", ["human", "human", "bot"])])
def test_nothing_is_shown_between_the_clear_and_the_next_players_confirmation(tmp_path: Path, game: str,
                                                                            kinds: list[str]) -> None:
    table = _hot_seat(tmp_path, game, kinds, 5, 30)
    out = table.out
    clears = [k for k, line in enumerate(out) if line == CLEAR]
    assert len(clears) > 2
    confirmations = iter(k for k, p in enumerate(table.prompts) if "press Enter" in p)
    for k in clears[:-1]:  # the last clear is the one before "Saved."
        next(confirmations)
        # Only the hand-over banner until the player confirms; then the session shows their view.
        assert out[k + 1].startswith("=== ") and "look away" in out[k + 1]
        assert out[k + 2] == "" or out[k + 2].startswith("  ")  # the view starts with the log or a blank line


def test_what_is_typed_at_the_hand_over_prompt_is_neither_used_nor_echoed_nor_silently_dropped(
        tmp_path: Path) -> None:
    table = _hot_seat(tmp_path, "downtown", ["human", "human", "bot"], 6, 8, at_enter="zebra42\x1b[2J")
    notes = [line for line in table.out if "What you typed was not used" in line]
    assert notes
    assert not any("zebra42" in line for line in table.out)
    # Each hand-over asked again until the player pressed Enter alone.
    assert sum("press Enter" in p for p in table.prompts) >= 2 * len(notes)


def test_garbage_at_a_prompt_and_after_log_gets_a_hint_and_the_same_prompt(tmp_path: Path) -> None:
    garbage = ["²", "١", "9" * 5000, "-" + "9" * 5000, "log ²", "log abc", "log -5", "log " + "9" * 5000,
               "log 0", "\x1b]52;c;SGVsbG8=\x07", "", "   "]
    typed = list(garbage)

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        if typed:
            return typed.pop(0)
        if len(table.prompts) > len(garbage) + 3:
            raise EOFError
        assert seat is not None
        return table.first_key(seat)

    table = Table("downtown", ["human", "bot", "bot"], 3, tmp_path / "j.json", answer)
    table.run()
    first = table.prompts[0]
    assert table.prompts[: len(garbage) + 1] == [first] * (len(garbage) + 1)  # the same question each time
    hints = [line for line in table.out if "is not one of the options" in line]
    logs = [line for line in table.out if line.startswith("  log takes a number of lines")]
    assert len(hints) == 7 and len(logs) == 5
    assert all(len(line) < 200 for line in hints + logs)  # long input is cut when quoted back
    assert not any("\x1b" in line or "\x07" in line for line in table.out)
    assert len(Journal.load(tmp_path / "j.json").choices) >= 1
