"""Finding games: shipped ones by name, the examples as `examples/NAME` from any folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.load.games import examples_root, game_ref, resolve_game
from interpreter.load.loader import load_game


def test_an_example_is_found_from_any_folder_and_journals_name_it_so(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)          # not the source tree: as after `pip install cityrules`
    folder = resolve_game("examples/harbour")
    assert folder == examples_root() / "harbour" and (folder / "game.yaml").is_file()
    assert game_ref(load_game("examples/harbour")) == "examples/harbour"


def test_a_folder_of_the_same_name_elsewhere_is_named_by_its_path(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "examples" / "harbour"
    copy.mkdir(parents=True)
    for f in (examples_root() / "harbour").iterdir():
        if f.is_file():
            (copy / f.name).write_bytes(f.read_bytes())
    monkeypatch.chdir(tmp_path)
    # The folder where the command runs comes first, and a journal must not confuse it with the example.
    assert resolve_game("examples/harbour") == Path("examples/harbour")
    assert game_ref(load_game("examples/harbour")) == str(copy.resolve())


def test_an_unknown_example_is_an_error_naming_the_shipped_games(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="no game 'examples/harbor'"):
        resolve_game("examples/harbor")
