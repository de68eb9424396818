"""The rules at a glance (`rules all`, and before a new game's first question): how the game goes,
the choices, how it ends, in the words of the game's files, for any game."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.decision import Decision
from interpreter.load.loader import load_game
from interpreter.play.overview import overview
from interpreter.workbench.scaffold import write_game
from play_helpers import ROOT, Table, cli


def _text(game: str, variant: str | None = None, width: int = 80) -> list[str]:
    return [line.plain for line in overview(load_game(game, variant), width)]


@pytest.mark.parametrize("game", ["downtown", "london", "city", "examples/harbour"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_game_has_an_overview_of_a_screenful(game: str, width: int) -> None:
    lines = _text(str(ROOT / game) if "/" in game else game, width=width)
    assert "the rules at a glance" in lines[0]
    assert "How the game goes:" in lines and "The choices you will make:" in lines
    assert len(lines) <= (30 if width >= 80 else 40)
    assert max(len(line) for line in lines) <= width


def test_city_overview_reads_its_turn_choices_and_end_with_the_datas_numbers() -> None:
    text = "\n".join(_text("city"))
    assert "City, for 2 to 6 players" in text
    assert "A turn: roll and move one piece" in text
    assert "  - Which piece do you place?" in text
    assert "  - Place the … piece on which cell?" in text       # what depends on the moment: …
    assert "Claim a shop for free (4 each, at most 1 department store)" in text  # the data's numbers
    assert "How it ends:\n  - … reaches 35 points" in text
    # A variant's data is the data read: the advanced game is twice round the track.
    assert "… reaches 70 points" in "\n".join(_text("city", "advanced"))


def test_downtown_overview_marks_secret_choices_and_says_how_the_game_ends() -> None:
    text = " ".join(" ".join(_text("downtown", width=200)).split())
    assert "Lot … (…) is up for zoning: your vote? (secret)" in text
    assert "…, you are mayor: turn up the top planning card of which pile?" in text
    assert "When the last lot got its plaque, this round still buys and pays, then the game ends." in text


def test_a_new_game_from_the_scaffold_has_an_overview(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "orchard")
    lines = _text(str(folder))
    assert lines[0] == "Orchard, for 2 to 4 players: the rules at a glance"
    assert any("work for 2 coins, or buy a point for 3?" in line for line in lines)


def test_rules_all_shows_the_overview_and_the_question_comes_back(tmp_path: Path) -> None:
    asked: list[str] = []

    def answer(table: Table, seat: int | None, prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            return "rules all"
        decision = table.engine.pending(table.session.state)
        assert isinstance(decision, Decision)
        raise EOFError

    table = Table("city", ["human", "bot"], 3, tmp_path / "city.json", answer)
    table.run()
    text = "\n".join(table.out)
    assert "City, for 2 to 6 players: the rules at a glance" in text
    assert text.index("the rules at a glance") < text.rindex("Which piece do you place?")
    assert len(asked) == 2


def test_a_new_game_starts_with_the_overview_and_a_resumed_one_does_not(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    started = cli("play", "city", "--seats", "human,bot", "--seed", "3", stdin="quit\n", env=env)
    assert started.returncode == 0, started.stderr
    out = started.stdout
    assert "City, for 2 to 6 players: the rules at a glance" in out
    assert out.index("the rules at a glance") < out.index("Which piece do you place?")
    resumed = cli("play", "--resume", "latest", stdin="quit\n", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert "the rules at a glance" not in resumed.stdout
