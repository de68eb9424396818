"""What one seat may see of a state: the only door through which hidden information leaves."""

from __future__ import annotations

from typing import Any

from .decision import Decision
from .engine import Engine

HIDDEN = "hidden"


def _seat_value(visible: str, owner: int, seat: int | None, value: Any) -> Any:
    if visible == "all" or (visible == "owner" and seat == owner):
        return value
    return HIDDEN


def view(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it (None: a spectator who sees only public information).

    Fields declared `visible: owner` show only to their seat, `visible: nobody` to no one; the
    rules' paused position, pending answers of other seats and private log lines never appear.
    """
    game = engine.game
    n = state["seats"]
    seats = {f.name: [_seat_value(f.visible, i, seat, state["seat"][f.name][i]) for i in range(n)]
             for f in game.seat_fields}
    glob = {f.name: state["global"][f.name] if f.visible == "all" else HIDDEN for f in game.global_fields}
    nodes = {f.name: state["node"][f.name] if f.visible == "all" else HIDDEN for f in game.node_fields}
    log = [e["text"] for e in state["log"] if e["to"] is None or (seat is not None and seat in e["to"])]
    pending: dict[str, Any] | None = None
    p = state["pending"]
    if p is not None:
        open_seats = [s for s, d in zip(p["seats"], p["done"]) if not d]
        answered = [s for s, d in zip(p["seats"], p["done"]) if d]
        pending = {"waiting_for": open_seats, "answered": answered}
        decision = engine.pending(state) if seat in open_seats else None
        if seat is not None and isinstance(decision, Decision):
            pending["prompt"] = decision.prompt(seat)
            pending["options"] = [(o.id, o.label) for o in decision.options(seat)]
    return {
        "game": state["game"], "seat": seat, "names": list(state["names"]), "seats": seats, "global": glob,
        "node": nodes, "log": log, "pending": pending,
        "result": state["result"], "decisions": state["decisions"],
    }
