"""Matches of one bot against scripted players: the games, and the figures bench_match.py prints.

Written apart from the bots' code: a game is played through the engine's public API
(`new_game`, `first_open_seat`, `apply_index`), the bot under test is built by name with
`make_agent` (any `--bots` name) and the scripted players through the custom-player adapter
(`FILE.py:CLASS`), which shows them only their seat's view. Game g of a match seats the bot at
seat g mod players, so no seat's advantage counts for it; its seed is first_seed + g.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.agents import bot_seed, make_agent
from interpreter.agents.custom import is_custom, load_player
from interpreter.agents.value import ValueFileError, learned_value
from interpreter.core.engine import Engine
from interpreter.core.workers import settle
from interpreter.load.loader import load_game

SCRIPTED = Path(__file__).resolve().parent / "scripted"
# CPU seconds this process has spent in the garbage collector (its passes pause whatever runs).
_COLLECTOR = [0.0]
_COLLECTION_START = [0.0]


def _time_collections(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _COLLECTION_START[0] = time.process_time()
    else:
        _COLLECTOR[0] += time.process_time() - _COLLECTION_START[0]


gc.callbacks.append(_time_collections)


@dataclass(frozen=True)
class Match:
    """What decides a match's games."""

    game: str
    variant: str | None
    players: int
    bot: str           # any --bots name
    against: str       # a scripted player's spec, FILE.py:CLASS, at every other seat
    games: int
    first_seed: int
    cap: int = 20_000
    # Questions (by the name the rules' `choose` binds) the bot's seat answers as the scripted player
    # would: where a bot loses to the scripted players, the questions whose handing over wins back most.
    handed: tuple[str, ...] = ()


@dataclass
class Outcome:
    """One game, seen from the bot under test."""

    index: int
    seat: int
    finished: bool
    won: bool
    shared: bool
    score: int | None
    cpu: list[float] = field(default_factory=list)   # the bot's CPU seconds, decision by decision
    collecting: list[float] = field(default_factory=list)   # of which the garbage collector's, decision by decision
    load: float = 0.0     # CPU seconds reading the game's trained value, in the first game of a process


def default_against(game: str) -> str:
    """The scripted player of a game: the first class with a `choose` in benchmarks/scripted/GAME.py."""
    path = SCRIPTED / f"{Path(game).name}.py"
    if not path.is_file():
        raise ValueError(f"no scripted player for {game}: no {path} (give --against FILE.py:CLASS)")
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(isinstance(f, ast.FunctionDef) and f.name == "choose"
                                                  for f in node.body):
            spec = f"{path}:{node.name}"
            load_player(spec)
            return spec
    raise ValueError(f"{path} defines no class with a choose method (give --against FILE.py:CLASS)")


_ENGINES: dict[tuple[str, str | None], Engine] = {}


def match_engine(game: str, variant: str | None) -> Engine:
    """The engine of a match's game, loaded once per process."""
    found = _ENGINES.get((game, variant))
    if found is None:
        found = _ENGINES[(game, variant)] = Engine(load_game(game, variant))
    return found


def _read_value(engine: Engine) -> float:
    """Read the game's trained value now (once per process and engine), so that no decision is
    charged for it: the CPU seconds it took (0 when already read, or when the game has none)."""
    start = time.process_time()
    try:
        learned_value(engine)
    except ValueFileError:
        pass
    return time.process_time() - start


def play(match: Match, index: int) -> Outcome:
    """Game `index` of the match."""
    engine = match_engine(match.game, match.variant)
    seed = match.first_seed + index
    seat_of_bot = index % match.players
    agents = [make_agent(match.bot if s == seat_of_bot else match.against, bot_seed(seed, s))
              for s in range(match.players)]
    # The scripted player answering the handed questions for the bot's seat, with a seed of its own.
    stand_in = make_agent(match.against, bot_seed(seed, match.players)) if match.handed else None
    handed = {k for k, spec in enumerate(engine.program.chooses) if spec.var in match.handed}
    load = _read_value(engine)
    state = engine.new_game(match.players, seed)
    cpu: list[float] = []
    collecting: list[float] = []
    while state["result"] is None and state["decisions"] < match.cap:
        seat = engine.first_open_seat(state)
        if seat == seat_of_bot and stand_in is not None and state["pending"]["spec"] in handed:
            k = stand_in.pick(engine, state, seat)
        elif seat == seat_of_bot:
            start, collected = time.process_time(), _COLLECTOR[0]
            k = agents[seat].pick(engine, state, seat)
            cpu.append(time.process_time() - start)
            collecting.append(_COLLECTOR[0] - collected)
        else:
            k = agents[seat].pick(engine, state, seat)
        engine.apply_index(state, seat, k)
    result = state["result"]
    winners = list(result["winners"]) if result is not None else []
    field_name = engine.game.score_field
    score = int(state["seat"][field_name][seat_of_bot]) if field_name else None
    settle()    # as a batch's worker does after its first game (interpreter/core/workers.py)
    return Outcome(index, seat_of_bot, result is not None, seat_of_bot in winners,
                   seat_of_bot in winners and len(winners) > 1, score, cpu, collecting, load)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of wins in n games (shared wins count in part)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(match: Match, outcomes: list[Outcome]) -> dict[str, Any]:
    """The match's figures as plain data (one JSON line of the README's table)."""
    n = len(outcomes)
    wins = sum(o.won for o in outcomes)
    low, high = wilson(wins, n)
    fair = 1 / match.players
    scored = [o for o in outcomes if o.score is not None]
    cpu = [c for o in outcomes for c in o.cpu]
    ms = [c * 1000 for c in cpu]
    # Each decision's CPU less the garbage collector's passes during it (they pause whatever runs).
    working = [1000 * (c - g) for o in outcomes for c, g in zip(o.cpu, o.collecting)]
    return {
        "game": match.game, "variant": match.variant, "players": match.players, "bot": match.bot,
        "against": match.against, "games": n, "first_seed": match.first_seed, "wins": wins,
        "shared_wins": sum(o.shared for o in outcomes), "unfinished": sum(not o.finished for o in outcomes),
        "win_rate": round(wins / n, 4) if n else None, "win_rate_ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(fair, 4), "ratio": round(wins / n / fair, 3) if n else None,
        "ratio_ci95": [round(low / fair, 3), round(high / fair, 3)],
        "score_at_most_zero": round(sum(o.score <= 0 for o in scored if o.score is not None) / len(scored), 4)
        if scored else None,
        "decisions": len(cpu),
        "cpu_ms_per_decision": {"median": round(statistics.median(ms), 3) if ms else None,
                                "p99": round(_percentile(ms, 0.99), 3) if ms else None,
                                "max": round(max(ms), 3) if ms else None,
                                "max_outside_collector": round(max(working), 3) if working else None},
        "cpu_ms_reading_value": round(1000 * max((o.load for o in outcomes), default=0.0), 3),
        "handed": list(match.handed),
    }


def questions(engine: Engine) -> list[str]:
    """The names the game's questions bind (`choose NAME from ...`), each once, in the rules' order."""
    return list(dict.fromkeys(spec.var for spec in engine.program.chooses))


def _percentile(values: list[float], q: float) -> float:
    """The value below which a share q of `values` lie (the nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def lines(data: dict[str, Any]) -> list[str]:
    """The figures for people."""
    games = data["games"]
    low, high = data["win_rate_ci95"]
    where, _, cls = data["against"].rpartition(":")
    against = f"{Path(where).name}:{cls}" if where and is_custom(data["against"]) else data["against"]
    title = f"{data['game']}{' (' + data['variant'] + ')' if data['variant'] else ''}, {data['players']} players: " \
            f"{data['bot']} vs {data['players'] - 1} x {against}"
    if data.get("handed"):
        title += f" (the bot's {', '.join(data['handed'])} answered as the scripted player would)"
    out = [title,
           f"  games {games} (seeds {data['first_seed']}..{data['first_seed'] + games - 1}, the bot's seat rotated), "
           f"unfinished {data['unfinished']}",
           f"  wins {data['wins']} = {100 * (data['win_rate'] or 0):.1f} % (95 % Wilson {100 * low:.1f}–{100 * high:.1f} %)"
           f"{', ' + str(data['shared_wins']) + ' shared' if data['shared_wins'] else ''}",
           f"  fair share {100 * data['fair_share']:.1f} %: ratio {data['ratio']:.2f} "
           f"({data['ratio_ci95'][0]:.2f}–{data['ratio_ci95'][1]:.2f})"]
    if data["score_at_most_zero"] is not None:
        out.append(f"  the bot's seat ended at a score <= 0 in {100 * data['score_at_most_zero']:.1f} % of games")
    cpu = data["cpu_ms_per_decision"]
    if cpu["median"] is not None:
        out.append(f"  the bot's CPU per decision: median {cpu['median']:.2f} ms, 99th percentile {cpu['p99']:.2f} ms, "
                   f"max {cpu['max']:.2f} ms ({cpu['max_outside_collector']:.2f} ms outside the garbage collector's passes; "
                   f"{data['decisions']} decisions; reading the game's trained value "
                   f"before the first took {data['cpu_ms_reading_value']:.0f} ms, once per process)")
    return out
