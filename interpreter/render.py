"""Text pictures of a game for the terminal: the board from its cell coordinates, seats, log."""

from __future__ import annotations

from typing import Any

from .game import Game
from .view import HIDDEN

CELL = 8


def _short(value: Any, names: list[str]) -> str:
    if value is None or value is False or value == HIDDEN:
        return ""
    if value is True:
        return "*"
    if isinstance(value, str):
        return value[:3]
    if isinstance(value, list):
        return "".join(names[v][0] if isinstance(v, int) and 0 <= v < len(names) else "?" for v in value)
    return str(value)


def node_badges(game: Game, view: dict[str, Any]) -> list[tuple[str, str]]:
    """Two short lines per node: its id with its first text field, then its other fields."""
    names = view["names"]
    badges = []
    for i, nid in enumerate(game.node_ids):
        texts = []
        for f in game.node_fields:
            column = view["node"][f.name]
            if column == HIDDEN:
                continue
            texts.append(_short(column[i], names))
        first = texts[0] if texts else ""
        rest = " ".join(t for t in texts[1:] if t)
        badges.append((f"{nid} {first}".strip(), rest))
    return badges


def board(game: Game, view: dict[str, Any]) -> str:
    """The board drawn on a grid from each node's `cells`, or a list when it has no coordinates."""
    badges = node_badges(game, view)
    cells = {}
    for i, node_cells in enumerate(game.node_cells):
        for rc in node_cells:
            cells[rc] = i
    if not cells:
        return "\n".join(f"  {a:<10} {b}" for a, b in badges)
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    lines = []
    border = "+" + "+".join("-" * CELL for _ in range(cols)) + "+"
    lines.append(border)
    for r in range(rows):
        top, bottom = [], []
        for c in range(cols):
            node = cells.get((r, c))
            if node is None:
                top.append(" " * CELL)
                bottom.append(" " * CELL)
            else:
                top.append(badges[node][0][:CELL].center(CELL))
                bottom.append(badges[node][1][:CELL].center(CELL))
        lines.append("|" + "|".join(top) + "|")
        lines.append("|" + "|".join(bottom) + "|")
        lines.append(border)
    legend = ", ".join(f.name for f in game.node_fields if view["node"][f.name] != HIDDEN)
    lines.append(f"  each lot: id {legend} (markers by seat initial)" if legend else "")
    return "\n".join(lines)


def seats_table(game: Game, view: dict[str, Any], current: int | None = None) -> str:
    """One line per seat with its visible fields."""
    out = []
    for i, name in enumerate(view["names"]):
        parts = []
        for f in game.seat_fields:
            value = view["seats"][f.name][i]
            if value == HIDDEN:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{f.name} {value}")
        mark = ">" if i == current else " "
        out.append(f" {mark} {name:<8} " + "  ".join(parts))
    return "\n".join(out)


def public_globals(game: Game, view: dict[str, Any]) -> str:
    """Visible global fields that read well as one line each (numbers, text, seats)."""
    out = []
    for f in game.global_fields:
        value = view["global"][f.name]
        if value == HIDDEN or isinstance(value, (dict, list)):
            continue
        if f.type_text == "seat" and isinstance(value, int):
            value = view["names"][value]
        out.append(f"{f.name}: {value}")
    return "   ".join(out)
