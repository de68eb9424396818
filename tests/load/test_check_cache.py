"""A YAML file found valid once is not checked against its schema again while its bytes and the
code stay the same (check_cache.known_valid): the schema check is the slowest step of reading an
unchanged board or card list, paid again by every command that loads the game."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.load import base, check_cache
from interpreter.load.loader import check_game
from ruledsl import user_cache

GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private cache folder of the test's own, and no file read earlier in the process remembered."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CITYRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CITYRULES_NO_CACHE", raising=False)
    monkeypatch.setattr(base, "_YAML_READ", {})
    user_cache._handle.cache_clear()
    yield folder
    user_cache._handle.cache_clear()


def _checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the schema check is run on from now on (by their shown name)."""
    seen: list[str] = []
    real = base.check_schema

    def counting(data: object, positions: object, schema: str, shown: str) -> object:
        seen.append(shown.rsplit("/", 1)[-1])
        return real(data, positions, schema, shown)  # type: ignore[arg-type]

    monkeypatch.setattr(base, "check_schema", counting)
    return seen


def _load_again(game: Path) -> list[str]:
    """Every diagnostic of a fresh load, as a new process would (nothing remembered in memory)."""
    base._YAML_READ.clear()
    _, diags, _ = check_game(game)
    return [f"{d.code}: {d.message}" for d in diags if d.severity == "error"]


def test_an_unchanged_valid_file_is_not_checked_again(cache: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "city"
    shutil.copytree(GAMES / "city", game)
    seen = _checks(monkeypatch)
    assert _load_again(game) == []
    assert sorted(seen) == ["board.yaml", "game.yaml"]
    seen.clear()
    assert _load_again(game) == [] and seen == []
    # One byte more in the board (a comment): the board is checked again, game.yaml is not.
    with (game / "board.yaml").open("a", encoding="utf-8") as f:
        f.write("# moved a street\n")
    assert _load_again(game) == [] and seen == ["board.yaml"]


def test_a_file_that_breaks_the_schema_is_checked_every_time(cache: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "city"
    shutil.copytree(GAMES / "city", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("seats: {min: 2, max: 6}", "seats: {min: two, max: 6}"),
                                    encoding="utf-8")
    seen = _checks(monkeypatch)
    first = _load_again(game)
    assert first and all(e.startswith("schema") for e in first)
    assert _load_again(game) == first
    assert seen.count("game.yaml") == 2


def test_without_a_cache_every_file_is_checked(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITYRULES_NO_CACHE", "1")
    game = tmp_path / "downtown"
    shutil.copytree(GAMES / "downtown", game)
    seen = _checks(monkeypatch)
    _load_again(game)
    _load_again(game)
    assert seen.count("game.yaml") == 2 and not cache.exists()


def test_what_is_kept_is_only_the_fact(cache: Path, tmp_path: Path) -> None:
    """An entry says "valid" and nothing else: no text of the game, no code (docs/security.md)."""
    game = tmp_path / "downtown"
    shutil.copytree(GAMES / "downtown", game)
    _load_again(game)
    entries = [p for p in cache.rglob("*") if p.is_file() and p.parent.name.startswith("schema-valid-")]
    assert entries and all(p.read_bytes() == b"valid\n" for p in entries)
    assert check_cache.known_valid("game", (game / "game.yaml").read_bytes())
    assert not check_cache.known_valid("board", (game / "game.yaml").read_bytes())


def test_the_code_version_is_the_same_when_a_tests_folder_shadows_the_package(tmp_path: Path) -> None:
    # tests/ruledsl has no __init__.py: with tests/ first on the import path, `ruledsl` is a namespace
    # package without a __file__, and the digest once walked the working directory instead.
    tests = Path(__file__).resolve().parents[1]
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import ruledsl; "
              "from interpreter.load import check_cache; print(ruledsl.__file__, check_cache._code_version())")
    shadowed = subprocess.run([sys.executable, "-c", script, str(tests)], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout.split()
    assert shadowed == ["None", check_cache._code_version()]
