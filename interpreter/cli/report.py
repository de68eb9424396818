"""`cityrules report`: a batch's figures as an HTML page with plots, viewable offline."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..analysis.batch import BatchFailed
from ..analysis.figures import batch_figures
from . import COMMANDS
from .batch_args import EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec, interrupted_note, play
from .common import EXIT_ERRORS, EXIT_OK, load_engine, sub_parser
from .probe import add_probe_arguments


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
    texts = []
    if args.probe and not result.interrupted:
        from ..analysis.probe import probe_lines
        from .probe import probe_figures

        try:
            texts.append(("Probes: restricted play over the option families", "\n".join(probe_lines(
                probe_figures(args, spec)))))
        except BatchFailed as err:
            print(batch_failed_message("simulate", args.game, spec.seats, err.seed, err.report), file=sys.stderr)
            return EXIT_ERRORS
        except KeyboardInterrupt:
            result.interrupted = True
    page = write_report(args.output, batch_figures(game, result), texts)
    print(f"report written to {page}")
    if result.interrupted:
        print(interrupted_note(result), file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `report` sub-command's arguments."""
    s = sub_parser(sub, "report", COMMANDS["report"],
                   "Plays the games `simulate` would (same options) and writes DIR/index.html with its plots "
                   "beside it: win rate per seat with intervals, score distributions, game length, option win "
                   "rates, lead changes over the game, and every figure as text. The page opens offline.",
                   ["cityrules report GAME -n 2000 -o report/",
                    "cityrules report GAME -n 500 --restrict '0:play:*hospital*' -o hospital/"])
    s.add_argument("game", metavar="GAME", help="a shipped game's name (see: cityrules games) or a game folder")
    add_batch_arguments(s)
    s.add_argument("--variant", metavar="NAME", help="a variant of the game (default: the plain game)")
    s.add_argument("--probe", action="store_true",
                   help="also probe the option families (as cityrules probe does, seat --seat restricted) and "
                        "add the ranking to the page (default: no probes)")
    add_probe_arguments(s)
    s.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the folder to write index.html and the plots into (default: none; required)")
    s.set_defaults(func=cmd_report)
