"""What one connection is sent: a seat's screen, its question, the end; built from `view` only.

The screens are the terminal session's own (play/screen.py's `Screens.main`, play/frame.py's end of
game), drawn on the host from `view(engine, state, seat)` alone and sent as text, laid out for the
client's width: a better session screen is a better networked one, and the client needs to know
nothing of the game. Their texts are escaped where they are made (ruledsl/printable); the client
escapes everything it prints once more.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ...core.decision import Decision
from ...core.view import view
from ..frame import end_lines, question_lines
from ..screen import Screens, fitted

SCROLLBACK = 12  # log lines sent to a connection that has seen none yet (a new or returning player)
WIDTH, MIN_WIDTH, MAX_WIDTH = 80, 40, 200  # the width screens are laid out in, as a client may ask
ABSENT = " (disconnected)"  # beside a human seat nobody plays from a terminal now


def marked(v: dict[str, Any], absent: frozenset[int]) -> dict[str, Any]:
    """The view with the mark of absence beside the names of the `absent` seats, to be drawn."""
    if not absent:
        return v
    return {**v, "names": [name + ABSENT if i in absent else name for i, name in enumerate(v["names"])]}


def main_lines(screens: Screens, v: dict[str, Any], seat: int | None, before: dict[str, Any] | None,
               width: int, absent: frozenset[int], everything: bool = False) -> list[Text]:
    """The session's main screen of view `v`, the absent seats marked, laid out for `width`."""
    return fitted(screens.main(marked(v, absent), seat, before, width, everything), width)


def screen(screens: Screens, state: dict[str, Any], seat: int | None, seen: int | None,
           before: dict[str, Any] | None, width: int,
           absent: frozenset[int] = frozenset()) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """The `screen` message for `seat`, the number of log lines it has now been shown, and the view
    it was drawn from (the `before` of a later screen: what changed since is marked, as in `play`).

    `seen` is how many of the seat's log lines the connection was already sent (None: none yet);
    `absent` the human seats nobody plays now (marked beside their names and in `waiting`).
    """
    v = view(screens.engine, state, seat)
    log = v["log"]
    new = log[-SCROLLBACK:] if seen is None else log[seen:]
    pending = v["pending"]
    names = marked(v, absent)["names"]
    waiting = [names[s] for s in pending["waiting_for"]] if pending else []
    text, styles = styled(main_lines(screens, v, seat, before, width, absent))
    return {"type": "screen", "log": new, "text": text, "styles": styles, "waiting": waiting,
            "absent": absent_names(v["names"], absent)}, len(log), v


def absent_names(names: list[str], absent: frozenset[int]) -> list[str]:
    """The names of the absent seats, in seat order."""
    return [name for i, name in enumerate(names) if i in absent]


def question(screens: Screens, state: dict[str, Any], seat: int, ask: int, width: int) -> dict[str, Any] | None:
    """The `ask` message for `seat`'s open question (None when it has none), numbered `ask`: the
    question as `play` shows it (prompt, options with what each means, laid out for `width`), and
    the options' ids, labels and details, for the client to read the answer."""
    decision = screens.engine.pending(state)
    if not isinstance(decision, Decision) or seat not in decision.seats:
        return None
    options = decision.options(seat)
    text, styles = styled(fitted(question_lines(decision, seat, state["names"][seat], width), width))
    return {"type": "ask", "ask": ask, "prompt": decision.prompt(seat), "secret": decision.secret,
            "options": [[o.id, o.label, o.detail] for o in options], "text": text, "styles": styles}


def ending(screens: Screens, state: dict[str, Any], seat: int | None, seen: int | None,
           width: int = WIDTH) -> dict[str, Any]:
    """The `end` message: the last log lines this seat may read, the final screen as `play` shows it
    (the public view, every seat's score part by part, the winners), the scores and winners (no seed)."""
    engine = screens.engine
    log = view(engine, state, seat)["log"]
    public = view(engine, state, None)
    result = engine.result(state)
    names = public["names"]
    text, styles = styled(fitted(screens.main(public, None, None, width) + end_lines(engine, state, screens), width))
    return {"type": "end", "log": log[-SCROLLBACK:] if seen is None else log[seen:], "text": text, "styles": styles,
            "scores": {f: [[names[i], str(x)] for i, x in enumerate(values)] for f, values in result.scores.items()},
            "winners": [names[i] for i in result.winners]}


def styled(lines: list[Text]) -> tuple[str, list[list[Any]]]:
    """Lines as one plain text, and their styles (the session's colours, the mark on what changed) as
    [start, end, style] spans into it: a client on a terminal shows them as `play` does."""
    parts: list[str] = []
    spans: list[list[Any]] = []
    at = 0
    for line in lines:
        plain = line.plain
        if line.style:
            spans.append([at, at + len(plain), str(line.style)])
        spans += [[at + s.start, at + s.end, str(s.style)] for s in line.spans if s.style]
        parts.append(plain)
        at += len(plain) + 1
    return "\n".join(parts), spans
