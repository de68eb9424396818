"""`score`: every seat's scored fields as one seat may see them, and for a ledger what was paid and
gained so far.

Nothing here knows a game: the fields are those `explain` follows (explain.scored_fields), all of
them visible to everybody.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ruledsl.printable import printable

from . import explain as X
from .palette import DIM, seat_colour
from ..core.engine import Engine
from ..core.view import view


def score_lines(engine: Engine, state: dict[str, Any], seat: int | None) -> list[Text]:
    """What `score` prints for `seat` (None: a spectator)."""
    v = view(engine, state, seat)
    fields = X.scored_fields(engine.game)
    if not fields:
        return [Text("  This game keeps no score that everybody sees.")]
    lines = []
    for i, name in enumerate(v["names"]):
        line = Text("  ")
        line.append(printable(name), style=seat_colour(i))
        for f in fields:
            line.append(f"  {f.name} {v['seats'][f.name][i]}")
            ledger = state["ledger"].get(f.name)
            if ledger is not None:
                line.append(f" (+{ledger[1][i]} gained, -{ledger[0][i]} paid)", style=DIM)
        lines.append(line)
    return lines
