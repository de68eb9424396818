"""`cityrules new`: write a small, commented game folder to start a new game from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..workbench.scaffold import ScaffoldError, write_game
from . import COMMANDS
from .common import EXIT_OK, EXIT_USAGE, sub_parser


def cmd_new(args: argparse.Namespace) -> int:
    """Write the folder; never overwrite anything."""
    try:
        folder = write_game(Path(args.folder), args.title)
    except ScaffoldError as err:
        print(printable(f"cityrules new: {err}"), file=sys.stderr)
        return EXIT_USAGE
    shown = printable(str(folder))
    print(f"Wrote a new game in {shown}. Try it:\n"
          f"  cityrules validate {shown}\n"
          f"  cityrules play {shown} --seats human,bot\n"
          f"  cityrules simulate {shown} -n 100 --bots random\n"
          f"  cityrules train {shown}\n"
          f"  cityrules simulate {shown} -n 100\n"
          f"  cityrules test {shown}\n"
          "Then follow docs/tutorial.md to make it your own game.")
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `new` sub-command's arguments."""
    n = sub_parser(sub, "new", COMMANDS["new"],
                   "Write a small, commented game folder that validates, plays, simulates and passes its own "
                   "scenario; an existing folder is never overwritten. docs/tutorial.md goes on from there.",
                   ["cityrules new mygame", "cityrules new games-in-progress/harvest --title \"Harvest Moon\""])
    n.add_argument("folder", metavar="FOLDER", help="the folder to create (its last part becomes the game's name)")
    n.add_argument("--title", help="the name shown to players (default: from the folder's name)")
    n.set_defaults(func=cmd_new)
