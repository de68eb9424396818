"""The stored screens (tests/data/screens/) are what players see now: a change of any screen must be
made on purpose (`make goldens`) and so shows in review as a change of those files."""

from __future__ import annotations

import difflib

import pytest

from golden_screens import CASES, MORE, path_of, screens_of


@pytest.mark.parametrize("game", list(CASES))
def test_the_screens_are_the_stored_ones(game: str) -> None:
    stored = path_of(game).read_text(encoding="utf-8")
    now = screens_of(game)
    if now != stored:
        diff = "".join(list(difflib.unified_diff(stored.splitlines(True), now.splitlines(True), "stored", "now"))[:80])
        pytest.fail(f"the screens of {game} changed; if on purpose, run `make goldens`:\n{diff}")
    assert "the end, as everybody sees it" in stored and stored.count("=== ") == 4 + len(MORE.get(game, ()))
