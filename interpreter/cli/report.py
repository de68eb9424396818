"""`cityrules report`: a batch's figures as an HTML page with plots, viewable offline."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..analysis.batch import BatchFailed
from ..analysis.figures import batch_figures
from .batch_args import (EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec,
                         interrupted_note, play)
from .common import EXIT_ERRORS, EXIT_OK, load_engine


def cmd_report(args: argparse.Namespace) -> int:
    """Play the batch simulate would, then write DIR/index.html and its plots."""
    from ..analysis.report import write_report

    game = load_engine(args.game, args.variant).game
    spec = batch_spec(args, game, args.restrict)
    try:
        result = play(args, spec, game.name)
    except BatchFailed as err:
        print(batch_failed_message("simulate", args.game, spec.seats, err.seed, err.report), file=sys.stderr)
        return EXIT_ERRORS
    page = write_report(args.output, batch_figures(game, result))
    print(f"report written to {page}")
    if result.interrupted:
        print(interrupted_note(result), file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `report` sub-command's arguments."""
    s = sub.add_parser("report", help="play a batch and write an HTML report with plots",
                       description="Plays the games `simulate` would (same options) and writes DIR/index.html "
                                   "with its plots beside it; the page opens offline.")
    s.add_argument("game")
    add_batch_arguments(s)
    s.add_argument("--variant", help="a variant of the game")
    s.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write the report into")
    s.set_defaults(func=cmd_report)
