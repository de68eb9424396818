"""Finding games: the shipped ones by name, the examples as `examples/NAME`, any other by its folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from ruledsl.diagnostics import did_you_mean

if TYPE_CHECKING:  # (only named here: finding a game's folder must not load the engine)
    from ..core.game import Game


def _installed(package: str, folder: str) -> Path:
    """Where a package of game folders was installed, else its folder beside the source tree."""
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    return Path(__file__).resolve().parents[2] / folder


def games_root() -> Path:
    """The folder of the games shipped with cityrules (installed as the `cityrules_games` package)."""
    return _installed("cityrules_games", "games")


def examples_root() -> Path:
    """The folder of the example games (installed as the `cityrules_examples` package), named
    `examples/NAME` wherever the command runs, as in the source tree."""
    return _installed("cityrules_examples", "examples")


def _example(name_or_path: str) -> Path | None:
    """The installed example an `examples/NAME` names, if there is one."""
    parts = Path(name_or_path).parts
    if len(parts) != 2 or parts[0] != "examples":
        return None
    example = examples_root() / parts[1]
    return example if (example / "game.yaml").is_file() else None


def shipped_games() -> list[str]:
    """Names of the shipped games."""
    root = games_root()
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def resolve_game(name_or_path: str) -> Path:
    """A game folder from a shipped game's name or a path."""
    path = Path(name_or_path)
    if (path / "game.yaml").is_file():
        return path
    if path.name == "game.yaml" and path.is_file():
        return path.parent
    shipped = games_root() / name_or_path
    if (shipped / "game.yaml").is_file():
        return shipped
    example = _example(name_or_path)
    if example is not None:
        return example
    hint = did_you_mean(name_or_path, shipped_games())
    raise FileNotFoundError(f"no game '{name_or_path}': not a folder with a game.yaml, nor a shipped game "
                            f"({', '.join(shipped_games())})" + (f"; {hint}" if hint else ""))


def game_ref(game: Game) -> str:
    """How a journal names a game: a shipped game by name, any other by its folder's full path."""
    shipped = games_root() / game.name
    if shipped.resolve() == game.folder.resolve():
        return game.name
    example = _example(f"examples/{game.folder.name}")
    if example is not None and example.resolve() == game.folder.resolve():
        return f"examples/{game.folder.name}"
    return str(game.folder.resolve())
