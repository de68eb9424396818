"""`cityrules probe`: restricted play over every option family, ranked by its effect on a seat's win rate."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ruledsl.printable import printable

from ..analysis.batch import BatchFailed, BatchSpec
from ..analysis.parallel import BatchResult
from ..analysis.probe import probe_lines, run_probes
from . import COMMANDS
from .batch_args import EXIT_INTERRUPTED, add_batch_arguments, batch_failed_message, batch_spec, play
from .common import EXIT_ERRORS, EXIT_OK, UsageError, load_engine, sub_parser, whole

DEFAULT_PROBES = 12


def probe_figures(args: argparse.Namespace, spec: BatchSpec) -> dict[str, Any]:
    """Free play, then each probe (batches as the arguments say); the probe's figures.
    Raises KeyboardInterrupt when a batch was interrupted: a probe of part of its games means nothing."""
    if not 0 <= args.seat < spec.seats:
        raise UsageError(f"--seat {args.seat}: there is no seat {args.seat} in a {spec.seats}-player game "
                         f"(seats are 0 to {spec.seats - 1})")

    def played(batch: BatchSpec, label: str) -> BatchResult:
        result = play(args, batch, label)
        if result.interrupted:
            raise KeyboardInterrupt
        return result

    return run_probes(spec, played, args.probes, args.seat)


def cmd_probe(args: argparse.Namespace) -> int:
    """Play the probes and print them ranked."""
    game = load_engine(args.game, args.variant).game
    spec = batch_spec(args, game)
    try:
        data = probe_figures(args, spec)
    except BatchFailed as err:
        print(batch_failed_message("simulate", args.game, spec.seats, err.seed, err.report), file=sys.stderr)
        return EXIT_ERRORS
    except KeyboardInterrupt:
        print("interrupted: the probe needs every game of each batch; nothing to report", file=sys.stderr)
        return EXIT_INTERRUPTED
    data["game"] = game.name
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print("\n".join(printable(line) for line in probe_lines(data)))
    return EXIT_OK


def add_probe_arguments(s: argparse.ArgumentParser) -> None:
    """--probes and --seat: what probe and report --probe accept besides the batch's arguments."""
    s.add_argument("--probes", type=whole(1, "a number of probes"), default=DEFAULT_PROBES, metavar="N",
                   help=f"play at most N probes, the most chosen families first (default: {DEFAULT_PROBES})")
    s.add_argument("--seat", type=whole(0, "a seat number"), default=0,
                   help="the seat restricted, 0 being the first (default: 0)")


def add_parser(sub: Any) -> None:
    """The `probe` sub-command's arguments."""
    s = sub_parser(sub, "probe", COMMANDS["probe"],
                   "Plays free games, then for each family of options the game's option ids make (use_lobby:*, "
                   "action:buy:*) and each member of it, games where one seat must always take that member "
                   "and games where it may never take it, on the same seeds. Each probe's effect on the "
                   "restricted seat's win rate is given with an interval corrected for the number of probes "
                   "(Holm), ranked; a constant choice winning 1.5x the fair share is flagged dominant, an "
                   "option the seat does better without is flagged, and so is a restriction under which the "
                   "seat never wins. See docs/balance.md.",
                   ["cityrules probe GAME -n 500",
                    "cityrules probe GAME -n 200 --bots greedy --probes 20 --json"])
    s.add_argument("game", metavar="GAME", help="a shipped game's name (see: cityrules games) or a game folder")
    add_batch_arguments(s, restrict=False)
    add_probe_arguments(s)
    s.add_argument("--variant", metavar="NAME", help="a variant of the game (default: the plain game)")
    s.add_argument("--json", action="store_true", help="print the probes as one JSON object (default: text)")
    s.set_defaults(func=cmd_probe)
