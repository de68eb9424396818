"""The rules parser's LALR tables, kept as plain JSON in the user's private cache folder.

Building the tables from the grammar takes about a tenth of a second, as long as the rest of a
warm `validate`; reading them back takes a few milliseconds. Lark serialises a parser to plain
data (dicts, lists, tuples, text, numbers) that names only its own classes, which its loader
takes from fixed lists; `plain_json` writes that data as JSON, so reading a cache file can build
nothing else. The file is named after the grammar, Lark's version and Python's, so a changed
grammar never meets old tables.
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .. import user_cache
from ..plain_json import Codec

_CODEC = Codec([])
# Options Lark takes again at load time, rather than from the stored data.
_GIVEN_AT_LOAD = ("postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex",
                  "propagate_positions", "tree_class", "_plugins")


def _name(grammar: str) -> str:
    digest = hashlib.sha256(grammar.encode("utf-8"))
    digest.update(f"{lark.__version__} {sys.version_info[:2]}".encode())
    return f"lark-{digest.hexdigest()[:24]}.json"


def load(grammar: str, **given: Any) -> Lark | None:
    """The parser stored for this grammar, with `given` load-time options, or None."""
    data = user_cache.read("", _name(grammar))
    if data is None:
        return None
    try:
        stored = _CODEC.loads(data)
        parser: Lark = Lark.__new__(Lark)._load(stored, **given)
        return parser
    except Exception:  # damaged, or written by another Lark: build the tables again
        return None


def store(grammar: str, parser: Lark) -> None:
    """Keep a freshly built parser's tables for the next run."""
    if user_cache.folder_handle() is None:
        return
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k not in _GIVEN_AT_LOAD}
        text = _CODEC.dumps({"data": data, "memo": memo})
    except (TypeError, ValueError, RecursionError):
        return
    user_cache.write("", _name(grammar), text.encode("ascii"))
