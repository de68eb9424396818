"""What one seat sees at a moment, as lines: its screen, its question, the end of the game.

No terminal here: these functions take the engine, the state and the seat and give rich `Text` lines
(`as_text` turns them into a string, plain or with colour codes). The terminal session prints them,
`validate`'s trial games build them to find screens that fail, and a networked table can send them.
Everything is built from the seat's own view (core/view.py), so nothing the seat may not see can
reach these lines.
"""

from __future__ import annotations

import io
from typing import Any, Sequence

from rich.console import Console
from rich.text import Text

from ruledsl.printable import printable

from ..core.decision import Decision
from ..core.engine import Engine
from ..core.view import view
from . import explain as X
from .menu import Menu
from .palette import HEADING, NOTE, seat_colour
from .screen import Screens


def question_lines(decision: Decision, seat: int, name: str, width: int) -> list[Text]:
    """The question put to `seat` (named `name`) and its options, laid out for `width` columns."""
    menu = Menu.of(decision.options(seat))
    head = Text("\n")
    shown = printable(name)
    head.append(shown, style=seat_colour(seat))
    # A new line the designer wrote in the question starts a new line; every other control
    # character stays escaped.
    first, *more = printable(decision.prompt(seat), newlines=True).split("\n")
    if first.startswith(shown) and not first[len(shown):len(shown) + 1].isalnum():
        head.append(first[len(shown):], style=HEADING)   # "Ana, build where?" is not "Ana: Ana, build where?"
    else:
        head.append(": " + first, style=HEADING)
    if decision.secret:
        head.append("  (secret)")
    lines = [head, *[Text("  " + line, style=HEADING) for line in more]]
    if menu.mode == "names":
        lines.append(Text("(type an option as it is shown)"))
    lines += [Text(printable(line)) for line in menu.lines(width)]
    return lines


def end_lines(engine: Engine, state: dict[str, Any], screens: Screens,
              marks: Sequence[X.Mark] = ()) -> list[Text]:
    """The end of a game (everything is public then): the scores, each seat's score part by part as
    the rules computed it, and the winners. `marks` (the table before each decision, kept by a
    session) let a breakdown without a formula of its own show only the final stretch's events."""
    names = state["names"]
    result = engine.result(state)
    lines = [Text("\nGame over.", style=HEADING)]
    for fname, values in result.scores.items():
        lines.append(Text(f"  {fname}: " + ", ".join(f"{printable(names[i])} {x}" for i, x in enumerate(values))))
    lines.append(Text("Final scores, as the rules counted them:", style=HEADING))
    for i in range(len(names)):
        lines += X.breakdown(engine, state, list(marks), i, screens)
    winners = Text("  Winner(s): ", style=NOTE)
    winners.append(", ".join(printable(names[i]) for i in result.winners), style=NOTE)
    lines.append(winners)
    return lines


def seat_screen(engine: Engine, state: dict[str, Any], seat: int | None, width: int = 80,
                before: dict[str, Any] | None = None, screens: Screens | None = None,
                everything: bool = False, seen: dict[str, Any] | None = None) -> list[Text]:
    """Everything `seat` sees now (None: a spectator, who sees only what is public): the main screen
    (with what changed since `before`, the seat's view at its last turn, marked), then its question
    when it has one open, or the end of the game once it is over. `seen`: the seat's view of
    `state`, when the caller has it already (it is kept to be the next screen's `before`)."""
    screens = screens or Screens(engine)
    v = seen if seen is not None else view(engine, state, seat)
    lines = screens.main(v, seat, before, width, everything)
    if state["result"] is not None:
        return lines + end_lines(engine, state, screens)
    decision = engine.pending(state)
    if seat is not None and isinstance(decision, Decision) and seat in decision.seats:  # (seats still to answer)
        lines += question_lines(decision, seat, state["names"][seat], width)
    return lines


def as_text(lines: list[Text], width: int = 80, colour: bool = False) -> str:
    """Lines as one string: plain, or with the terminal's colour codes (`colour`)."""
    if not colour:
        return "\n".join(line.plain for line in lines)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="truecolor", width=width)
    for line in lines:
        console.print(line, soft_wrap=True)
    return out.getvalue().rstrip("\n")


def render_seat_screen(engine: Engine, state: dict[str, Any], seat: int | None, width: int = 80,
                       colour: bool = False, before: dict[str, Any] | None = None) -> str:
    """One seat's whole screen as text (see seat_screen): what a networked table sends a player."""
    return as_text(seat_screen(engine, state, seat, width, before), width, colour)
