"""Shared bits of the balance tests: a small batch of a shipped game."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from interpreter.analysis.batch import BatchSpec, engine_for
from interpreter.analysis.figures import batch_figures
from interpreter.analysis.parallel import BatchResult, run_batch
from interpreter.load.games import resolve_game


def spec_of(game: str, games: int, seats: int = 4, **changes: Any) -> BatchSpec:
    """A batch of random bots on seeds 0.. of a shipped game."""
    folder = str(resolve_game(game).resolve())
    return replace(BatchSpec(folder, None, seats, ("random",) * seats, 0, games), **changes)


def figures_of(result: BatchResult) -> dict[str, Any]:
    """The figures of a played batch."""
    engine, _ = engine_for(result.spec.folder, result.spec.variant)
    return batch_figures(engine.game, result)


def play(spec: BatchSpec, jobs: int = 1, **kw: Any) -> dict[str, Any]:
    """Play a batch and return its figures."""
    return figures_of(run_batch(spec, jobs, **kw))


def journal_files(folder: Path) -> list[Path]:
    """The journals a batch wrote, in seed order."""
    return sorted(folder.glob("*.json"), key=lambda p: int(p.stem.rsplit("seed", 1)[1]))
