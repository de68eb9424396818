"""`cityrules simulate`: many bot games and the figures a designer balances by."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ruledsl.printable import printable

from ..analysis.simulate import simulate
from ..core.decision import DEFAULT_CAP
from ..core.state import default_names
from .common import EXIT_OK, UsageError, load_engine, sub_parser, whole


def _journals_folder(text: str) -> Path:
    """`--journals DIR`: a folder that exists or can be made, checked before any game is played."""
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--journals {printable(text)}: this is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"--journals {printable(text)}: cannot make this folder ({err.strerror})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--journals {printable(text)}: this folder is not writable")
    return folder


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bot games and their statistics."""
    engine = load_engine(args.game, args.variant)
    g = engine.game
    seats = args.players if args.players is not None else max(g.min_seats, min(4, g.max_seats))
    if not g.min_seats <= seats <= g.max_seats:
        raise UsageError(f"{printable(g.title)} is for {g.min_seats} to {g.max_seats} players, not {seats}")
    journals = _journals_folder(args.journals) if args.journals else None
    report = simulate(engine, args.n, seats, args.seed, journals, args.cap)
    data = report.as_dict()
    if args.json:
        print(json.dumps(data, indent=1))
        return EXIT_OK
    names = default_names(seats)
    score = g.score_field or "score"
    variant = f", variant {g.variant}" if g.variant else ""
    print(printable(f"{g.title}{variant}: {data['games']} games, {seats} players, "
                    f"seeds {args.seed}..{args.seed + args.n - 1}"))
    print(f"  {'seat':<8} {'wins':>6} {'win rate':>9} {'mean ' + score:>12}")
    for i in range(seats):
        print(f"  {names[i]:<8} {data['wins'][i]:>6} {data['win_rate'][i]:>9.1%} {data['mean_score'][i]:>12.1f}")
    capped = f" (stopped at the cap of {args.cap} decisions; never counted as wins)" if data["unfinished"] else ""
    print(f"  shared wins: {data['shared_wins']}   unfinished: {data['unfinished']}{capped}")
    if data["mean_rounds"] is not None:
        print(f"  rounds per game: {data['mean_rounds']:.2f}")
    print(f"  decisions per game: {data['mean_decisions']:.1f}")
    print(f"  wall time: {data['seconds']:.2f} s   ({data['games_per_second']} games/s)")
    if journals is not None:
        print(printable(f"  journals written to {journals}"))
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `simulate` sub-command's arguments."""
    s = sub_parser(sub, "simulate", "play many bot games and report the figures",
                   "Play seeded random-bot games (seeds SEED, SEED+1, ...) and report each seat's wins, win rate "
                   "and mean score, rounds and decisions per game, and speed. A game that reaches the cap is "
                   "reported as unfinished, never as a win.",
                   ["cityrules simulate GAME -n 1000 --players 4    # GAME: see cityrules games",
                    "cityrules simulate examples/harbour -n 500 --players 3 --cap 5000",
                    "cityrules simulate GAME -n 20 --variant NAME --json --journals /tmp/games"])
    s.add_argument("game", metavar="GAME", help="a shipped game's name (see: cityrules games) or a game folder")
    s.add_argument("-n", type=whole(1, "a number of games"), default=100, metavar="N",
                   help="how many games to play (default: 100)")
    s.add_argument("--players", type=whole(1, "a number of players"), metavar="P",
                   help="seats per game, within the game's range (default: 4 where the game allows, "
                        "else the nearest it allows)")
    s.add_argument("--seed", type=whole(what="the first seed, a whole number"), default=0,
                   help="the first game's seed; the others follow (default: 0)")
    s.add_argument("--json", action="store_true", help="print the figures as one JSON object (default: a table)")
    s.add_argument("--journals", metavar="DIR",
                   help="write each game's journal into this folder, for replay (default: none written)")
    s.add_argument("--variant", metavar="NAME",
                   help="simulate a variant of the game, as listed by cityrules games (default: the plain game)")
    s.add_argument("--cap", type=whole(1, "a number of decisions"), default=DEFAULT_CAP, metavar="D",
                   help=f"stop a game after D decisions; it counts as unfinished (default: {DEFAULT_CAP})")
    s.set_defaults(func=cmd_simulate)
