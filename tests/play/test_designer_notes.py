"""What players read holds no designer's notes: `##` comment lines are never quoted by `rules`, and
no shipped game lets a ruling's source or a rulebook reference reach a player (the comments `rules`
quotes, item attributes `info` shows, the credits)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from interpreter.lsp.symbols import _comment_above
from interpreter.play.phases import comment_above, file_comment, where
from lang_helpers import engine as lang_engine
from ruledsl.diagnostics import Span

DESIGNER_WORDS = re.compile(r"ruling|rulebook|card reference|reconstruction rules|acceptance", re.I)
GAMES = ("london", "downtown", "city", "examples/harbour")


def test_rules_quotes_the_comment_above_the_phase_without_its_designer_notes(tmp_path: Path) -> None:
    rules = ("## Why: settled by ruling 12 of the design notes.\n"
             "# The round: each seat picks a number.\n"
             "## (the second printing changed this)\n"
             "phase main:\n"
             "    # allow: empty-options\n"
             "    ## a note on the choice\n"
             "    # Pick low to go first.\n"
             "    choose x from [1, 2] by seats[0] \"Pick\"\n"
             "    end winners seats\n")
    engine = lang_engine(tmp_path, rules, seats=(1, 1))
    text = "\n".join(line.plain for line in where(engine.game, engine.new_game(1, 1)))
    assert "The round: each seat picks a number." in text and "Pick low to go first." in text
    assert "ruling" not in text and "second printing" not in text and "a note on" not in text
    assert "allow" not in text


def test_a_phase_whose_comment_is_all_designer_notes_falls_back_to_the_file_s_comment() -> None:
    lines = ["# The game in one line.", "", "## only for designers", "phase main:"]
    assert comment_above(lines, 3) == [] and file_comment(lines) == ["The game in one line."]


@pytest.mark.parametrize("game", GAMES)
def test_no_shipped_game_quotes_a_designer_note_to_players(game: str) -> None:
    engine = Engine(load_game(game))
    g = engine.game
    quoted: list[str] = [g.credits]
    for file, text in g.sources.items():
        lines = text.splitlines()
        if file.endswith(".rules"):
            quoted += file_comment(lines)
        for k, line in enumerate(lines):
            if re.match(r"\s*(phase\s|.*\bchoose\b)", line):
                quoted += comment_above(lines, k)
    for component in g.world.components.values():
        for attr, values in component.attr_values.items():
            quoted += [str(v) for v in values if isinstance(v, str)]
    found = [q for q in quoted if DESIGNER_WORDS.search(q)]
    assert found == []


def test_london_s_rules_command_says_the_loan_rule_without_its_ruling() -> None:
    engine = Engine(load_game("london"))
    state = engine.new_game(2, 1)
    text = "\n".join(line.plain for line in where(engine.game, state))
    assert "never both in the same step: a loan" in text and "RULINGS" not in text


def test_an_editor_s_hover_shows_the_designer_s_notes_as_text() -> None:
    """Designers' notes are for designers: the language server's hover keeps them, without the '##'."""
    text = "# Loans at the start.\n## RULINGS, London.\nphase start:\n"
    assert _comment_above(text, Span("x.rules", 3, 1)) == "Loans at the start. RULINGS, London."
