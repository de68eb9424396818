"""What a session needs from a terminal: writing (in colour where it can), reading typed lines (with
editing, history and completion where it can), clearing the screen and what scrolled off it."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable, TextIO

from rich.console import Console
from rich.text import Text

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


class Output:
    """Where a session writes: a rich Console (colours where the terminal has them), or a function
    taking plain lines (tests, and any caller that wants text). Either way the width is known, so
    screens are laid out to fit it."""

    def __init__(self, write: Callable[[str], None] | None = None, console: Console | None = None,
                 width: int | None = None):
        self.console = console
        self.write = write or print
        self._width = width

    @property
    def width(self) -> int:
        """Columns to lay screens out in."""
        if self._width:
            return self._width
        return self.console.width if self.console is not None else 100

    def line(self, text: Text | str) -> None:
        """One line (or several, for a str with newlines); rich Text keeps its styles on a Console."""
        if self.console is not None:
            self.console.print(text if isinstance(text, Text) else Text(text), soft_wrap=True)
        else:
            self.write(text.plain if isinstance(text, Text) else text)

    def lines(self, texts: list[Text]) -> None:
        """Several lines at once (one write for a function taking text)."""
        if self.console is not None:
            for text in texts:
                self.console.print(text, soft_wrap=True)
        elif texts:
            self.write("\n".join(t.plain for t in texts))


class _Console(Console):
    """A Console that lets a closed pipe be what it is everywhere else in cityrules: a
    BrokenPipeError the command line turns into a quiet exit (rich's own exits with status 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError()


def terminal_console() -> Console | None:
    """The Console for `cityrules play`: colours only on a terminal that has them, never with
    NO_COLOR set (https://no-color.org) or TERM=dumb; plain text anywhere else. None when there is
    no standard output at all (a bots' game run with it closed): nothing is written then."""
    if sys.stdout is None or sys.stdout.closed:
        return None
    plain = bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()
    return _Console(color_system=None if plain else "auto", markup=False, highlight=False, emoji=False)


TYPE_AHEAD_LIMIT = 1 << 16
"""Bytes of type-ahead taken away at most at once (the rest is taken at the next question)."""


def drain_terminal(stream: TextIO | None) -> str:
    """Everything typed on the terminal `stream` and not read yet, partial lines included ('' for
    anything but a terminal). The terminal's line editing is switched off for the moment it takes,
    since with it on, a line still being typed cannot be read."""
    if stream is None or stream.closed or not stream.isatty():
        return ""
    try:
        import termios
        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError):  # no termios (Windows), or not a real terminal
        return ""
    raw = list(saved)
    raw[3] = saved[3] & ~termios.ICANON
    controls = list(saved[6])
    controls[termios.VMIN] = 0   # a read returns at once, with whatever is there
    controls[termios.VTIME] = 0
    raw[6] = controls
    data = b""
    try:
        termios.tcsetattr(fd, termios.TCSANOW, raw)
        while len(data) < TYPE_AHEAD_LIMIT:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
    return data.decode("utf-8", "replace")


class LineReader:
    """Reads what a person types. On a terminal: line editing, a history of this session's answers
    (Up/Down) and Tab completion of the options and commands, with GNU readline (or libedit). From a
    pipe or a file: plain lines, nothing more.

    The history is forgotten at each hot-seat hand-over: the next person must not find the previous
    one's answers under the Up key.
    """

    def __init__(self) -> None:
        self.words: list[str] = []
        self.readline: Any = None
        if sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() and sys.stdout.isatty():
            try:
                import readline
                self.readline = readline
            except ImportError:  # Python built without readline: plain input still works
                pass
            if self.readline is not None:
                rl = self.readline
                # No sequence of its own before a prompt (bracketed paste, meta key) and no bell:
                # a prompt is exactly its text, as the hand-over's checks expect.
                for setting in ("set enable-bracketed-paste off", "set enable-meta-key off", "set bell-style none",
                                "set completion-ignore-case on", "tab: complete"):
                    rl.parse_and_bind(setting)
                # Options are completed whole, spaces included ("buy shop-r0c6").
                rl.set_completer_delims("")
                rl.set_completer(self.complete)
                rl.set_auto_history(True)
                rl.clear_history()

    def __call__(self, prompt: str) -> str:
        return input(prompt)

    def drain(self) -> str:
        """What was typed since the last line was read, taken away unread: keys pressed while no
        question was on the screen (bots thinking, a hand-over, a screen being drawn) must not answer
        the next one. '' when nothing was typed or the input is not a terminal: a pipe's lines are
        answers written in advance on purpose."""
        return drain_terminal(sys.stdin)

    def offer(self, words: list[str]) -> None:
        """What Tab completes from now on: the options shown and the commands."""
        self.words = words

    def forget(self) -> None:
        """Empty the history (a new person has the keyboard)."""
        if self.readline is not None:
            self.readline.clear_history()

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the state-th word that starts with what is typed."""
        lowered = text.lower()
        matches = [w for w in self.words if w.lower().startswith(lowered)]
        return matches[state] if state < len(matches) else None
