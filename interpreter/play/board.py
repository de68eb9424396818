"""The board as the terminal draws it: one box per node from the nodes' `cells`, two short lines in
each, a colour per node, what changed marked, and a width that fits the screen."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from .palette import CHANGED, centre

MAX_CELL = 10       # widest box per cell: wider says nothing more and pushes the board off the screen
MIN_CELL = 4        # narrower than this, the board is listed node by node instead


@dataclass(frozen=True)
class Badge:
    """What one node's box shows: two lines, the box's colour ("" for none), and whether it changed."""

    top: str
    bottom: str
    style: str = ""
    changed: bool = False


def cell_width(columns: int, width: int) -> int:
    """The width of one cell's box so that `columns` cells fit in `width` columns (0: they do not)."""
    cell = min(MAX_CELL, (width - 1) // max(columns, 1) - 1)
    return cell if cell >= MIN_CELL else 0


def draw(node_cells: tuple[tuple[tuple[int, int], ...], ...], badges: list[Badge], width: int,
         grid: bool = False) -> list[Text]:
    """The board: boxes drawn from the cells (a node covering several cells is one box), or, for a
    board without cells or too wide for the screen, one line per node. With `grid`, the columns are
    numbered above it and the rows on its left."""
    owner: dict[tuple[int, int], int] = {}
    for i, cells in enumerate(node_cells):
        for rc in cells:
            owner[rc] = i
    cols = max((c for _, c in owner), default=-1) + 1
    margin = len(str(max((r for r, _ in owner), default=0))) + 1 if grid else 0
    cell = cell_width(cols, width - margin) if owner else 0
    if not cell:
        return _listed(badges)
    if grid:
        return _numbered(_boxes(owner, cols, cell, badges, node_cells), cols, cell, margin)
    return _boxes(owner, cols, cell, badges, node_cells)


def _numbered(lines: list[Text], cols: int, cell: int, margin: int) -> list[Text]:
    """The board with its column numbers above and its row numbers beside each row's first line."""
    head = [" "] * (margin + cols * (cell + 1) + 1)
    for c in range(cols):
        x = margin + c * (cell + 1) + 1
        head[x:x + cell] = list(centre(str(c), cell))
    out = [Text("".join(head).rstrip())]
    for y, line in enumerate(lines):
        tag = str((y - 1) // 3) if y % 3 == 1 else ""
        out.append(Text(tag.rjust(margin - 1) + " ") + line)
    return out


def _boxes(owner: dict[tuple[int, int], int], cols: int, cell: int, badges: list[Badge],
           node_cells: tuple[tuple[tuple[int, int], ...], ...]) -> list[Text]:
    """The boxes themselves, `cell` columns inside each."""
    rows = max(r for r, _ in owner) + 1
    height, across = rows * 3 + 1, cols * (cell + 1) + 1
    canvas = [[" "] * across for _ in range(height)]
    spans: list[tuple[int, int, int, str]] = []

    def split(a: tuple[int, int], b: tuple[int, int]) -> bool:
        # A border goes between two cells unless both belong to the same node (or neither is a node).
        return owner.get(a) != owner.get(b)

    for r in range(rows + 1):
        for c in range(cols):
            if split((r - 1, c), (r, c)):
                for x in range(c * (cell + 1), (c + 1) * (cell + 1) + 1):
                    canvas[r * 3][x] = "-" if canvas[r * 3][x] == " " else "+"
    for r in range(rows):
        for c in range(cols + 1):
            if split((r, c - 1), (r, c)):
                x = c * (cell + 1)
                for y in range(r * 3, r * 3 + 4):
                    canvas[y][x] = "|" if canvas[y][x] == " " else "+"
    for i, cells in enumerate(node_cells):
        if not cells or i >= len(badges):
            continue
        badge = badges[i]
        top = min(r for r, _ in cells)
        row_cells = sorted(c for r, c in cells if r == top)
        left, span = row_cells[0], len(row_cells)
        inner = span * (cell + 1) - 1
        x0 = left * (cell + 1) + 1
        style = " ".join(s for s in (badge.style, CHANGED if badge.changed else "") if s)
        for k, text in enumerate((badge.top, badge.bottom)):
            y = top * 3 + 1 + k
            # One character per canvas position: a wide character would shift the box's border.
            shown = centre(_narrow(text), inner)
            canvas[y][x0:x0 + inner] = list(shown)
            if style and shown.strip():
                spans.append((y, x0, x0 + inner, style))
    lines = [Text("".join(row)) for row in canvas]
    for y, a, b, style in spans:
        lines[y].stylize(style, a, b)
    for line in lines:
        line.rstrip()
    return lines


def _narrow(text: str) -> str:
    """Wide or zero-width characters become '?': each canvas position holds exactly one cell."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(ch if cell_len(ch) == 1 else "?" for ch in text)


def _listed(badges: list[Badge]) -> list[Text]:
    out = []
    for badge in badges:
        line = Text(f"  {badge.top:<10} {badge.bottom}".rstrip())
        style = " ".join(s for s in (badge.style, CHANGED if badge.changed else "") if s)
        if style:
            line.stylize(style, 2)
        out.append(line)
    return out
