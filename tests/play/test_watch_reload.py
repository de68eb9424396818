"""`play --watch`: what a session does with each kind of edit (the terminal itself: test_watch_terminal.py)."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.engine import Engine
from interpreter.core.journal import Journal
from interpreter.load.loader import load_game
from interpreter.play.session import Seat
from interpreter.play.watch import Watched
from lang_helpers import building_rules, write_game

RULES = building_rules(4)
CHOICES = [(0, "kind:house"), (1, "kind:shop"), (0, "kind:park")]


def _watched(tmp_path: Path, answers: list[str], kinds: tuple[str, str] = ("human", "human"),
             seat: dict[str, object] | None = None) -> tuple[Watched, list[str]]:
    game = tmp_path / "game"
    game.mkdir()
    write_game(game, RULES, seat=seat or {"score": ("int", 0)}, seats=(2, 4))
    path = tmp_path / "saved.json"
    journal = Journal(str(game), 2, 1, ["Ana", "Ben"], list(kinds), list(CHOICES))
    journal.save(path)
    said: list[str] = []
    watched = Watched(Engine(load_game(str(game))), journal, [Seat(k, n) for k, n in zip(kinds, ["Ana", "Ben"])],
                      path, game, 100, read=lambda prompt: said.append(prompt) or answers.pop(0), say=said.append)
    return watched, said


def _edit(watched: Watched, old: str, new: str, file: str = "x.rules") -> None:
    path = watched.folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_legal_edit_takes_the_new_rules_and_keeps_the_journal(tmp_path: Path) -> None:
    watched, said = _watched(tmp_path, [])
    old = watched.engine
    _edit(watched, "len(kind)", "len(kind) * 10")
    watched.reload()
    assert watched.engine is not old and watched.journal.choices == CHOICES
    assert said == ["\nThe rules changed: 3 choice(s) replayed onto them; the game goes on."]


def test_an_edit_with_errors_keeps_the_old_rules_and_shows_the_diagnostics(tmp_path: Path) -> None:
    watched, said = _watched(tmp_path, [])
    old = watched.engine
    _edit(watched, "len(kind)", "len(kindd)")
    watched.reload()
    assert watched.engine is old
    assert said[0].endswith("they have errors: the game goes on with the rules as they were.")
    assert "error[unknown-name]" in said[1] and "x.rules:5:" in said[1]


def test_an_edit_the_game_no_longer_fits_keeps_the_old_rules(tmp_path: Path) -> None:
    watched, said = _watched(tmp_path, [])
    old = watched.engine
    _edit(watched, "min: 2", "min: 3", "game.yaml")
    watched.reload()
    assert watched.engine is old and "cannot seat this game" in said[0]


def test_a_refused_offer_keeps_the_old_rules_and_the_file(tmp_path: Path) -> None:
    watched, said = _watched(tmp_path, ["n"])
    old, path = watched.engine, watched.path
    _edit(watched, '"park"', '"garden"')
    watched.reload()
    assert watched.engine is old and watched.path == path and watched.journal.choices == CHOICES
    assert "Choice 3 of the journal (Ana: 'kind:park')" in said[0] and "Now offered to Ana" in said[0]
    assert said[1] == "Continue from choice 2 with the rules as they are now, in a new file? [y/N] "
    assert said[2].startswith("The game goes on with the rules as they were")


def test_an_accepted_offer_goes_on_from_the_last_legal_choice_in_a_new_file(tmp_path: Path) -> None:
    watched, said = _watched(tmp_path, ["y"])
    before = watched.path.read_bytes()
    _edit(watched, '"park"', '"garden"')
    watched.reload()
    assert watched.path == tmp_path / "saved-from-2.json" and watched.journal.choices == CHOICES[:2]
    assert Journal.load(watched.path).choices == CHOICES[:2]
    assert (tmp_path / "saved.json").read_bytes() == before


def test_with_private_fields_and_two_humans_the_report_lists_no_options(tmp_path: Path) -> None:
    private = {"score": ("int", 0), "hand": {"type": "list[int]", "initial": [], "visible": "owner"}}
    watched, said = _watched(tmp_path, ["n"], seat=private)
    _edit(watched, '"park"', '"garden"')
    watched.reload()
    assert "garden" not in said[0] and "Ana is offered 3 option(s), not listed here" in said[0]


def test_with_private_fields_the_one_human_sees_only_their_own_options(tmp_path: Path) -> None:
    private = {"score": ("int", 0), "hand": {"type": "list[int]", "initial": [], "visible": "owner"}}
    watched, said = _watched(tmp_path, ["n"], kinds=("random", "human"), seat=private)
    _edit(watched, '"park"', '"garden"')  # Ana's choice fails: a bot's options may show its hand
    watched.reload()
    assert "garden" not in said[0] and "Ana is offered 3 option(s), not listed here" in said[0]
