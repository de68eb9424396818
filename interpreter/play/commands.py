"""The commands a person may type at any prompt instead of an answer.

Each command is one `Command` in `COMMANDS`: its names, how it is written, one line of help and the
function that runs it. Adding a command is adding one entry (the help text and the completion of
command names follow). A command returns True when it changed the table (undo): the session then
asks its question afresh; otherwise the question is shown again as it was.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ruledsl.printable import printable

from .menu import Menu, is_number

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True)
class Command:
    """A word typed at a prompt, with what it does."""

    names: tuple[str, ...]          # the first is the command's name; the others are short forms
    usage: str                      # as help shows it: "log [N]"
    help: str
    run: Callable[["Session", int, Menu, str], bool]


def _help(session: "Session", seat: int, menu: Menu, arg: str) -> bool:
    session.say(help_text())
    return False


def _quit(session: "Session", seat: int, menu: Menu, arg: str) -> bool:
    from .session import Quit
    raise Quit()


COMMANDS: list[Command] = [
    Command(("help", "?", "h"), "help", "this text", _help),
    Command(("board",), "board [all]", "the screen again; 'board all' shows every field, also those "
            "the main screen leaves out", lambda s, seat, m, arg: s.cmd_board(seat, arg)),
    Command(("log",), "log [N]", "the last N lines of the game's log (default 20)",
            lambda s, seat, m, arg: s.cmd_log(seat, arg)),
    Command(("info", "i"), "info NAME", "anything named in the game (a card or other item, a place on the "
            "board, a table, a seat, a field): its attributes and ability text", lambda s, seat, m, arg: s.cmd_info(seat, arg)),
    Command(("explain",), "explain", "how the last change of the scores came about, step by step from "
            "the log", lambda s, seat, m, arg: s.cmd_explain(seat)),
    Command(("rules",), "rules [all]", "where the game is, in the words of its rules files; 'rules all': "
            "the whole game at a glance (how it goes, the choices, how it ends)",
            lambda s, seat, m, arg: s.cmd_rules(seat, arg)),
    Command(("score",), "score", "every seat's score and how it was made so far",
            lambda s, seat, m, arg: s.cmd_score(seat)),
    Command(("hint",), "hint", "what the strongest bot would choose here, from what you can see",
            lambda s, seat, m, arg: s.cmd_hint(seat, m)),
    Command(("undo",), "undo", "take back your last choice, when you have learnt nothing since and the "
            "other seats are bots", lambda s, seat, m, arg: s.cmd_undo(seat)),
    Command(("quit", "exit", "q"), "quit", "save and stop (Ctrl-D and Ctrl-C do the same); resume later "
            "with the command shown", _quit),
]

ANSWERS = """Answer with an option as the list shows it: its number, or its name where the options are
listed by name (a number that is an option's name always means that option). An option's full id
('kind:housing') or a unique start of its name works too; Tab completes names on a terminal, and
Up and Down go through what you typed before. A command is taken before an option of the same
name: type the option's number or id instead."""


def help_text() -> str:
    """What `help` prints: how to answer, then every command."""
    width = max(len(c.usage) for c in COMMANDS) + 2
    lines = [ANSWERS, "Commands, at any prompt:"]
    lines += [f"  {c.usage:<{width}}{c.help}" for c in COMMANDS]
    return "\n".join(lines)


def command_names() -> list[str]:
    """Every command's name (for completion)."""
    return [c.names[0] for c in COMMANDS]


def find(text: str) -> tuple[Command, str] | None:
    """The command typed (its first word, any case) and the rest of the line, or None."""
    words = text.strip().split(None, 1)
    if not words:
        return None
    word = words[0].lower()
    for command in COMMANDS:
        if word in command.names:
            return command, words[1] if len(words) > 1 else ""
    return None


def near_miss(text: str, names: list[str] | None = None) -> str:
    """For a typed word that is neither an option nor a command: a hint when it looks like a command
    (one of `names`; default: every command's name)."""
    words = text.strip().split(None, 1)
    if not words or len(words[0]) > 20:
        return ""
    # Looser than names in rules files: a command is short, and 'lgo' should still find 'log'.
    close = difflib.get_close_matches(words[0].lower(), names or command_names(), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


MAX_ECHO = 40
MAX_LOG_LINES = 10_000


def echo(text: str) -> str:
    """A typed answer quoted back: control characters escaped, long input cut."""
    text = text.strip()
    return printable(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def log_text(log: list[str], count: str) -> str:
    """What `log N` prints: the last N lines of `log` (the seat's own), or how N is written."""
    count = count.strip()
    if not count:
        n = 20
    elif is_number(count) and not count.startswith("-") and len(count) <= 6 and int(count) > 0:
        n = min(int(count), MAX_LOG_LINES)
    else:
        return f"  log takes a number of lines from 1 to {MAX_LOG_LINES}, e.g. 'log 30' (not '{echo(count)}')."
    return "\n".join(log[-n:])
