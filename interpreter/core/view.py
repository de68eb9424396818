"""What one seat may see of a state: the only door through which hidden information leaves."""

from __future__ import annotations

from typing import Any

from .decision import Decision
from .engine import Engine
from .state import copy_state

HIDDEN = "hidden"


def _seat_value(visible: str, owner: int, seat: int | None, value: Any) -> Any:
    if visible == "all" or (visible == "owner" and seat == owner):
        return value
    return HIDDEN


def _blank(type_text: str) -> Any:
    """A harmless stand-in of the field's type for something the seat may not see."""
    if type_text.endswith("?"):
        return None
    return {"int": 0, "bool": False, "str": ""}.get(type_text, [] if type_text.startswith("list") else
                                                   {} if type_text.startswith("map") else None)


def masked_state(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A copy of the state with everything hidden from `seat` blanked out.

    Code that shows a state to a person (e.g. the game's display formulas) runs on this copy,
    so it cannot reveal what the seat may not see, however the formulas are written.
    """
    masked = copy_state(state)
    game = engine.game
    for f in game.global_fields:
        if f.visible != "all":
            masked["global"][f.name] = _blank(f.type_text)
    for f in game.seat_fields:
        for owner in range(state["seats"]):
            if not (f.visible == "all" or (f.visible == "owner" and owner == seat)):
                masked["seat"][f.name][owner] = _blank(f.type_text)
    for f in game.node_fields:
        if f.visible != "all":
            masked["node"][f.name] = [_blank(f.type_text) for _ in masked["node"][f.name]]
    for kind, fields in game.component_fields.items():
        for f in fields:
            if f.visible != "all":
                column = masked["components"][kind][f.name]
                masked["components"][kind][f.name] = [_blank(f.type_text) for _ in column]
    masked["stack"] = []
    masked["pending"] = None
    masked["log"] = []
    return masked


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
    components = {kind: {f.name: state["components"][kind][f.name] if f.visible == "all" else HIDDEN
                         for f in fields} for kind, fields in game.component_fields.items()}
    log = [e["text"] for e in state["log"] if e["to"] is None or (seat is not None and seat in e["to"])]
    pending: dict[str, Any] | None = None
    p = state["pending"]
    if p is not None:
        open_seats = engine.open_seats(state)
        answered = [s for s, d in zip(p["seats"], p["done"]) if d]
        pending = {"waiting_for": open_seats, "answered": answered}
        decision = engine.pending(state) if seat in open_seats else None
        if seat is not None and isinstance(decision, Decision):
            pending["prompt"] = decision.prompt(seat)
            pending["options"] = [(o.id, o.label) for o in decision.options(seat)]
    return {
        "game": state["game"], "seat": seat, "names": list(state["names"]), "seats": seats, "global": glob,
        "node": nodes, "components": components, "log": log, "pending": pending,
        "result": state["result"], "decisions": state["decisions"],
    }
