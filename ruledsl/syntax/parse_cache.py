"""A disk cache of parsed rules text, so that unchanged files are not parsed again.

Parsing is the slowest part of loading a game (Lark builds a tree, then the tree becomes
`ruledsl.syntax.ast` nodes). The syntax trees are frozen values that depend only on the text, where it
stands in its file, and the parser's own code; those make the key. Entries live in the user's
private cache folder (`ruledsl.user_cache`: mode 0700, checked before use) as JSON text that
can only build syntax-tree nodes, spans and diagnostics (`ruledsl.plain_json`): a cache file is
data, never code. `CITYRULES_NO_CACHE=1` switches it off. Any problem with it (no permission, a
damaged, foreign or planted entry) only means the text is parsed again.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .. import user_cache
from ..diagnostics import Diagnostic, Related, Span
from ..plain_json import Codec, dataclasses_of
from . import ast as A

# The files whose code decides what a parse gives: a change to any of them empties the cache.
_PARSER_FILES = ("syntax/rules.lark", "syntax/parser.py", "syntax/ast.py", "diagnostics.py", "plain_json.py")

CODEC = Codec([*dataclasses_of(vars(A)), Span, Diagnostic, Related])


@lru_cache(maxsize=1)
def _code_version() -> str:
    digest = hashlib.sha256()
    for name in _PARSER_FILES:
        digest.update(resources.files("ruledsl").joinpath(*name.split("/")).read_bytes())
    return digest.hexdigest()[:16]


def _folder_name() -> str:
    return f"ast-{_code_version()}"


def cache_dir() -> Path | None:
    """Where parsed trees are kept for the current parser code, or None when caching is off."""
    root = user_cache.cache_root()
    return None if root is None else root / _folder_name()


def _entry(key: tuple[object, ...]) -> str:
    return hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest() + ".json"


def load(key: tuple[object, ...]) -> object | None:
    """The value stored under `key`, or None when there is none (or it cannot be read)."""
    stored = user_cache.read_value(_folder_name(), _entry(key), CODEC)
    # The file name is a hash of the key; the key itself is kept to rule out any collision.
    if not (isinstance(stored, list) and len(stored) == 2 and stored[0] == key):
        return None
    value: object = stored[1]
    return value


def store(key: tuple[object, ...], value: object) -> None:
    """Keep `value` under `key`; written whole or not at all, so readers never see half a file."""
    user_cache.write_value(_folder_name(), _entry(key), CODEC, [key, value])
