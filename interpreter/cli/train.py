"""`cityrules train`: fit the game's learned value by self-play and keep it in the game's folder."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..analysis.parallel import BACKENDS, default_jobs
from . import COMMANDS
from .batch_args import progress_bar
from .common import EXIT_ERRORS, EXIT_OK, load_engine, sub_parser, whole


def cmd_train(args: argparse.Namespace) -> int:
    """Self-play rounds, then the value's file written beside the rules."""
    from ..agents.train import TrainingFailed, TrainSpec, train
    from ..agents.value import save, value_path

    engine = load_engine(args.game, args.variant)
    game = engine.game
    spec = TrainSpec.for_game(str(game.folder.resolve()), engine, args.variant, args.seed, rounds=args.rounds,
                              games=args.games)
    target = Path(args.out) if args.out else value_path(game)
    print(f"training {printable(game.title)}: {spec.rounds} rounds of {spec.games} self-play games "
          f"({', '.join(str(n) for n in spec.seat_counts(engine))} seats), seed {spec.seed}", file=sys.stderr)
    start = time.perf_counter()
    try:
        with progress_bar(not args.no_progress, "train") as progress:
            training = train(spec, args.jobs or default_jobs(), args.backend, args.address,
                             None if progress is None else (lambda done, total, _: progress(done, total)))
    except TrainingFailed as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERRORS
    written = save(training.value, target)
    wall = time.perf_counter() - start
    print(f"{written}: {training.games} games, {training.positions} positions, "
          f"{len(training.value.space.names)} features; {wall:.0f} s ({training.seconds:.0f} s CPU in this process)")
    last = training.rounds[-1]
    if last.get("held_out_loss") is not None:
        # How much the value knows: its loss on games it was not fitted on, beside a guess that knows
        # only the average (a value no better than that has learned nothing: play more games).
        gain = 1.0 - last["held_out_loss"] / max(1e-9, last["constant_loss"])
        print(f"  on held-out games: loss {last['held_out_loss']:.3f}, a constant guess {last['constant_loss']:.3f} "
              f"({gain:.0%} better)" + ("" if gain > 0.02 else "; barely better than a guess: try more --games"))
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `train` sub-command's arguments."""
    s = sub_parser(sub, "train", COMMANDS["train"],
                   "Play self-play games and fit the game's learned value: a small network that predicts how each "
                   "seat will finish from what that seat sees. The `bot` bot judges every option by it, and mcts "
                   "reads it where its search stops. The result is written to bots.trained.json in the game's "
                   "folder, with a hash of the rules: after any change of the game's files, train again. The same "
                   "seed gives the same file, with any number of jobs or on Ray.",
                   ["cityrules train examples/harbour", "cityrules train mygame --jobs 2",
                    "cityrules train mygame --rounds 3 --games 100 --seed 2"])
    s.add_argument("game", help="a shipped game's name or a game folder")
    s.add_argument("--variant", metavar="NAME", help="train on one of the game's variants (default: the game as written)")
    s.add_argument("--seed", type=whole(0, "a seed, a whole number"), default=1, help="the training's seed (default: 1)")
    s.add_argument("--rounds", type=whole(1, "a number of rounds"),
                   help="self-play rounds; each plays with the value fitted on the rounds before "
                        "(default: the game's bots: training:, else 2)")
    s.add_argument("--games", type=whole(1, "a number of games"),
                   help="games per round (default: the game's bots: training:, else 300)")
    s.add_argument("--out", metavar="FILE", help="write the file here (default: bots.trained.json in the game's folder)")
    s.add_argument("--jobs", type=whole(1, "a number of worker processes"), metavar="J",
                   help=f"worker processes; the file is the same for any number (default: every core, {default_jobs()} here)")
    s.add_argument("--backend", choices=BACKENDS, default="processes",
                   help="processes on this machine, or tasks on a Ray cluster (default: processes)")
    s.add_argument("--address", metavar="ADDR", help="the Ray cluster to join (default: start a local Ray instance)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar (default: a bar on stderr when it is a terminal)")
    s.set_defaults(func=cmd_train)
