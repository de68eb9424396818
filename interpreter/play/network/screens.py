"""What one connection is sent: a seat's screen, its question, the end; built from `view` only.

Every text here is made from `view(engine, state, seat)` (and the game's display formulas, which run
on `masked_state`): nothing a seat may not see can reach these messages. The screens are drawn by
the terminal session's own functions (play/render.py), so a better screen there is a better one here.
"""

from __future__ import annotations

from typing import Any

from .. import render
from ...core.engine import Engine
from ...core.view import view

SCROLLBACK = 12  # log lines sent to a connection that has seen none yet (a new or returning player)


def screen(engine: Engine, state: dict[str, Any], seat: int | None, seen: int | None) -> tuple[dict[str, Any], int]:
    """The `screen` message for `seat` and the number of log lines it has now been shown.

    `seen` is how many of the seat's log lines the connection was already sent (None: none yet).
    """
    v = view(engine, state, seat)
    log = v["log"]
    new = log[-SCROLLBACK:] if seen is None else log[seen:]
    game = engine.game
    badges = render.display_badges(engine, state, seat)
    pending = v["pending"]
    waiting = [v["names"][s] for s in pending["waiting_for"]] if pending else []
    message = {"type": "screen", "log": new, "board": render.board(game, v, badges),
               "globals": render.public_globals(game, v), "seats": render.seats_table(game, v, seat),
               "waiting": waiting}
    return message, len(log)


def question(engine: Engine, state: dict[str, Any], seat: int, ask: int, secret: bool) -> dict[str, Any] | None:
    """The `ask` message for `seat`'s open question (None when it has none), numbered `ask`."""
    pending = view(engine, state, seat)["pending"]
    if not pending or "options" not in pending:
        return None
    return {"type": "ask", "ask": ask, "prompt": pending["prompt"], "secret": secret,
            "options": [[oid, label] for oid, label in pending["options"]]}


def ending(engine: Engine, state: dict[str, Any], seat: int | None, seen: int | None) -> dict[str, Any]:
    """The `end` message: the last log lines this seat may read, the scores and the winners (no seed)."""
    v = view(engine, state, seat)
    log = v["log"]
    result = engine.result(state)
    names = v["names"]
    return {"type": "end", "log": log[-SCROLLBACK:] if seen is None else log[seen:],
            "scores": {f: [[names[i], str(x)] for i, x in enumerate(values)] for f, values in result.scores.items()},
            "winners": [names[i] for i in result.winners]}
