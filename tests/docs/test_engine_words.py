"""The engine holds no game: no game's name, number or special case in ruledsl/ or interpreter/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Whole words only: the command name `cityrules` and "city-building" are not game words.
GAME_WORDS = re.compile(r"\b(downtown|london|poverty|district|city|thief|customer)\b", re.IGNORECASE)


def engine_files() -> list[Path]:
    return sorted(p for d in ("ruledsl", "interpreter") for p in (ROOT / d).rglob("*")
                  if p.suffix in (".py", ".lark", ".json") and "__pycache__" not in p.parts)


def test_engine_has_files() -> None:
    assert len(engine_files()) > 10


def test_no_game_words_in_engine() -> None:
    hits = []
    for path in engine_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            cleaned = line.replace("city-building", "")
            if GAME_WORDS.search(cleaned):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []
