"""Arguments shared by the sub-commands that play batches (simulate, compare, report, tune)."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from typing import Iterator

from ..analysis.batch import BatchSpec
from ..analysis.lineup import known_bots, parse_lineup
from ..analysis.parallel import BACKENDS, BatchResult, Progress, default_jobs, run_batch
from ..analysis.restrict import parse_restrictions
from ..core.game import Game

# A batch stopped by Ctrl-C: its figures are printed all the same, for the games that finished.
EXIT_INTERRUPTED = 130


def add_batch_arguments(s: argparse.ArgumentParser, restrict: bool = True) -> None:
    """-n, --players, --seed, --bots, --cap, --jobs, --backend, --address, --no-progress [, --restrict]."""
    s.add_argument("-n", type=int, default=100, help="number of games (default: 100)")
    s.add_argument("--players", type=int, help="number of seats (default: 4, or the nearest the game allows)")
    s.add_argument("--seed", type=int, default=0, help="first seed: games use SEED, SEED+1, ... (default: 0)")
    s.add_argument("--bots", metavar="LIST",
                   help=f"one bot for every seat or one per seat, comma-separated (bots: {', '.join(known_bots())}; "
                        "default: random)")
    s.add_argument("--rotate", action="store_true",
                   help="turn the line-up by one seat each game, so every bot sits at every seat equally")
    s.add_argument("--cap", type=int, help="stop a game after this many decisions (reported as unfinished)")
    s.add_argument("--jobs", type=int, metavar="N",
                   help=f"worker processes (default: every core, {default_jobs()} here); the figures are the same")
    s.add_argument("--backend", choices=BACKENDS, default="processes",
                   help="processes on this machine, or tasks on a Ray cluster (pip install 'cityrules[ray]')")
    s.add_argument("--address", help="the Ray cluster to join (default: start a local Ray instance)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.add_argument("--option", action="append", metavar="PATTERN",
                   help="also count the options whose id matches this glob pattern, e.g. 'play:*hospital*' "
                        "(repeatable)")
    if restrict:
        s.add_argument("--restrict", action="append", metavar="SEAT:PATTERN",
                       help="forbid a seat the options whose id matches a glob pattern, e.g. 0:use_lobby:yes or "
                            "'1:develop:*hospital*' (repeatable)")


def seats_for(game: Game, players: int | None) -> int:
    """The number of seats asked for, checked against the game."""
    seats = players if players is not None else max(game.min_seats, min(4, game.max_seats))
    if not game.min_seats <= seats <= game.max_seats:
        raise ValueError(f"{game.title} is for {game.min_seats} to {game.max_seats} players, not {seats}")
    return seats


def batch_spec(args: argparse.Namespace, game: Game, restrictions: list[str] | None = None,
               journals: str | None = None, keep_games: bool = False, bots: str | None = None,
               rotate: bool | None = None) -> BatchSpec:
    """The batch the arguments ask for."""
    if args.n < 1:
        raise ValueError(f"-n {args.n}: play at least one game")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs {args.jobs}: at least one worker")
    if args.cap is not None and args.cap < 1:
        raise ValueError(f"--cap {args.cap}: at least one decision")
    seats = seats_for(game, args.players)
    return BatchSpec(str(game.folder.resolve()), game.variant, seats, parse_lineup(bots or args.bots, seats),
                     args.seed, args.n, args.cap, parse_restrictions(restrictions, seats),
                     args.rotate if rotate is None else rotate, journals, keep_games, tuple(args.option or ()))


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

