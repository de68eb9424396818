"""`cityrules games`: the shipped games."""

from __future__ import annotations

import argparse
from typing import Any

from ..load.loader import load_game, shipped_games
from . import COMMANDS
from .common import EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    """List the shipped games."""
    for name in shipped_games():
        g = load_game(name)
        print(f"{name:<12} {g.title} ({g.min_seats}-{g.max_seats} seats)")
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `games` sub-command's arguments."""
    g = sub.add_parser("games", help=COMMANDS["games"])
    g.set_defaults(func=cmd_games)
