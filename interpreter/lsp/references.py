"""Every place a name of a game is written, across its files: for references, rename and document symbols.

In rules code (rules files, and the ability code of component files) each word is looked up where it
stands, as go to definition does, and kept when it means the same definition: a local named like a
field is not the field. In the YAML data (game.yaml, scenario files) a name counts where it is a
whole key or value (`currency: money`, `auto: target`), never inside a description; attributes are
the keys of their own component or board file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ruledsl.check.exprtypes import KEYWORDS
from ruledsl.diagnostics import Span

from .infer import receiver
from .symbols import MEMBER_KINDS, Cursor, Symbol, Symbols

# Names a designer defines (and so may rename); built-in functions, constants and keywords are not.
RENAMABLE = ("phase", "formula", "table", "collection", "component kind", "local", "parameter", "decision",
             "seat field", "node field", "item field", "global field", "board attribute", "item attribute")
_ATTRIBUTES = ("board attribute", "item attribute")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def valid_name(name: str) -> str | None:
    """Why a new name cannot be used (None when it can)."""
    if not _IDENTIFIER.fullmatch(name):
        return f"'{name}' is not a name: use letters, digits and _ (not first a digit)"
    if name in KEYWORDS:
        return f"'{name}' is a word of the rules language"
    return None


def same(a: Symbol, b: Symbol) -> bool:
    """Two symbols are one definition."""
    return a.kind == b.kind and a.span == b.span and a.name == b.name


def definition_span(symbols: Symbols, target: Symbol) -> Span | None:
    """Where the name itself is written at its definition (a statement's span covers more)."""
    span = target.span
    if span is None:
        return None
    lines = symbols.sources.get(span.file, "").splitlines()
    if 1 <= span.line <= len(lines):
        found = re.compile(rf"\b{re.escape(target.name)}\b").search(lines[span.line - 1], span.column - 1)
        if found:
            return Span(span.file, span.line, found.start() + 1, span.line, found.end())
    return span


def occurrences(symbols: Symbols, target: Symbol) -> list[Span]:
    """Every span where the target's name is written meaning the target, its definition first."""
    first = definition_span(symbols, target)
    found: list[Span] = [first] if first is not None else []
    attribute_files = {s.span.file for group in symbols.by_name.values() for s in group
                       if s.kind in _ATTRIBUTES and s.span is not None}
    word = re.compile(rf"\b{re.escape(target.name)}\b")
    files = [target.span.file] if target.kind in ("local", "parameter") and target.span else list(symbols.sources)
    for shown in files:
        text = symbols.sources.get(shown, "")
        for n, line in enumerate(text.splitlines(), 1):
            if target.name not in line:
                continue
            for match in word.finditer(line):
                span = Span(shown, n, match.start() + 1, n, match.end())
                if span in found or _commented(line, match.start()):
                    continue
                if symbols.in_code(shown, n):
                    if _quoted(line, match.start()):
                        continue
                    if _means(symbols, target, span, line):
                        found.append(span)
                elif _in_data(symbols, target, shown, line, match, attribute_files):
                    found.append(span)
    return found


def _means(symbols: Symbols, target: Symbol, span: Span, line: str) -> bool:
    before = line[:span.column - 1].rstrip()
    after = line[span.end_column:]
    if re.search(r"\blog$", before) or (after.startswith("=") and not after.startswith("==") and before[-1:] in "(,"):
        return False    # an event's name or one of its keys: `log vote(seat=s)`
    if target.kind in MEMBER_KINDS and not before.endswith("."):
        return False    # fields and attributes are written after a '.'
    cursor = Cursor(target.name, span, before.endswith("."), re.search(r"\brun$", before) is not None)
    owner = receiver(line[:span.column - 1]) if cursor.after_dot else None
    return any(same(s, target) for s in symbols.lookup(cursor, span.file, span.line, owner))


def _in_data(symbols: Symbols, target: Symbol, shown: str, line: str, match: re.Match[str],
             attribute_files: set[str]) -> bool:
    """A whole YAML key or value naming the target."""
    if target.kind in ("local", "parameter") or not _whole(line, match.start(), match.end()):
        return False
    is_key = line[match.end():].lstrip(" \"'").startswith(":")
    if target.kind in _ATTRIBUTES:
        return target.span is not None and shown == target.span.file and is_key
    return shown not in attribute_files


def _whole(line: str, start: int, end: int) -> bool:
    """The text at [start, end) is a whole YAML scalar or key (quotes and spaces around it only)."""
    left = line[:start].rstrip(" \"'")
    right = line[end:].lstrip(" \"'")
    return (left == "" or left.strip() in ("-", "") or left[-1] in "[{,:-") and (right == "" or right[0] in "]},:#")


def _commented(line: str, at: int) -> bool:
    """After a `#` that starts a comment (not one inside quotes)."""
    quote = ""
    for i, ch in enumerate(line[:at]):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return True
    return False


def _quoted(line: str, at: int) -> bool:
    """Inside a text of the rules language, outside its `{...}` parts."""
    inside = False
    depth = 0
    for ch in line[:at]:
        if ch == '"' and depth == 0:
            inside = not inside
        elif inside and ch == "{":
            depth += 1
        elif inside and ch == "}" and depth:
            depth -= 1
    return inside and depth == 0


def outline(symbols: Symbols, shown: str) -> Iterator[Symbol]:
    """The definitions written in a file, in file order: phases, formulas, fields, tables, attributes."""
    mine = [s for group in symbols.by_name.values() for s in group
            if s.span is not None and s.span.file == shown and s.kind not in ("local", "parameter", "decision")]
    yield from sorted(mine, key=lambda s: (s.span.line, s.span.column) if s.span else (0, 0))
