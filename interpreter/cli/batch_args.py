"""Arguments shared by the sub-commands that play batches (simulate, compare, report, tune)."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from typing import Iterator

from ruledsl.printable import printable

from ..agents.mcts import DEFAULT_BUDGET
from ..analysis.batch import BatchSpec
from ..analysis.lineup import known_bots, parse_lineup, untrained
from ..analysis.parallel import BACKENDS, BatchResult, Progress, default_jobs, run_batch
from ..analysis.restrict import parse_restrictions
from ..core.decision import DEFAULT_CAP
from ..core.engine import Engine
from ..core.game import Game
from .common import UsageError, seconds, whole

# A batch stopped by Ctrl-C: its figures are printed all the same, for the games that finished.
EXIT_INTERRUPTED = 130


def add_batch_arguments(s: argparse.ArgumentParser, restrict: bool = True) -> None:
    """-n, --players, --seed, --bots, --rotate, --cap, --jobs, --backend, --address, --no-progress, --option
    [, --restrict]: what every command that plays a batch accepts."""
    s.add_argument("-n", type=whole(1, "a number of games"), default=100, metavar="N",
                   help="how many games to play (default: 100)")
    s.add_argument("--players", type=whole(1, "a number of players"), metavar="P",
                   help="seats per game, within the game's range (default: one per bot when --bots lists "
                        "several, else 4 where the game allows, else the nearest it allows)")
    s.add_argument("--seed", type=whole(what="the first seed, a whole number"), default=0,
                   help="the first game's seed; the others follow (default: 0)")
    s.add_argument("--bots", metavar="LIST",
                   help=f"one bot for every seat, or one per seat, comma-separated (bots: {', '.join(known_bots())}; "
                        "bot judges by the game's trained value (cityrules train), NAME:PROFILE uses one of the "
                        "game's bot profiles, FILE.py:CLASS or package.module:CLASS your own player "
                        "(docs/bots.md); default: bot)")
    s.add_argument("--bot-budget", type=whole(1, "a number of iterations"), metavar="N",
                   help=f"mcts iterations per decision (default: {DEFAULT_BUDGET})")
    s.add_argument("--think", type=seconds, metavar="SECONDS",
                   help="stop each mcts search after this long; figures then depend on the machine's speed and "
                        "load, so a seed no longer reproduces them (default: no time limit)")
    s.add_argument("--rotate", action="store_true",
                   help="turn the line-up one seat each game, so every bot sits at every seat equally "
                        "(default: each bot keeps its seat)")
    s.add_argument("--cap", type=whole(1, "a number of decisions"), default=DEFAULT_CAP, metavar="D",
                   help=f"stop a game after D decisions; it counts as unfinished (default: {DEFAULT_CAP})")
    s.add_argument("--jobs", type=whole(1, "a number of worker processes"), metavar="J",
                   help=f"worker processes; the figures are the same for any number (default: every core, "
                        f"{default_jobs()} here)")
    s.add_argument("--backend", choices=BACKENDS, default="processes",
                   help="processes on this machine, or tasks on a Ray cluster: pip install 'cityrules[ray]' "
                        "(default: processes)")
    s.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster to join: HOST:PORT (its head's GCS port), ray://HOST:10001 or auto "
                        "(default: start a local Ray instance)")
    s.add_argument("--no-progress", action="store_true",
                   help="no progress bar (default: a bar with the time left on stderr when it is a terminal)")
    s.add_argument("--option", action="append", metavar="PATTERN",
                   help="also count the options whose id matches this glob pattern, e.g. 'play:*hospital*' "
                        "(repeatable; default: option ids and their families only)")
    if restrict:
        s.add_argument("--restrict", action="append", metavar="SEAT:PATTERN",
                       help="forbid a seat (0 is the first) the options whose id matches a glob pattern, e.g. "
                            "0:use_lobby:yes or '1:develop:*hospital*' (repeatable; default: free play)")


def seats_for(game: Game, players: int | None) -> int:
    """The number of seats asked for, checked against the game."""
    seats = players if players is not None else max(game.min_seats, min(4, game.max_seats))
    if not game.min_seats <= seats <= game.max_seats:
        raise UsageError(f"{printable(game.title)} is for {game.min_seats} to {game.max_seats} players, not {seats}")
    return seats


def batch_spec(args: argparse.Namespace, game: Game, restrictions: list[str] | None = None,
               journals: str | None = None, keep_games: bool = False, bots: str | None = None,
               rotate: bool | None = None) -> BatchSpec:
    """The batch the arguments ask for."""
    listed = (bots or args.bots or "").split(",")
    # `--bots a,b,c` names a bot per seat: three seats, unless --players says otherwise.
    implied = args.players is None and len(listed) >= 2
    if implied:
        parse_lineup(bots or args.bots, len(listed), game)  # an unknown bot is said before a seat count
    seats = seats_for(game, len(listed) if implied else args.players)
    options = tuple((k, v) for k, v in (("budget", args.bot_budget), ("think", args.think)) if v is not None)
    lineup = parse_lineup(bots or args.bots, seats, game)
    problem = untrained(lineup, Engine(game), given=bool(bots or args.bots))
    if problem is not None:
        raise UsageError(problem)
    return BatchSpec(str(game.folder.resolve()), game.variant, seats, lineup,
                     args.seed, args.n, args.cap, parse_restrictions(restrictions, seats),
                     args.rotate if rotate is None else rotate, journals, keep_games, tuple(args.option or ()),
                     options)


@contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[Progress | None]:
    """A progress bar with the time left on stderr, only when stderr is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
             TimeRemainingColumn(), console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        # No refresh thread: the batch forks its workers, and a fork should not copy a running thread.
        task = bar.add_task(label, total=None)
        bar.refresh()

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
            bar.refresh()
        yield update


def play(args: argparse.Namespace, spec: BatchSpec, label: str) -> BatchResult:
    """Run a batch with the arguments' jobs and backend, a progress bar when stderr is a terminal."""
    with progress_bar(not args.no_progress, label) as progress:
        return run_batch(spec, args.jobs, args.backend, args.address, progress)


def interrupted_note(result: BatchResult) -> str:
    """What a Ctrl-C left: how many games finished and which seeds they are."""
    from ..analysis.text import seed_text

    return (f"interrupted: {result.tally.games} of {result.spec.games} games finished "
            f"(seeds {seed_text([list(r) for r in result.seed_ranges])}); the figures cover those games only")


def batch_failed_message(command: str, game_arg: str, seats: int, seed: int, report: str, extra: str = "") -> str:
    """A rule error in one game of a batch, with the command that replays that game alone."""
    return f"{report}\nreproduce: cityrules {command} {game_arg} -n 1 --players {seats} --seed {seed}{extra}"

