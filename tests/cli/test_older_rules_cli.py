"""`replay` and `play --resume` of a journal made with older rules: the report, and going on from it."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.journal import Journal
from lang_helpers import building_rules, write_game
from play_helpers import cli

RULES = building_rules(4)
CHOICES = [(0, "kind:house"), (1, "kind:shop"), (0, "kind:park")]


def _setup(tmp_path: Path, new_rules: str, seat: dict[str, object] | None = None,
           result: dict[str, list[int]] | None = None) -> tuple[Path, Path]:
    """A journal of three choices made with RULES, then the rules changed to `new_rules`."""
    game = tmp_path / "game"
    game.mkdir()
    write_game(game, new_rules, seat=seat or {"score": ("int", 0)})
    path = tmp_path / "saved.json"
    Journal(str(game), 2, 1, ["Ana", "Ben"], ["human", "human"], list(CHOICES), result).save(path)
    return game, path


def test_replay_says_which_recorded_choice_is_no_longer_legal_and_why(tmp_path: Path) -> None:
    _, path = _setup(tmp_path, RULES.replace('"shop"', '"shops"'))
    done = cli("replay", str(path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"replay: {path}: Choice 2 of the journal (Ben: 'kind:shop') is not legal under the rules as they are "
        "now: 'kind:shop' is not offered.",
        "  Now offered to Ben: kind:house, kind:shops, kind:park",
        "  Did you mean 'kind:shops'?",
        "The 1 choice(s) before it are legal: the game can continue from there.",
    ]


def test_replay_of_an_unfinished_game_with_private_fields_does_not_list_the_options(tmp_path: Path) -> None:
    seat = {"score": ("int", 0), "hand": {"type": "list[int]", "initial": [], "visible": "owner"}}
    _, path = _setup(tmp_path, RULES.replace('"shop"', '"shops"'), seat=seat)
    done = cli("replay", str(path))
    assert done.returncode == 1 and "kind:shops" not in done.stderr and "kind:house" not in done.stderr
    assert "Ben is offered 3 option(s), not listed here: they may show what only Ben may see." in done.stderr


def test_resume_refused_leaves_the_saved_game_as_it_was(tmp_path: Path) -> None:
    _, path = _setup(tmp_path, RULES.replace("for s in seats:", "for s in reversed(seats):"))
    before = path.read_bytes()
    done = cli("play", "--resume", str(path), stdin="n\n")
    assert done.returncode == 1
    assert "Choice 1 of the journal (Ana: 'kind:house') is not legal under the rules as they are now: " \
           "the rules now wait for Ben, not Ana." in done.stdout
    assert "Continue from choice 0 with the rules as they are now, in a new file? [y/N]" in done.stdout
    assert f"Nothing was changed: {path} is as it was." in done.stdout
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["game", "saved.json"]


def test_resume_accepted_goes_on_from_the_last_legal_choice_in_a_new_file(tmp_path: Path) -> None:
    _, path = _setup(tmp_path, RULES.replace('"park"', '"garden"'))
    before = path.read_bytes()
    done = cli("play", "--resume", str(path), stdin="y\n3\nquit\n")
    assert done.returncode == 0, done.stderr
    fork = tmp_path / "saved-from-2.json"
    assert f"Continuing in {fork}, from choice 2; {path} is kept as it was." in done.stdout
    assert "3. garden" in done.stdout  # Ana's third choice asked again, under the new rules
    assert path.read_bytes() == before
    assert Journal.load(fork).choices == [(0, "kind:house"), (1, "kind:shop"), (0, "kind:garden")]
    # A second fork from the same point takes a name of its own.
    again = cli("play", "--resume", str(path), stdin="y\nquit\n")
    assert again.returncode == 0 and (tmp_path / "saved-from-2-2.json").exists()
    assert Journal.load(fork).choices[-1] == (0, "kind:garden")


def test_resume_of_a_journal_the_rules_still_accept_asks_nothing(tmp_path: Path) -> None:
    _, path = _setup(tmp_path, RULES)
    done = cli("play", "--resume", str(path), stdin="quit\n")
    assert done.returncode == 0 and "Continue from" not in done.stdout and "Ben, build what?" in done.stdout
