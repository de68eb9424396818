"""check_game reads an editor's unsaved text in place of a file, and writes nothing."""

from __future__ import annotations

from pathlib import Path

from interpreter.load.base import LoaderBase
from interpreter.load.loader import check_game, games_root
from workbench_helpers import game_copy


def _copy(tmp_path: Path) -> Path:
    return game_copy(tmp_path, games_root() / "downtown", keep_tests=True)


def test_a_given_rules_text_is_checked_instead_of_the_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    round_file = folder / "round.rules"
    on_disk = round_file.read_text()
    edited = on_disk.replace("run planning", "run planing", 1)
    assert edited != on_disk
    game, diags, sources = check_game(folder, texts={round_file: edited})
    assert game is None
    unknown = [d for d in diags if d.code == "unknown-phase"]
    assert unknown and "planing" in unknown[0].message and unknown[0].span.file.endswith("round.rules")
    assert sources[unknown[0].span.file] == edited
    assert round_file.read_text() == on_disk
    assert check_game(folder)[0] is not None


def test_a_given_yaml_text_is_checked_instead_of_the_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    game_file = folder / "game.yaml"
    edited = game_file.read_text().replace("start: game", "start: gam")
    _, diags, _ = check_game(folder, texts={game_file: edited})
    assert any("gam" in d.message and d.span.file.endswith("game.yaml") for d in diags)
    broken = "name: [unclosed\n"
    _, diags, _ = check_game(folder, texts={game_file: broken})
    assert [d.code for d in diags] == ["yaml-syntax"]


def test_a_text_given_for_a_file_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    outside = tmp_path / "elsewhere.rules"
    loader = LoaderBase(folder, texts={outside: "phase game:\n    pass\n", folder / "round.rules": "given"})
    assert loader.given_text("../elsewhere.rules") is None
    assert loader.given_text("round.rules") == "given"


def test_a_link_leading_out_of_the_folder_is_refused_even_with_a_given_text(tmp_path: Path) -> None:
    # The editor holds a text for the link's target: the game still may not read it (files.py).
    folder = _copy(tmp_path)
    outside = tmp_path / "elsewhere.rules"
    outside.write_text((folder / "payout.rules").read_text())
    (folder / "payout.rules").unlink()
    (folder / "payout.rules").symlink_to(outside)
    game, diags, _ = check_game(folder, texts={outside: outside.read_text(), folder / "payout.rules": "x"})
    assert game is None
    assert [d.code for d in diags if d.severity == "error"] == ["file-outside"]


def test_a_given_text_may_stand_for_a_file_not_yet_on_disk(tmp_path: Path) -> None:
    # A new buffer the designer has not saved yet, named in game.yaml.
    folder = _copy(tmp_path)
    payout = folder / "payout.rules"
    text = payout.read_text()
    payout.unlink()
    assert [d.code for d in check_game(folder)[1] if d.severity == "error"] == ["missing-file"]
    assert check_game(folder, texts={payout: text})[0] is not None
