"""Benchmark: a bot against scripted players (issue 25), seats rotated every game, Wilson intervals.

The bot under test (any `--bots` name) sits at seat g mod players in game g; every other seat is a
scripted player (`--against FILE.py:CLASS`, by default the one in benchmarks/scripted/GAME.py),
shown only its seat's view. Prints the games, the bot's wins with a 95 % Wilson interval, the fair
share and the ratio to it, the share of games the bot's seat ended at a score <= 0, the bot's CPU
per decision (median, max), and one JSON line for the README's table. Asserts nothing. Run:

    python benchmarks/bench_match.py --game downtown --bot mcts --games 100 --jobs 2
    python benchmarks/bench_match.py --game downtown --bot random --against benchmarks/scripted/downtown.py:Planner
    python benchmarks/bench_match.py --game city --hand move    # the bot's moves made by the scripted player
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.agents import check_bot, normal_name
from interpreter.load.loader import load_game
from matches import Match, Outcome, default_against, lines, match_engine, play, questions, summary


def _play(task: tuple[Match, int]) -> Outcome:
    return play(*task)


def run(match: Match, jobs: int) -> list[Outcome]:
    """Every game of the match, in order (the same whatever the number of jobs)."""
    tasks = [(match, g) for g in range(match.games)]
    if jobs <= 1:
        return [_play(t) for t in tasks]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return list(pool.imap(_play, tasks, chunksize=1))


def main(argv: list[str] | None = None) -> int:
    """Play one match and print its figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="downtown", help="a shipped game or a game folder (default: downtown)")
    p.add_argument("--variant", help="a variant of the game (default: the plain game)")
    p.add_argument("--bot", default="bot", help="the bot under test, any --bots name (default: bot)")
    p.add_argument("--against", help="the scripted player at the other seats, FILE.py:CLASS "
                                     "(default: the first such class in benchmarks/scripted/GAME.py)")
    p.add_argument("--players", type=int, help="seats (default: 4 where the game allows, else the nearest)")
    p.add_argument("--games", type=int, default=100, help="games in the match (default: 100)")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel (default: 1)")
    p.add_argument("--seed", type=int, default=10_000, help="the first game's seed (default: 10000)")
    p.add_argument("--hand", default="", metavar="Q1,Q2",
                   help="questions (the names the rules' `choose` binds) the bot's seat answers as the scripted "
                        "player would: which of the bot's answers lose it the most games (default: none)")
    args = p.parse_args(argv)
    try:
        game = load_game(args.game, args.variant)
        players = args.players or max(game.min_seats, min(4, game.max_seats))
        if not game.min_seats <= players <= game.max_seats:
            raise ValueError(f"{game.title} is for {game.min_seats} to {game.max_seats} players, not {players}")
        bot = normal_name(args.bot)
        check_bot(bot, game)
        against = args.against.strip() if args.against else default_against(args.game)
        check_bot(against, game)
        handed = tuple(q.strip() for q in args.hand.split(",") if q.strip())
        known = questions(match_engine(args.game, args.variant))
        unknown = [q for q in handed if q not in known]
        if unknown:
            raise ValueError(f"--hand {','.join(unknown)}: {game.title} asks no such question; "
                             f"its questions are {', '.join(known)}")
    except ValueError as err:
        print(f"bench_match: {err}", file=sys.stderr)
        return 2
    if args.games < 1 or args.jobs < 1:
        print("bench_match: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    match = Match(args.game, args.variant, players, bot, against, args.games, args.seed, handed=handed)
    try:
        outcomes = run(match, args.jobs)
    except ValueError as err:  # a scripted player's mistake: one line naming it
        print(f"bench_match: {err}", file=sys.stderr)
        return 1
    data = summary(match, outcomes)
    print("\n".join(lines(data)))
    print(json.dumps(data, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
