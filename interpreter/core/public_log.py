"""The public fields of a game and their changes: what an observer may follow, field by field.

A field is public when it is declared visible to all (`visible: all`, the default); a field visible
to its owner or to nobody is never read here, not even its size, so nothing derived from this log
can show what a seat may not see. The game's own event log says what happened in the rules' words;
this log says what every public seat and global field became, so that an observer rebuilds each
public number (money, prestige) from the public record alone, whatever the rules log.
"""

from __future__ import annotations

from typing import Any

from .engine import Engine


def public_fields(engine: Engine, state: dict[str, Any]) -> dict[str, Any]:
    """Every public seat field (a list by seat) and global field, as plain JSON values."""
    game = engine.game
    return {"seat": {f.name: [_plain(v) for v in state["seat"][f.name]] for f in game.seat_fields if f.visible == "all"},
            "global": {f.name: _plain(state["global"][f.name]) for f in game.global_fields if f.visible == "all"}}


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The public fields that differ between two `public_fields`, each with its new value."""
    out: list[dict[str, Any]] = []
    for name, values in after["seat"].items():
        for seat, (old, new) in enumerate(zip(before["seat"][name], values)):
            if old != new:
                out.append({"kind": "field", "field": name, "seat": seat, "value": new, "was": old})
    for name, new in after["global"].items():
        if before["global"][name] != new:
            out.append({"kind": "field", "field": name, "seat": None, "value": new, "was": before["global"][name]})
    return out


def _plain(value: Any) -> Any:
    """A field's value as JSON can hold it: tuples and sets as lists, maps with text keys."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
