"""Many seeded bot games in a row, with the figures a designer balances a game by."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import bot_seed, make_agent
from ..core.engine import Engine
from ..core.journal import Journal
from ..core.state import default_names
from ..load.loader import game_ref


@dataclass
class GameRecord:
    """One finished game."""

    seed: int
    winners: tuple[int, ...]
    scores: list[int]
    rounds: int | None
    decisions: int
    journal: Journal | None = None


def play_bots(engine: Engine, seats: int, seed: int, keep_journal: bool = False,
              max_decisions: int | None = None, lineup: list[str] | None = None,
              bot_options: dict[str, Any] | None = None, log: bool = True) -> tuple[dict[str, Any], GameRecord]:
    """One game of bots (random unless `lineup` names one bot per seat), optionally journaled.

    Bots that pick from the options alone (random) answer inside the rules' own `choose` (the fast
    path); bots that search get the state between decisions. `log=False` skips the event log, which
    only people read; the game is the same either way.
    """
    names = default_names(seats)
    lineup = lineup or ["random"] * seats
    bots = [make_agent(lineup[s], bot_seed(seed, s), **(bot_options or {})) for s in range(seats)]
    choices: list[tuple[int, str]] | None = [] if keep_journal else None
    pickers = [p for b in bots if (p := getattr(b, "picker", None)) is not None]
    if len(pickers) == seats:
        state = engine.play(seats, seed, pickers, names, journal=choices, log=log, max_decisions=max_decisions)
    else:
        state = engine.new_game(seats, seed, names)
        while state["result"] is None:
            if max_decisions is not None and state["decisions"] >= max_decisions:
                break
            seat = engine.first_open_seat(state)
            k = bots[seat].pick(engine, state, seat)
            if choices is not None:
                choices.append((seat, engine.option_id(state, seat, k)))
            engine.apply_index(state, seat, k)
    g = engine.game
    winners = tuple(state["result"]["winners"]) if state["result"] else ()
    scores = list(state["seat"][g.score_field]) if g.score_field else [0] * seats
    rounds = state["global"][g.rounds_field] if g.rounds_field else None
    journal = None
    if choices is not None:
        journal = Journal(game_ref(engine.game), seats, seed, names, list(lineup), choices,
                          state["result"], variant=engine.game.variant)
    return state, GameRecord(seed, winners, scores, rounds, state["decisions"], journal)


@dataclass
class Report:
    """Totals over a simulation."""

    game: str
    seats: int
    lineup: list[str] = field(default_factory=list)
    games: int = 0
    unfinished: int = 0
    wins: list[int] = field(default_factory=list)
    shared_wins: int = 0
    score_sum: list[int] = field(default_factory=list)
    rounds_sum: int = 0
    rounds_known: bool = False
    decisions_sum: int = 0
    seconds: float = 0.0

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        if not record.winners:
            self.unfinished += 1
        for w in record.winners:
            self.wins[w] += 1
        if len(record.winners) > 1:
            self.shared_wins += 1
        for i, s in enumerate(record.scores):
            self.score_sum[i] += s
        if record.rounds is not None:
            self.rounds_known = True
            self.rounds_sum += record.rounds
        self.decisions_sum += record.decisions

    def as_dict(self) -> dict[str, Any]:
        """The figures as plain data (for --json)."""
        n = max(self.games, 1)
        return {
            "game": self.game, "seats": self.seats, "lineup": self.lineup, "games": self.games,
            "unfinished": self.unfinished,
            "win_rate": [w / n for w in self.wins], "wins": self.wins, "shared_wins": self.shared_wins,
            "mean_score": [s / n for s in self.score_sum],
            "mean_rounds": self.rounds_sum / n if self.rounds_known else None,
            "mean_decisions": self.decisions_sum / n,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }


def simulate(engine: Engine, games: int, seats: int, seed: int = 0, journals: Path | None = None,
             cap: int | None = None, lineup: list[str] | None = None,
             bot_options: dict[str, Any] | None = None) -> Report:
    """Play `games` bot games with seeds seed, seed+1, ...; write journals into a folder if asked.

    `lineup` names the bot of each seat (default: random everywhere); `bot_options` go to every bot
    (`budget`, `think`). `cap` stops a game after that many decisions; such a game is counted as
    unfinished, never as a win.
    """
    lineup = lineup or ["random"] * seats
    report = Report(engine.game.name, seats, list(lineup), wins=[0] * seats, score_sum=[0] * seats)
    if journals is not None:
        journals.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        _, record = play_bots(engine, seats, game_seed, keep_journal=journals is not None, max_decisions=cap,
                              lineup=lineup, bot_options=bot_options, log=False)
        report.add(record)
        if journals is not None and record.journal is not None:
            record.journal.save(journals / f"{engine.game.name}-{seats}p-seed{game_seed}.json")
    report.seconds = time.perf_counter() - start
    return report
