"""Benchmark: what a decision of `bot` and of `mcts` costs in Acquire (issue 25).

Issue 25 asks that an mcts decision cost at most 50 ms of CPU at its default budget, and a `bot`
decision 1 ms at the median (10 ms at most), in every shipped game and in an Acquire-sized game:
108 squares, hidden hands of 6, merger sub-choices. benchmarks/games/acquire/ is that game,
written from the docs alone (its README.md says what it simplifies), with the value `cityrules
train` fitted for it. Each bot plays a few games against random seats, moving one seat each game,
at its default budget; the bench prints its CPU per decision (median, 90th percentile, largest,
quartiles), the same by question (placing a tile, buying, a merger's trade and sale...), and how
many decisions the games took. It asserts nothing: the machine is shared and noisy. Run: make
bench, or

    python benchmarks/bench_acquire.py --games 4 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from checkout import ROOT
from common import cpu
from interpreter.agents import bot_seed, make_agent
from interpreter.agents.mcts import MCTSAgent
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

FOLDER = ROOT / "benchmarks" / "games" / "acquire"
# (bot, games by default, issue 25's target for its median decision in ms, for its largest).
BOTS: list[tuple[str, int, float, float | None]] = [("bot", 12, 1.0, 10.0), ("mcts", 4, 50.0, None)]
SEED0 = 25_000

_ENGINES: dict[str, Engine] = {}


@dataclass
class GameRecord:
    """One game, from the side of the bot under test."""

    decisions: int                                      # every seat's, the game's whole length
    seconds: list[tuple[str, float]] = field(default_factory=list)   # (question, CPU s) per decision
    iterations: int = 0
    playouts: int = 0


def _engine(folder: str) -> Engine:
    if folder not in _ENGINES:
        _ENGINES[folder] = Engine(load_game(folder))
    return _ENGINES[folder]


def play_one(task: tuple[str, str, int, int]) -> GameRecord:
    """Game `index`: the bot under test at seat `index mod seats`, random bots elsewhere."""
    folder, name, seats, index = task
    engine = _engine(folder)
    seed = SEED0 + index
    tested = index % seats
    bots = [make_agent(name if s == tested else "random", bot_seed(seed, s)) for s in range(seats)]
    state = engine.new_game(seats, seed)
    record = GameRecord(0)
    while state["result"] is None:
        s = engine.first_open_seat(state)
        if s == tested and engine.option_count(state, s) > 1:
            question = engine.option_id(state, s, 0).split(":")[0]
            picked: list[int] = []
            record.seconds.append((question, cpu(lambda: picked.append(bots[s].pick(engine, state, s)))))
            k = picked[0]
        else:
            k = bots[s].pick(engine, state, s)
        engine.apply_index(state, s, k)
    record.decisions = state["decisions"]
    agent = bots[tested]
    if isinstance(agent, MCTSAgent):
        record.iterations, record.playouts = agent.iterations, agent.playouts
    return record


def run(folder: str, name: str, seats: int, games: int, jobs: int) -> list[GameRecord]:
    """`games` games of `name` against random bots, on `jobs` processes, in game order."""
    tasks = [(folder, name, seats, i) for i in range(games)]
    if jobs <= 1:
        return [play_one(t) for t in tasks]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(play_one, tasks, chunksize=1)


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (the 90th percentile with 0.9)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def report(name: str, seats: int, target: float, ceiling: float | None, records: list[GameRecord]) -> list[str]:
    """The lines printed for one bot."""
    times = [t for r in records for _, t in r.seconds]
    ms = [t * 1000 for t in times]
    quartiles = statistics.quantiles(ms, n=4) if len(ms) > 1 else [ms[0], ms[0], ms[0]]
    limit = f" and ≤ {ceiling:.0f} ms at most" if ceiling is not None else ""
    lines = [f"{name} vs {seats - 1} random, {len(records)} games, {len(ms)} decisions of more than one option:",
             f"  CPU per decision: median {statistics.median(ms):.1f} ms, 90th percentile {percentile(ms, 0.9):.1f} ms, "
             f"largest {max(ms):.1f} ms, quartiles {quartiles[0]:.1f}–{quartiles[2]:.1f} ms, mean "
             f"{statistics.mean(ms):.1f} ms (issue 25's target: median ≤ {target:g} ms{limit})"]
    by_question: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for question, t in r.seconds:
            by_question[question].append(t * 1000)
    for question, values in sorted(by_question.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"    {question:<10} {len(values) / len(records):6.1f} a game  median {statistics.median(values):7.1f} ms"
                     f"  90th percentile {percentile(values, 0.9):7.1f} ms  largest {max(values):7.1f} ms")
    decisions = [r.decisions for r in records]
    lines.append(f"  decisions per game (every seat): median {statistics.median(decisions):.0f}, "
                 f"range {min(decisions)}–{max(decisions)}; the bot's own: {len(ms) / len(records):.1f} a game")
    iterations = sum(r.iterations for r in records)
    if iterations:
        lines.append(f"  {iterations / len(ms):.0f} iterations and {sum(r.playouts for r in records) / len(ms):.0f} "
                     f"playouts per decision, {iterations / sum(times):.0f} iterations/s")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, help="games per bot (default: 12 for bot, 4 for mcts)")
    parser.add_argument("--players", type=int, default=4, help="seats per game, 3 to 6 (default: 4)")
    parser.add_argument("--only", choices=[b[0] for b in BOTS], action="append", help="bot or mcts (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--folder", default=str(FOLDER),
                        help="another version of the game, trained (default: benchmarks/games/acquire)")
    args = parser.parse_args()
    folder = Path(args.folder).resolve()
    shown = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    print(f"Acquire ({shown}), {args.players} seats, CPU time per decision at the default budgets\n")
    for name, default_games, target, ceiling in BOTS:
        if args.only and name not in args.only:
            continue
        records = run(args.folder, name, args.players, args.games or default_games, args.jobs)
        print("\n".join(report(name, args.players, target, ceiling, records)), flush=True)


if __name__ == "__main__":
    main()
