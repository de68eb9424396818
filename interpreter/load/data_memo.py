"""A game's data as last read, kept for the next check of the same folder (an editor checks at every keystroke).

Reading a game's data (game.yaml, the board, the component files with their abilities' code, and
the world the rules are checked against) is all the loader does before the rules files, and it
depends on nothing but the bytes of the files it read (or why one could not be read), the folder,
the variant and the working folder (messages name files relative to it). A loader given a memo
records what it read; the next loader of the same folder and variant fetches those files again
(an editor's texts in place of the disk's, as always) and, when each holds the same bytes, takes
the data as it was: its diagnostics, the loader's state and the world itself, shared (nothing
changes them once made). The rules files are not data: they are checked again every time.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from typing import Any

from ruledsl.diagnostics import Diagnostic

from .base import LoaderBase
from .files import Unreadable

# What a loader is given rather than reads: never part of what is kept.
_INPUTS = frozenset({"folder", "real_folder", "variant", "texts", "check_only", "memo", "reads", "diags"})


@dataclass(frozen=True)
class KeptRead:
    """One reading of a game's data: where, what it read, what it found and left in the loader."""

    place: tuple[str, str, str | None, str]
    reads: dict[tuple[str, int], bytes | Unreadable]   # (file name, limit) -> its bytes, or why none
    diagnostics: tuple[Diagnostic, ...]
    state: dict[str, Any]
    result: Any

    def restore(self, loader: LoaderBase) -> Any:
        """Leave the loader as the reading left its own, and give what the reading gave."""
        vars(loader).update({name: _copy(value) for name, value in self.state.items()})
        loader.diags.extend(self.diagnostics)
        return self.result


class DataMemo:
    """The last reading of a game's data, per variant."""

    def __init__(self) -> None:
        self._kept: dict[str | None, KeptRead] = {}

    def find(self, loader: LoaderBase) -> KeptRead | None:
        """The last reading for this loader's folder and variant, when every file it read is the
        same now; None otherwise."""
        kept = self._kept.get(loader.variant)
        if kept is None or kept.place != _place(loader):
            return None
        for (name, limit), found in kept.reads.items():
            if loader.fetch(name, limit) != found:
                return None
        return kept

    def keep(self, loader: LoaderBase, result: Any) -> None:
        """Remember a reading the loader has just done (with `reads` recording): its files, its
        diagnostics (all the loader has, since it reads its data first) and its state."""
        if loader.reads is None:
            raise ValueError("the loader did not record what it read")
        state = {name: _copy(value) for name, value in vars(loader).items() if name not in _INPUTS}
        self._kept[loader.variant] = KeptRead(_place(loader), dict(loader.reads), tuple(loader.diags.items),
                                              state, result)


def _place(loader: LoaderBase) -> tuple[str, str, str | None, str]:
    return str(loader.folder), str(loader.real_folder), loader.variant, os.getcwd()


def _copy(value: Any) -> Any:
    """A container of the loader's own, copied (the next steps add to some: sources, lines read)."""
    return copy.copy(value) if isinstance(value, (dict, list, set)) else value
