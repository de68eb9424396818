"""A disk cache of parsed rules text, so that unchanged files are not parsed again.

Parsing is the slowest part of loading a game (Lark builds a tree, then the tree becomes
`ruledsl.ast` nodes). The syntax trees are frozen values that depend only on the text, where it
stands in its file, and the parser's own code; those make the key. The cache lives in
`$CITYRULES_CACHE_DIR`, else `$XDG_CACHE_HOME/cityrules`, else `~/.cache/cityrules`, and is
switched off with `CITYRULES_NO_CACHE=1`. Any problem with it (no permission, a damaged or
foreign entry) only means the text is parsed again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

# The files whose code decides what a parse gives: a change to any of them empties the cache.
_PARSER_FILES = ("rules.lark", "parser.py", "ast.py", "diagnostics.py")


@lru_cache(maxsize=1)
def _code_version() -> str:
    digest = hashlib.sha256()
    for name in _PARSER_FILES:
        digest.update(resources.files("ruledsl").joinpath(name).read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path | None:
    """Where parsed trees are kept for the current parser code, or None when caching is off."""
    if os.environ.get("CITYRULES_NO_CACHE"):
        return None
    base = os.environ.get("CITYRULES_CACHE_DIR")
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "cityrules"
    return root / f"ast-{_code_version()}"


def _entry(key: tuple[object, ...]) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / (hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest() + ".pickle")


def load(key: tuple[object, ...]) -> object | None:
    """The value stored under `key`, or None when there is none (or it cannot be read)."""
    path = _entry(key)
    if path is None:
        return None
    try:
        with path.open("rb") as handle:
            stored_key, value = pickle.load(handle)
    except Exception:  # missing, damaged, or written by other code: parse again
        return None
    # The file name is a hash of the key; the key itself is kept to rule out any collision.
    return value if stored_key == key else None


def store(key: tuple[object, ...], value: object) -> None:
    """Keep `value` under `key`; written whole or not at all, so readers never see half a file."""
    path = _entry(key)
    if path is None:
        return
    temporary: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as handle:
            temporary = handle.name
            pickle.dump((key, value), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except Exception:  # a read-only home or a full disk must not stop a game from loading
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
