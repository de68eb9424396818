"""What a session needs from a terminal beyond printing: clearing the screen and what scrolled off it."""

from __future__ import annotations

import functools
import os
import sys
from typing import TextIO

# ECMA-48: cursor home, erase the screen, erase the saved lines (xterm's extension, widely followed).
ANSI_CLEAR = "\x1b[H\x1b[2J"
ANSI_CLEAR_SCROLLBACK = "\x1b[3J"


@functools.cache
def clear_sequence() -> str:
    """The terminal's own sequences (terminfo `clear` and `E3`) to clear the screen and its scrollback.

    Where terminfo does not know the terminal or lacks a capability, the ANSI sequences stand in:
    clearing the scrollback must never be skipped, since it holds the previous player's screens.
    """
    clear, scrollback = "", ""
    try:
        import curses
        curses.setupterm(os.environ.get("TERM") or "xterm", sys.__stdout__.fileno() if sys.__stdout__ else -1)
        clear = (curses.tigetstr("clear") or b"").decode("ascii", "ignore")
        scrollback = (curses.tigetstr("E3") or b"").decode("ascii", "ignore")
    except Exception:  # no curses, no terminfo entry, not a terminal: the ANSI sequences do
        pass
    return (clear or ANSI_CLEAR) + (scrollback or ANSI_CLEAR_SCROLLBACK)


def clear_screen(stream: TextIO | None = None) -> None:
    """Wipe the screen and the scrollback when `stream` is a terminal; elsewhere, mark the hand-over."""
    stream = stream or sys.stdout
    if stream is None:
        return
    if stream.isatty():
        stream.write(clear_sequence())
    else:
        stream.write("\n" + "-" * 60 + "\n")
    stream.flush()
