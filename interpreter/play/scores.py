"""`score`: every seat's scored fields as one seat may see them, for a ledger what was paid and
gained so far, and, when the game declares a `projection`, what each seat would score if the game
ended now, part by part.

Nothing here knows a game: the fields are those `explain` follows (explain.scored_fields), all of
them visible to everybody; the projection is the game's formula, run on the asking seat's view, so
it cannot count what that seat may not see.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from ..core.engine import Engine
from ..core.view import view
from . import explain as X
from .palette import DIM, HEADING, seat_colour
from .screen import Screens


def score_lines(engine: Engine, state: dict[str, Any], seat: int | None, screens: Screens | None = None) -> list[Text]:
    """What `score` prints for `seat` (None: a spectator); the projection needs `screens` to run."""
    v = view(engine, state, seat)
    fields = X.scored_fields(engine.game)
    projection = X.projected(engine, state, seat, screens)
    if not fields and projection is None:
        return [Text("  This game keeps no score that everybody sees.")]
    lines = []
    if projection is not None:
        lines.append(Text("Each seat now, then what it would score if the game ended now (from what you can "
                          "see):", style=HEADING))
    for i, name in enumerate(v["names"]):
        line = Text("  ")
        line.append(printable(name), style=seat_colour(i))
        for f in fields:
            line.append(f"  {f.name} {v['seats'][f.name][i]}")
            ledger = state["ledger"].get(f.name)
            if ledger is not None:
                line.append(f" (+{ledger[1][i]} gained, -{ledger[0][i]} paid)", style=DIM)
        lines.append(line)
        if projection is not None:
            parts = projection[i]
            lines += [Text(f"      {points:>+5}  {printable(str(text))}") for text, points in parts]
            lines.append(Text(f"      {'=' + str(sum(p for _, p in parts)):>5}  if the game ended now", style=DIM))
    return lines
