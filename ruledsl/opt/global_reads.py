"""Global fields that no rule ever replaces as a whole, read once per function run.

A global field is read as `V['at']`: a look-up in the state's globals at every read. The rules
change most global fields only in place (`at[piece] = cell`: the map stays the same map); a field
that no statement of any phase assigns as a whole (`at = ...`, `round += 1`) is the same object for
as long as a function runs, as a column is (exprgen.column). Such a field read more than once in
a function is bound once at its top, `_g2 = V['at']`, and read there. Formulas already bind every
global they read (nothing changes the state while they run); this extends it to phases.

The decision is made on the generated Python of the whole program, token by token (a rule's text
that happens to spell `V['at']` is a string and is never touched). If the generated code ever uses
`V` other than to look up a field, nothing is bound.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Iterator, TypeVar

S = TypeVar("S")  # where a line comes from in the rules (a Span, or None)

_ASSIGNING = {"=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^=", ">>=", "<<=", ":="}
_WORD_V = re.compile(r"\bV\b")
_PREFIX = "_g"


class _Whole(Exception):
    """`V` is used whole somewhere: no field can be known to stay the same object."""


def _lookups(text: str) -> Iterator[tuple[int, int, str, bool]]:
    """Each `V['name']` of a line outside strings: its columns, the field, and whether it is assigned."""
    if not _WORD_V.search(text):
        return
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        raise _Whole() from None
    shift = len(text) - len(text.lstrip())
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "V":
            continue
        if i > 0 and tokens[i - 1].string == ".":  # c.V, in a prologue
            continue
        parts = tokens[i + 1:i + 5]
        if len(parts) == 4 and parts[0].string == "[" and parts[1].type == tokenize.STRING and parts[2].string == "]":
            field = parts[1].string
            if not re.fullmatch(r"'[A-Za-z_][A-Za-z0-9_]*'", field):
                raise _Whole()
            yield (tok.start[1] + shift, parts[2].end[1] + shift, field[1:-1], parts[3].string in _ASSIGNING)
        elif len(parts) >= 1 and parts[0].string == "=" and i == 0:  # V = c.V
            continue
        else:
            raise _Whole()


class GlobalReads:
    """The look-ups of global fields in the generated functions, found once for the whole program."""

    def __init__(self, bodies: list[list[str]]):
        """`bodies`: the lines of each function, in the order `bind` is later asked for them."""
        try:
            self.spots = [[list(_lookups(text)) for text in body] for body in bodies]
        except _Whole:
            self.spots = [[[] for _ in body] for body in bodies]
            self.unchanged: set[str] = set()
            return
        read: set[str] = set()
        assigned: set[str] = set()
        for body_spots in self.spots:
            for line in body_spots:
                for _, _, field, assigns in line:
                    (assigned if assigns else read).add(field)
        self.unchanged = read - assigned  # read, and never assigned as a whole

    def bind(self, index: int, body: list[tuple[int, str, S]],
             names: dict[str, str]) -> tuple[list[tuple[int, str, S]], list[str]]:
        """Function `index`'s lines reading each unchanged global read more than once through a
        local, and the bindings for its top (`names` gives each field its local, shared by all)."""
        found = self.spots[index]
        counts: dict[str, int] = {}
        for spots in found:
            for _, _, field, _ in spots:
                counts[field] = counts.get(field, 0) + 1
        bound = {f for f, n in counts.items() if n > 1 and f in self.unchanged}
        if not bound:
            return body, []
        out = []
        for (depth, text, span), spots in zip(body, found):
            for start, end, field, _ in reversed(spots):
                if field in bound:
                    text = text[:start] + _name(field, names) + text[end:]
            out.append((depth, text, span))
        return out, [f"{_name(f, names)} = c.V[{f!r}]" for f in sorted(bound, key=lambda f: names[f])]


def _name(field: str, names: dict[str, str]) -> str:
    if field not in names:
        names[field] = f"{_PREFIX}{len(names)}"
    return names[field]
