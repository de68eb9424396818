"""Benchmark: how strong and how fast the bots are (issues 12 and 25), with Wilson intervals.

Prints a strength table (the README keeps a copy) and speed figures; asserts nothing (the machine
is shared and noisy). The bot under test changes seat from game to game (game g puts it at seat
g mod seats), so no seat's advantage counts for it. Run: make bench, or

    python benchmarks/bench_bots.py --only downtown --games 100 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.agents import bot_seed, make_agent
from interpreter.agents.mcts import MCTSAgent
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from matches import wilson

# (section, game, seats, line-up, what the first bot must reach, games by default). `bot` judges by the
# game's trained value (bots.trained.json); the scripted players' matches are in bench_match.py.
MATCHES: list[tuple[str, str, int, list[str], float, int]] = [
    ("downtown", "downtown", 4, ["bot", "random", "random", "random"], 0.80, 60),
    ("downtown", "downtown", 4, ["bot", "greedy", "greedy", "greedy"], 0.25, 100),
    ("downtown", "downtown", 4, ["mcts", "bot", "bot", "bot"], 0.25, 30),
    ("london", "london", 3, ["bot", "random", "random"], 0.80, 60),
    ("london", "london", 3, ["bot", "greedy", "greedy"], 0.33, 60),
    ("london", "london", 3, ["mcts", "bot", "bot"], 0.33, 30),
    ("city", "city", 4, ["bot", "random", "random", "random"], 0.60, 60),
    ("city", "city", 4, ["bot", "greedy", "greedy", "greedy"], 0.25, 60),
    ("city", "city", 4, ["mcts", "bot", "bot", "bot"], 0.25, 30),
    ("harbour", "examples/harbour", 4, ["bot", "random", "random", "random"], 0.60, 60),
    ("harbour", "examples/harbour", 4, ["mcts", "bot", "bot", "bot"], 0.25, 30),
]
# The score field of each game (a seat ending at or below 0 is counted), and London's "draw three" option.
SCORE = {"downtown": "money", "london": "prestige", "city": "score", "examples/harbour": "fame"}
DRAW_THREE = "action:draw"
SEED0 = 10_000


@dataclass
class GameRecord:
    """One benchmark game, seen from the line-up (position 0 is the bot under test)."""

    share: list[float]             # win share by line-up position
    seat_fields: dict[str, list[int]]
    decisions: int
    bot_seconds: list[float] = field(default_factory=list)   # CPU seconds per decision of position 0
    draws: int = 0                                            # London's "draw three" answers, all seats
    iterations: int = 0
    playouts: int = 0


_ENGINES: dict[str, Engine] = {}


def _engine(game: str) -> Engine:
    if game not in _ENGINES:
        _ENGINES[game] = Engine(load_game(game))
    return _ENGINES[game]


def play_one(args: tuple[str, int, list[str], int, dict[str, Any]]) -> GameRecord:
    """One game: the line-up rotated so that position 0 sits at seat `index mod seats`."""
    game, seats, lineup, index, options = args
    engine = _engine(game)
    seed = SEED0 + index
    shift = index % seats
    at_seat = [(s - shift) % seats for s in range(seats)]   # seat -> line-up position
    bots = [make_agent(lineup[at_seat[s]], bot_seed(seed, s), **options) for s in range(seats)]
    state = engine.new_game(seats, seed)
    timing: list[float] = []
    draws = 0
    while state["result"] is None:
        s = engine.first_open_seat(state)
        start = time.process_time()
        k = bots[s].pick(engine, state, s)
        if at_seat[s] == 0 and engine.option_count(state, s) > 1:
            timing.append(time.process_time() - start)
        if engine.option_id(state, s, k).startswith(DRAW_THREE):
            draws += 1
        engine.apply_index(state, s, k)
    winners = state["result"]["winners"]
    share = [0.0] * seats
    for w in winners:
        share[at_seat[w]] += 1 / len(winners)
    fields = {name: [state["seat"][name][s] for s in sorted(range(seats), key=lambda s: at_seat[s])]
              for name, column in state["seat"].items() if column and isinstance(column[0], int)}
    tested = bots[at_seat.index(0)]
    record = GameRecord(share, fields, state["decisions"], timing, draws)
    if isinstance(tested, MCTSAgent):
        record.iterations, record.playouts = tested.iterations, tested.playouts
    return record


def run(game: str, seats: int, lineup: list[str], games: int, jobs: int,
        options: dict[str, Any]) -> list[GameRecord]:
    """`games` games of the line-up, on `jobs` processes, merged in game order."""
    tasks = [(game, seats, lineup, i, options) for i in range(games)]
    if jobs <= 1:
        return [play_one(t) for t in tasks]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(play_one, tasks, chunksize=1)


def strength_row(section: str, game: str, seats: int, lineup: list[str], target: float,
                 records: list[GameRecord]) -> str:
    """One line of the strength table (with how often the bot under test ended at a score of 0 or less)."""
    n = len(records)
    wins = sum(r.share[0] for r in records)
    low, high = wilson(wins, n)
    met = "met" if low >= target else ("likely" if wins / n >= target else "NOT met")
    broke = sum(1 for r in records if r.seat_fields[SCORE[game]][0] <= 0) / n
    return (f"| {section} | {seats} | {lineup[0]} vs {', '.join(lineup[1:])} | {wins / n:.0%} | "
            f"{low:.0%}–{high:.0%} | {n} | ≥ {target:.0%} | {met} | {broke:.0%} |")


def speed_lines(label: str, records: list[GameRecord]) -> list[str]:
    """Decision time, decisions/s and playouts/s of the tested bot."""
    times = [t for r in records for t in r.bot_seconds]
    if not times:
        return []
    total = sum(times)
    lines = [f"{label}: median decision {statistics.median(times) * 1000:.0f} ms, "
             f"90th percentile {sorted(times)[int(len(times) * 0.9)] * 1000:.0f} ms, "
             f"{len(times) / total:.1f} decisions/s (CPU time, {len(times)} decisions)"]
    playouts = sum(r.playouts for r in records)
    if playouts:
        lines.append(f"{label}: {playouts / total:.0f} playouts/s, {sum(r.iterations for r in records) / total:.0f} "
                     "iterations/s")
    return lines


def london_band(records: list[GameRecord]) -> str:
    """London played by three `bot`s: the winners' median prestige, unpaid loans per seat, seats below
    zero prestige, and "draw three" answers per game (issue 25's targets)."""
    winners = [max(r.seat_fields["prestige"]) for r in records]
    loans = [sum(r.seat_fields["loans"]) / len(r.seat_fields["loans"]) for r in records]
    below = sum(1 for r in records for p in r.seat_fields["prestige"] if p < 0) / (3 * len(records))
    draws = statistics.mean(r.draws for r in records)
    return (f"London, three bot seats, {len(records)} games: winners' median prestige "
            f"{statistics.median(winners):.0f} (target 20–60; quartiles "
            f"{statistics.quantiles(winners, n=4)[0]:.0f}–{statistics.quantiles(winners, n=4)[2]:.0f}), "
            f"unpaid loans per seat {statistics.mean(loans):.2f} (target < 0.5), seats below zero prestige "
            f"{below:.0%} (target < 5 %), draw three {draws:.1f} times a game (target ≤ 4)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", help="downtown, london, city or harbour (repeatable)")
    parser.add_argument("--games", type=int, help="games per match (default: each match's own)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every match's default number of games")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=int, help="mcts iterations per decision (default: the bot's)")
    args = parser.parse_args()
    options: dict[str, Any] = {"budget": args.budget} if args.budget else {}
    rows = ["| game | seats | line-up | wins | 95 % interval | games | target | | score ≤ 0 |",
            "|---|---|---|---|---|---|---|---|---|"]
    speed: list[str] = []
    extra: list[str] = []
    for section, game, seats, lineup, target, default_games in MATCHES:
        if args.only and section not in args.only:
            continue
        games = args.games or max(seats, int(default_games * args.scale))
        start = time.perf_counter()
        records = run(game, seats, lineup, games, args.jobs, options)
        rows.append(strength_row(section, game, seats, lineup, target, records))
        print(rows[-1], f"({time.perf_counter() - start:.0f} s)", flush=True)
        if lineup[1] in ("random", "bot"):
            speed.extend(speed_lines(f"{section} {lineup[0]}", records))
    if not args.only or "london" in args.only:
        games = args.games or max(3, int(200 * args.scale))
        records = run("london", 3, ["bot", "bot", "bot"], games, args.jobs, options)
        extra.append(london_band(records))
    print("\nStrength (the bot under test is the first of the line-up; it changes seat every game):\n")
    print("\n".join(rows))
    for line in extra:
        print("\n" + line)
    print("\nSpeed:")
    for line in speed:
        print("  " + line)


if __name__ == "__main__":
    main()
