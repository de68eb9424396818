"""Text that is safe to print on a terminal, whatever a rule file, a journal or a player wrote.

A terminal obeys control characters: ESC starts sequences that clear the screen, move the cursor,
set the window title or write to the clipboard; BEL rings; a lone CR overwrites a line. Text from
untrusted files or typed by a player is shown with such characters escaped (`\\x1b`, `\\u2028`),
so what reaches the terminal is exactly what was written, never an instruction to it.
"""

from __future__ import annotations

import re
import unicodedata

# C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
# overrides and isolates that make text display in another order than it is stored.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_KEEP_NONE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = False) -> str:
    """`text` with every control character escaped; tabs kept, newlines kept only if asked.

    Used for anything shown to a person that came from outside the program: titles, seat names,
    option labels, quoted source lines, typed answers echoed back.
    """
    pattern = _UNSAFE if newlines else _UNSAFE_KEEP_NONE
    if newlines:
        return pattern.sub(_escape, text)
    return pattern.sub(_escape, text.replace("\t", " "))


def is_printable(text: str) -> bool:
    """True when `printable` would leave the text as it is (no newline, no control character)."""
    return _UNSAFE_KEEP_NONE.search(text) is None and "\t" not in text


def display_width(text: str) -> int:
    """Columns the text takes on a terminal: wide East Asian characters take two, combining marks none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width
