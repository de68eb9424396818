"""A designer's own player: a Python class named by `FILE.py:CLASS` or `package.module:CLASS`.

The class is built with the bot's seed (`Class(seed)`) and answers `choose(view, options) -> int`:
`view` is exactly what its seat may see (`core.view.view`, the view `play` draws from), `options`
the seat's pending options as `(option_id, label)` pairs, and the answer an index into `options`.
It never receives the state or the engine, so it cannot read hidden information by accident; it
gets a copy of the view, so it cannot change the game by changing what it was shown.

Any mistake (a missing file, a class that is not there, an exception, an answer that is not an
index) is a CustomPlayerError whose one-line message names the file or module, the class and, once
playing, the decision.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import operator
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from ruledsl.printable import printable

from ..core.engine import Engine
from ..core.view import view

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_CLASS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Loaded classes by file and class (or module and class), with the file's modification time: an edited file is loaded again.
_LOADED: dict[str, tuple[int, type]] = {}
_PROMPT_CUT = 60


class CustomPlayerError(ValueError):
    """A custom player that cannot be loaded or that answered wrongly (the message says which and where)."""


def is_custom(name: str) -> bool:
    """True when `name` has the form of a custom player: `FILE.py:CLASS` (a path) or `package.module:CLASS`.

    The form alone decides, never whether the file exists, so `mcts:builder` (a bot and a profile)
    can never be taken for one.
    """
    where, sep, _ = name.strip().rpartition(":")
    if not sep or not where:
        return False
    return where.lower().endswith(".py") or "/" in where or "\\" in where or _DOTTED.fullmatch(where) is not None


def _parts(spec: str) -> tuple[str, str]:
    where, _, cls = spec.strip().rpartition(":")
    if not _CLASS.fullmatch(cls):
        raise CustomPlayerError(f"custom player '{printable(spec.strip())}': '{printable(cls)}' is not a class "
                                "name (give FILE.py:CLASS or package.module:CLASS)")
    return where, cls


def _is_file(where: str) -> bool:
    return where.lower().endswith(".py") or "/" in where or "\\" in where


def _load_file(where: str, spec: str) -> tuple[int, ModuleType]:
    path = Path(where).expanduser()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as err:
        raise CustomPlayerError(f"custom player '{printable(spec)}': cannot read {printable(where)}: "
                                f"{printable(err.strerror or str(err))}") from None
    if not path.is_file():
        raise CustomPlayerError(f"custom player '{printable(spec)}': {printable(where)} is not a file")
    # A module name of its own per file, registered while it runs (dataclasses and pickling look it up).
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    name = f"_cityrules_player_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}_{digest}"
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise CustomPlayerError(f"custom player '{printable(spec)}': {printable(where)} cannot be loaded as Python")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except BaseException as err:
        sys.modules.pop(name, None)
        if isinstance(err, (KeyboardInterrupt, GeneratorExit)):
            raise
        raise CustomPlayerError(f"custom player '{printable(spec)}': loading {printable(where)} failed: "
                                f"{_failure(err)}") from None
    return stamp, module


def _load_module(where: str, spec: str) -> ModuleType:
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as err:
        if err.name is not None and (where == err.name or where.startswith(err.name + ".")):
            raise CustomPlayerError(
                f"custom player '{printable(spec)}': no module '{printable(where)}' on Python's path (install it or "
                "add its folder to PYTHONPATH; for a file give its path, e.g. players/mine.py:CLASS)") from None
        raise CustomPlayerError(f"custom player '{printable(spec)}': importing {printable(where)} failed: "
                                f"{_failure(err)}") from None
    except Exception as err:
        raise CustomPlayerError(f"custom player '{printable(spec)}': importing {printable(where)} failed: "
                                f"{_failure(err)}") from None


def load_player(spec: str) -> type:
    """The class a custom player's spec names, loaded (again only when its file changed).

    Raises CustomPlayerError for a file or module that cannot be loaded, a class that is not in it,
    or a class without a `choose` method.
    """
    spec = spec.strip()
    where, cls_name = _parts(spec)
    if _is_file(where):
        path = Path(where).expanduser()
        try:
            stamp: int | None = path.stat().st_mtime_ns
        except OSError:
            stamp = None
        key = f"{path.resolve()}:{cls_name}"
        cached = _LOADED.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        stamp_loaded, module = _load_file(where, spec)
    else:
        key = spec
        cached = _LOADED.get(key)
        if cached is not None:
            return cached[1]
        stamp_loaded, module = 0, _load_module(where, spec)
    cls = getattr(module, cls_name, None)
    if cls is None:
        known = sorted(n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == module.__name__)
        hint = f" (its classes: {', '.join(known)})" if known else " (it defines no class)"
        raise CustomPlayerError(f"custom player '{printable(spec)}': {printable(where)} has no class "
                                f"'{printable(cls_name)}'{printable(hint)}")
    if not isinstance(cls, type):
        raise CustomPlayerError(f"custom player '{printable(spec)}': '{printable(cls_name)}' in {printable(where)} "
                                "is not a class")
    if not callable(getattr(cls, "choose", None)):
        raise CustomPlayerError(f"custom player '{printable(spec)}': class {printable(cls_name)} in "
                                f"{printable(where)} has no method choose(view, options)")
    _LOADED[key] = (stamp_loaded, cls)
    return cls


def _failure(err: BaseException) -> str:
    """An exception in one line: its type, message and the last place in the player's code it passed."""
    text = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    frames = traceback.extract_tb(err.__traceback__)
    if isinstance(err, SyntaxError) and err.filename:
        text += f" ({Path(err.filename).name}:{err.lineno})"
    elif frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}:{last.lineno})"
    return printable(" ".join(text.split()))


class CustomAgent:
    """A custom player seated as a bot: it is shown its seat's view and options, and answers an index."""

    def __init__(self, spec: str, seed: int):
        self.name = spec.strip()
        self.where, self.cls_name = _parts(self.name)
        cls = load_player(self.name)
        try:
            self.player = cls(seed)
        except Exception as err:
            raise CustomPlayerError(f"{self._who()}: {printable(self.cls_name)}({seed}) failed: {_failure(err)}") \
                from None

    def _who(self) -> str:
        return f"custom player {printable(self.where)}, class {printable(self.cls_name)}"

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """The player's answer, checked: an index among the seat's options."""
        shown = view(engine, state, seat)
        pending = shown["pending"] or {}
        options = [(str(i), str(label)) for i, label in pending.get("options", [])]
        try:
            answer = self.player.choose(copy.deepcopy(shown), list(options))
        except Exception as err:
            raise CustomPlayerError(f"{self._who()}: at {self._decision(shown, seat, len(options))}: choose raised "
                                    f"{_failure(err)}") from None
        if isinstance(answer, bool):
            index = None
        else:
            try:
                index = operator.index(answer)
            except TypeError:
                index = None
        if index is None or not 0 <= index < len(options):
            shown_answer = printable(repr(answer))
            if len(shown_answer) > _PROMPT_CUT:
                shown_answer = shown_answer[:_PROMPT_CUT] + "..."
            raise CustomPlayerError(f"{self._who()}: at {self._decision(shown, seat, len(options))}: choose returned "
                                    f"{shown_answer}, not an option index (a whole number from 0 to "
                                    f"{len(options) - 1})")
        return index

    def _decision(self, shown: dict[str, Any], seat: int, count: int) -> str:
        """The decision in words: its number, the seat and the question (only what the seat was shown)."""
        prompt = " ".join(str((shown["pending"] or {}).get("prompt", "")).split())
        if len(prompt) > _PROMPT_CUT:
            prompt = prompt[:_PROMPT_CUT] + "..."
        name = shown["names"][seat]
        return printable(f"decision {shown['decisions']} (seat {seat}, {name}: '{prompt}', {count} options)")
