"""`cityrules play`: a terminal session, humans and bots at one table."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..agents import UnknownBot, check_bot
from ..core.engine import Engine
from ..core.journal import Journal
from ..core.state import default_names
from ..load.loader import game_ref
from ..play.session import Seat, Session
from .common import EXIT_OK, EXIT_USAGE, load_engine, sessions_dir


def _seat_list(text: str, engine: Engine) -> list[str]:
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    for kind in kinds:
        if kind != "human":
            try:
                check_bot(kind, engine.game)
            except UnknownBot as err:
                raise ValueError(f"{err}; a seat is human or a bot, e.g. --seats human,mcts,greedy") from None
    g = engine.game
    if not g.min_seats <= len(kinds) <= g.max_seats:
        raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, --seats lists {len(kinds)}")
    return kinds


def cmd_play(args: argparse.Namespace) -> int:
    """A terminal session; resumable from its journal."""
    if args.resume:
        journal = Journal.load(Path(args.resume))
        engine = load_engine(journal.game, journal.variant)
        kinds = journal.agents or ["human"] + ["bot"] * (journal.seats - 1)
        for kind in kinds:
            if kind != "human":
                check_bot(kind, engine.game)
        save = Path(args.resume)
    else:
        if not args.game:
            print("play: name a game (see: cityrules games) or --resume FILE", file=sys.stderr)
            return EXIT_USAGE
        engine = load_engine(args.game, args.variant)
        g = engine.game
        default = ",".join(["human"] + ["bot"] * (max(g.min_seats, min(4, g.max_seats)) - 1))
        kinds = _seat_list(args.seats or default, engine)
        seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
        names = [n.strip() for n in args.names.split(",")] if args.names else default_names(len(kinds))
        if len(names) != len(kinds):
            print(f"play: --names gives {len(names)} names for {len(kinds)} seats", file=sys.stderr)
            return EXIT_USAGE
        journal = Journal(game_ref(g), len(kinds), seed, names, kinds, variant=args.variant)
        save = Path(args.journal) if args.journal else sessions_dir() / f"{g.name}-seed{seed}.json"
        print(f"{g.title}, seed {seed}. Seats: " + ", ".join(f"{n} ({k})" for n, k in zip(names, kinds)))
        if g.reconstructed_board:
            print("(The board layout is a reconstruction: see the game's board.yaml.)")
        print("Type 'help' at any prompt. The game is saved after every choice.")
    seats = [Seat(k, n) for k, n in zip(kinds, journal.names)]
    Session(engine, journal, seats, save).run()
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `play` sub-command's arguments."""
    pl = sub.add_parser("play", help="play in the terminal, humans and bots")
    pl.add_argument("game", nargs="?", help="a shipped game's name or a game folder")
    pl.add_argument("--seats", help="comma-separated human or a bot (bot, mcts, greedy, random, NAME:PROFILE), "
                                    "e.g. human,bot,bot,bot or human,mcts,greedy")
    pl.add_argument("--seed", type=int)
    pl.add_argument("--names", help="comma-separated seat names")
    pl.add_argument("--journal", help="where to save the game (default: a file under ~/.local/state/cityrules)")
    pl.add_argument("--resume", help="continue a saved game from its journal")
    pl.add_argument("--variant", help="play a variant of the game (see its game.yaml options)")
    pl.set_defaults(func=cmd_play)
