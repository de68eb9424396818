"""Text pictures of a game for the terminal: the board from its cell coordinates, seats, log."""

from __future__ import annotations

from typing import Any

from ruledsl.runtime_support import make_formatter
from ruledsl.types import TypeSyntaxError, parse_type

from ..core.engine import Engine
from ..core.game import Game
from ..core.view import HIDDEN, masked_state, reveals_nothing
from .screen import short_value

CELL = 8


def display_badges(engine: Engine, state: dict[str, Any], seat: int | None) -> list[tuple[str, str]] | None:
    """Two lines per node from the game's own display formulas, run on what `seat` may see."""
    display = engine.game.display
    if not display:
        return None
    masked = masked_state(engine, state, seat)
    runtime = engine.runtime
    runtime.bind(masked)
    lines: list[tuple[str, str]] = []
    try:
        for i, _ in enumerate(engine.game.node_ids):
            texts = []
            for key in ("label", "detail"):
                name = display.get(key)
                texts.append(str(engine.program.formulas[name][0](runtime, i)) if name else "")
            lines.append((texts[0], texts[1]))
    except Exception:  # a display formula failing must never stop a game: fall back to the default
        return None
    return lines


def node_badges(game: Game, view: dict[str, Any]) -> list[tuple[str, str]]:
    """Two short lines per node: its id with its first text field, then its other fields."""
    initials = [name[:1] for name in view["names"]]
    badges = []
    for i, nid in enumerate(game.node_ids):
        texts = []
        for f in game.node_fields:
            column = view["node"][f.name]
            if column == HIDDEN:
                continue
            texts.append(short_value(column[i], initials))
        first = texts[0] if texts else ""
        rest = " ".join(t for t in texts[1:] if t)
        badges.append((f"{nid} {first}".strip(), rest))
    return badges


def board(game: Game, view: dict[str, Any], badges: list[tuple[str, str]] | None = None) -> str:
    """The board drawn from each node's `cells`: a node covering several cells is one box."""
    badges = badges or node_badges(game, view)
    owner: dict[tuple[int, int], int] = {}
    for i, node_cells in enumerate(game.node_cells):
        for rc in node_cells:
            owner[rc] = i
    if not owner:
        return "\n".join(f"  {a:<10} {b}" for a, b in badges)
    rows = max(r for r, _ in owner) + 1
    cols = max(c for _, c in owner) + 1
    height, width = rows * 3 + 1, cols * (CELL + 1) + 1
    canvas = [[" "] * width for _ in range(height)]

    def split(a: tuple[int, int], b: tuple[int, int]) -> bool:
        # A border goes between two cells unless both belong to the same node (or neither is a node).
        return owner.get(a) != owner.get(b)

    for r in range(rows + 1):
        for c in range(cols):
            if split((r - 1, c), (r, c)):
                for x in range(c * (CELL + 1), (c + 1) * (CELL + 1) + 1):
                    canvas[r * 3][x] = "-" if canvas[r * 3][x] == " " else "+"
    for r in range(rows):
        for c in range(cols + 1):
            if split((r, c - 1), (r, c)):
                x = c * (CELL + 1)
                for y in range(r * 3, r * 3 + 4):
                    canvas[y][x] = "|" if canvas[y][x] == " " else "+"
    for i, node_cells in enumerate(game.node_cells):
        if not node_cells:
            continue
        top = min(r for r, _ in node_cells)
        row_cells = sorted(c for r, c in node_cells if r == top)
        left, span = row_cells[0], len(row_cells)
        inner = span * (CELL + 1) - 1
        for line, text in enumerate(badges[i]):
            text = text[:inner].center(inner)
            y = top * 3 + 1 + line
            x0 = left * (CELL + 1) + 1
            canvas[y][x0:x0 + inner] = list(text)
    lines = ["".join(row).rstrip() for row in canvas]
    legend = ", ".join(f.name for f in game.node_fields if view["node"][f.name] != HIDDEN)
    if legend and not game.display:
        lines.append(f"  each box: id, then {legend} (seats by initial)")
    return "\n".join(lines)


def value_text(game: Game, type_text: str, value: Any, names: list[str]) -> str:
    """A field's value for people, by its declared type: seats by name, items by name or id."""
    if value == HIDDEN:
        return "(hidden)"
    if isinstance(value, list) and value and reveals_nothing(value):
        return hidden_size_text(value)
    world = game.world
    ids = world.ids_by_kind()
    for kind, component in world.components.items():
        if "name" in component.attrs:
            ids[kind] = tuple(str(n) for n in component.attr_values["name"])
    try:
        t = parse_type(type_text, world.components)
    except TypeSyntaxError:
        return str(value)
    return make_formatter(t, world.node_ids, ids)(value, names)


def hidden_size_text(shape: list[Any]) -> str:
    """A hidden list whose size is public: `5 hidden`, or per inner list `[2 hidden], [1 hidden]`."""
    if shape and all(isinstance(v, list) for v in shape):
        return ", ".join(f"[{hidden_size_text(v)}]" for v in shape)
    return f"{len(shape)} hidden"


def seats_table(game: Game, view: dict[str, Any], current: int | None = None) -> str:
    """One block per seat: its short fields on one line, its lists below (hidden ones left out)."""
    out = []
    for i, name in enumerate(view["names"]):
        parts, lists = [], []
        for f in game.seat_fields:
            value = view["seats"][f.name][i]
            if value == HIDDEN:
                continue
            text = value_text(game, f.type_text, value, view["names"])
            if isinstance(value, list):
                if value:
                    lists.append(f"      {f.name}: {text}")
            else:
                parts.append(f"{f.name} {text}")
        mark = ">" if i == current else " "
        out.append(f" {mark} {name:<8} " + "  ".join(parts))
        out.extend(lists)
    return "\n".join(out)


def public_globals(game: Game, view: dict[str, Any]) -> str:
    """Visible global fields: short ones on one line, lists one per line."""
    short, lists = [], []
    for f in game.global_fields:
        value = view["global"][f.name]
        if value == HIDDEN or isinstance(value, dict):
            continue
        text = value_text(game, f.type_text, value, view["names"])
        if isinstance(value, list):
            lists.append(f"  {f.name}: {text if value else '(empty)'}")
        else:
            short.append(f"{f.name}: {text}")
    return "\n".join(["   ".join(short)] + lists)
