"""A game reads only its own files: links that lead out or go round are diagnostics, never reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.load.files import Unreadable, read_game_file
from interpreter.load.loader import check_game
from lang_helpers import write_game

RULES = "phase main:\n    end winners seats\n"


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    write_game(folder, RULES)
    return folder


def relink(folder: Path, name: str, target: str | Path) -> None:
    (folder / name).unlink()
    (folder / name).symlink_to(target)


def test_a_link_out_of_the_folder_is_reported_where_game_yaml_names_the_file(game: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.rules"
    secret.write_text("phase main:\n    log \"secret\"\n    end winners seats\n", encoding="utf-8")
    relink(game, "x.rules", secret)
    _, diags, sources = check_game(game)
    named = (game / "game.yaml").read_text(encoding="utf-8").splitlines().index("- x.rules") + 1
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in diags] == [("file-outside", "game.yaml", named)]
    assert "x.rules" in diags[0].message and str(secret) not in diags[0].message
    assert all("secret" not in text for text in sources.values())


def test_a_link_to_another_file_of_the_folder_is_read_under_its_own_name(game: Path) -> None:
    (game / "x.rules").rename(game / "real.rules")
    (game / "x.rules").symlink_to("real.rules")
    g, diags, sources = check_game(game)
    assert g is not None and diags == []
    assert any(name.endswith("x.rules") for name in sources) and not any(n.endswith("real.rules") for n in sources)


@pytest.mark.parametrize("target, code", [("x.rules", "file-loop"), ("/nonexistent/x.rules", "file-outside"),
                                          ("missing.rules", "missing-file")])
def test_loops_and_dangling_links(game: Path, target: str, code: str) -> None:
    relink(game, "x.rules", target)
    _, diags, _ = check_game(game)
    assert [d.code for d in diags] == [code]


def test_game_yaml_itself_must_be_inside(game: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    relink(game, "game.yaml", tmp_path / "elsewhere.yaml")
    _, diags, sources = check_game(game)
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in diags] == [("file-outside", "game.yaml", 1)]
    assert sources == {}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.rules")
    found = read_game_file(tmp_path, "x.rules", 100)
    assert isinstance(found, Unreadable) and found.code == "file-unreadable"


def test_a_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    (tmp_path / "x.rules").write_bytes(b"a" * 50)
    assert read_game_file(tmp_path, "x.rules", 10) == b"a" * 11
