"""`cityrules games`: the shipped games."""

from __future__ import annotations

import argparse
from typing import Any

from ruledsl.printable import printable

from ..load.loader import load_game, shipped_games
from . import COMMANDS
from .common import EXIT_OK, sub_parser


def cmd_games(args: argparse.Namespace) -> int:
    """List the shipped games: name, title, seat range and variants."""
    for name in shipped_games():
        g = load_game(name)
        variants = f"; variants: {', '.join(g.variants)}" if g.variants else ""
        print(printable(f"{name:<12} {g.title} ({g.min_seats}-{g.max_seats} seats{variants})"))
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `games` sub-command's arguments."""
    g = sub_parser(sub, "games", COMMANDS["games"],
                   "List the games shipped with cityrules: the name to give other commands, the title, how "
                   "many seats each takes and its variants (for --variant).",
                   ["cityrules games", "cityrules play $(cityrules games | head -1 | cut -d' ' -f1)"])
    g.set_defaults(func=cmd_games)
