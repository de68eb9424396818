"""`cityrules simulate`: many bot games and the figures a designer balances by."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..agents import parse_lineup
from ..analysis.simulate import simulate
from ..core.state import default_names
from .common import EXIT_OK, EXIT_USAGE, load_engine


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bot games and their statistics."""
    engine = load_engine(args.game, args.variant)
    g = engine.game
    seats = args.players or max(g.min_seats, min(4, g.max_seats))
    if not g.min_seats <= seats <= g.max_seats:
        print(f"simulate: {g.title} is for {g.min_seats} to {g.max_seats} players, not {seats}", file=sys.stderr)
        return EXIT_USAGE
    try:
        lineup = parse_lineup(args.bots, g, seats)
    except ValueError as err:
        print(f"simulate: {err}", file=sys.stderr)
        return EXIT_USAGE
    if args.bot_budget is not None and args.bot_budget < 1:
        print("simulate: --bot-budget must be at least 1 (iterations per decision)", file=sys.stderr)
        return EXIT_USAGE
    if args.think is not None and not args.think > 0:
        print("simulate: --think must be a positive number of seconds", file=sys.stderr)
        return EXIT_USAGE
    report = simulate(engine, args.n, seats, args.seed, Path(args.journals) if args.journals else None,
                      args.cap, lineup, {"budget": args.bot_budget, "think": args.think})
    data = report.as_dict()
    if args.json:
        print(json.dumps(data, indent=1))
        return EXIT_OK
    names = default_names(seats)
    score = g.score_field or "score"
    variant = f", variant {g.variant}" if g.variant else ""
    print(f"{g.title}{variant}: {data['games']} games, {seats} players, seeds {args.seed}..{args.seed + args.n - 1}")
    # The bot of each seat is shown when the line-up is not the default (random bots everywhere).
    shown = any(name != "random" for name in lineup)
    bots = [f"{name:<16} " if shown else "" for name in lineup]
    print(f"  {'seat':<8} " + (f"{'bot':<16} " if shown else "") + f"{'wins':>6} {'win rate':>9} {'mean ' + score:>12}")
    for i in range(seats):
        print(f"  {names[i]:<8} {bots[i]}{data['wins'][i]:>6} {data['win_rate'][i]:>9.1%} "
              f"{data['mean_score'][i]:>12.1f}")
    capped = f" (stopped at the cap of {args.cap} decisions; not counted as wins)" if args.cap else ""
    print(f"  shared wins: {data['shared_wins']}   unfinished: {data['unfinished']}{capped}")
    if data["mean_rounds"] is not None:
        print(f"  rounds per game: {data['mean_rounds']:.2f}")
    print(f"  decisions per game: {data['mean_decisions']:.1f}")
    print(f"  wall time: {data['seconds']:.2f} s   ({data['games_per_second']} games/s)")
    if args.journals:
        print(f"  journals written to {args.journals}")
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """The `simulate` sub-command's arguments."""
    s = sub.add_parser("simulate", help="play many bot games and report the figures")
    s.add_argument("game")
    s.add_argument("-n", type=int, default=100, help="number of games")
    s.add_argument("--players", type=int)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--json", action="store_true")
    s.add_argument("--journals", help="write each game's journal into this folder")
    s.add_argument("--variant", help="simulate a variant of the game")
    s.add_argument("--cap", type=int, help="stop a game after this many decisions (reported as unfinished)")
    s.add_argument("--bots", default="random",
                   help="the bots: one name for every seat or one per seat, e.g. mcts,random,random,greedy:builder "
                        "(random, greedy, mcts, bot; :PROFILE picks one of the game's bot profiles)")
    s.add_argument("--bot-budget", type=int, help="mcts iterations per decision (default 300)")
    s.add_argument("--think", type=float,
                   help="at most this many seconds per mcts decision (results then depend on the machine's speed)")
    s.set_defaults(func=cmd_simulate)
