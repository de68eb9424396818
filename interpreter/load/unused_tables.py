"""Tables nothing reads: a warning, since a number the designer tunes there changes nothing.

A table counts as read when its name appears as a word anywhere in the game's other files (rules,
component files with their abilities, the rest of game.yaml): in code, in a text's `{...}`, or
even in a comment. The test is deliberately generous: a table it calls unused is one whose name
is written nowhere but in its own definition (and in variants that replace it).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import yaml

from ruledsl.diagnostics import DiagnosticBag, Span

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class GameWords:
    """The words of game.yaml outside its tables and options (`data`: what it holds), worked out
    when first asked and then kept (with the game's data: base.DataMemo)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data
        self._words: frozenset[str] | None = None

    def words(self) -> frozenset[str]:
        """Every word written in game.yaml but in its tables and options."""
        if self._words is None:
            rest = {k: v for k, v in self._data.items() if k not in ("tables", "options")}
            self._words = frozenset(_WORD.findall(yaml.safe_dump(rest, allow_unicode=True)))
        return self._words


def warn_unused_tables(diags: DiagnosticBag, data: dict[str, Any], game_file: str, sources: Mapping[str, str],
                       spans: Mapping[str, Span], game_words: GameWords) -> None:
    """A warning at each table of game.yaml (`data`) whose name no other part of the game writes
    (`game_words`: the words of game.yaml's other parts)."""
    tables = [str(name) for name in data.get("tables") or {}]
    if not tables:
        return
    words = set(game_words.words())
    for shown, text in sources.items():
        if shown != game_file:
            words.update(_WORD.findall(text))
    for name in tables:
        if _WORD.fullmatch(name) and name not in words and name in spans:
            diags.warning(spans[name], "unused", f"table '{name}' is never used: no rule, ability or formula reads it",
                          "use it where the number matters, or remove it")
