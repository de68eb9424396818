"""A batch of seeded bot games: what to play (BatchSpec) and how one slice of it is played.

A worker gets a BatchSpec and a range of seeds, loads the game itself from the folder's path,
plays the games and returns one Tally: nothing else passes between processes or machines.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import bot_seed
from ..core.engine import Engine, Picker
from ..core.errors import RuleError
from ..core.journal import Journal
from ..core.state import default_names
from ..core.workers import settle
from ..load.loader import game_ref, load_game
from .economy import PhaseLedger
from .lineup import make_bot, rotated
from .restrict import Restriction, allowed_indices
from .tally import GameRecord, LeadWatch, Tally

# A batch is cut into at most this many slices (fewer for small batches): enough for a progress
# bar and for 64 workers to share the load, few enough that merging costs nothing.
SLICES = 256
MAX_SLICE = 64


@dataclass(frozen=True)
class BatchSpec:
    """Everything that decides a batch's games (and so its figures)."""

    folder: str                      # the game folder's path: all a worker needs to load the game
    variant: str | None
    seats: int
    bots: tuple[str, ...]            # one name per seat (turned by the seed when `rotate`)
    first_seed: int
    games: int
    cap: int | None = None
    restrictions: tuple[Restriction, ...] = ()
    rotate: bool = False
    journals: str | None = None      # a folder to write every game's journal into
    keep_games: bool = False         # keep per-game values in seed order (paired comparisons)
    patterns: tuple[str, ...] = ()   # option id patterns to count besides the ids and their families
    bot_options: tuple[tuple[str, Any], ...] = ()  # e.g. (("budget", 300),): every searching bot's settings

    @property
    def seeds(self) -> range:
        """The batch's seeds, in order."""
        return range(self.first_seed, self.first_seed + self.games)

    def lineup(self, seed: int) -> tuple[str, ...]:
        """The bots of one game, seat by seat."""
        return rotated(self.bots, seed) if self.rotate else self.bots

    def slices(self) -> list[range]:
        """The seed ranges the batch is played in: they depend on its size only, never on the workers."""
        size = max(1, min(MAX_SLICE, math.ceil(self.games / SLICES)))
        seeds = self.seeds
        return [seeds[i:i + size] for i in range(0, len(seeds), size)]


class BatchFailed(Exception):
    """A game of the batch stopped with an error in the rules: the seed and the report."""

    def __init__(self, seed: int, report: str):
        super().__init__(seed, report)
        self.seed = seed
        self.report = report


_ENGINES: dict[tuple[str, str | None, int], tuple[Engine, PhaseLedger]] = {}


def engine_for(folder: str, variant: str | None) -> tuple[Engine, PhaseLedger]:
    """The game loaded once per process (again if its game.yaml changed), with the economy hook set."""
    try:
        stamp = (Path(folder) / "game.yaml").stat().st_mtime_ns
    except OSError:
        stamp = 0
    key = (folder, variant, stamp)
    found = _ENGINES.get(key)
    if found is None:
        engine = Engine(load_game(folder, variant))
        ledger = PhaseLedger(engine.game.program)
        engine.ledger_hook = ledger
        found = _ENGINES[key] = (engine, ledger)
    return found


def play_game(engine: Engine, ledger: PhaseLedger, spec: BatchSpec, seed: int) -> tuple[GameRecord, Journal | None]:
    """One game of the batch, observed at every decision."""
    g = engine.game
    seats = spec.seats
    names = default_names(seats)
    lineup = spec.lineup(seed)
    bots = [make_bot(lineup[s], bot_seed(seed, s), dict(spec.bot_options)) for s in range(seats)]
    ledger.reset()
    watch = LeadWatch(g.score_field, g.rounds_field)
    chosen: list[Counter[str]] = [Counter() for _ in range(seats)]
    journal = (Journal(game_ref(g), seats, seed, names, list(lineup), variant=g.variant)
               if spec.journals else None)
    restrictions = spec.restrictions
    options = forced = 0
    pickers = [p for b in bots if (p := getattr(b, "picker", None)) is not None]
    if len(pickers) == seats and not restrictions:
        state, options, answers = _play_direct(engine, seats, seed, names, pickers, watch, spec.cap)
        for (seat, option_id), times in Counter(answers).items():  # counted in C, then shared out by seat
            chosen[seat][option_id] += times
        if journal is not None:
            journal.choices.extend(answers)
    else:
        state = engine.new_game(seats, seed, names)
        while state["result"] is None:
            if spec.cap is not None and state["decisions"] >= spec.cap:
                break
            seat = engine.first_open_seat(state)
            watch.at_decision(state)
            if restrictions:
                forced += _restrict(engine, state, seat, restrictions)
            options += engine.option_count(state, seat)
            k = bots[seat].pick(engine, state, seat)
            option_id = engine.option_id(state, seat, k)
            chosen[seat][option_id] += 1
            if journal is not None:
                journal.choices.append((seat, option_id))
            engine.apply_index(state, seat, k)
    result = state["result"]
    finished = result is not None
    if finished:
        watch.at_end(state)
    winners = tuple(result["winners"]) if result is not None else ()
    scores = list(state["seat"][g.score_field]) if g.score_field else [0] * seats
    rounds = state["global"][g.rounds_field] if g.rounds_field else None
    if journal is not None:
        journal.result = state["result"]
    lead = watch.changes if g.rounds_field and g.score_field else None
    record = GameRecord(seed, lineup, finished, winners, scores, rounds, state["decisions"], options, lead,
                        watch.change_rounds, chosen, ledger.flows, forced, starting_seat(engine, seats, seed, names))
    return record, journal


STARTER_LOOK = 64
"""Decisions looked through for the first one a single seat makes (see starting_seat)."""


def starting_seat(engine: Engine, seats: int, seed: int, names: list[str]) -> int:
    """The seat that starts the game: the one asked the game's first decision made by one seat alone,
    wherever the rules put or draw it. Decisions all seats make at once before it are answered with
    their first option (the start is set before anyone plays, in every game seen so far); seat 0 when
    none is found within STARTER_LOOK decisions."""
    state = engine.new_game(seats, seed, names)
    while state["result"] is None and state["decisions"] < STARTER_LOOK:
        open_seats = state["pending"]["seats"]
        if len(open_seats) == 1:
            return int(open_seats[0])
        engine.apply_index(state, engine.first_open_seat(state), 0)
    return 0


def _play_direct(engine: Engine, seats: int, seed: int, names: list[str], pickers: list[Picker], watch: LeadWatch,
                 cap: int | None) -> tuple[dict[str, Any], int, list[tuple[int, str]]]:
    """A game of bots that pick from the options alone, answered inside the rules' `choose` (the
    agent path, several times faster): the same game, options and answers as step by step."""
    offered = [0]
    rounds = watch.rounds_field if watch.score_field is not None else None

    def watched(picker: Picker) -> Picker:
        def pick(state: dict[str, Any], seat: int, options: list[Any]) -> int:
            if rounds is not None and state["global"][rounds] != watch.last_round:  # at_decision's own test, first
                watch.at_decision(state)
            offered[0] += len(options)
            return picker(state, seat, options)
        return pick

    answers: list[tuple[int, str]] = []
    state = engine.play(seats, seed, [watched(p) for p in pickers], names, journal=answers, log=False,
                        max_decisions=cap)
    return state, offered[0], answers


def _restrict(engine: Engine, state: dict[str, Any], seat: int, restrictions: tuple[Restriction, ...]) -> int:
    """Leave the seat only its allowed options (in the pending decision); 1 if none was left."""
    p = state["pending"]
    i = p["seats"].index(seat)
    ids = [engine.option_id(state, seat, k) for k in range(len(p["options"][i]))]
    keep = allowed_indices(restrictions, seat, ids)
    if not keep:
        return 1
    if len(keep) < len(ids):
        p["options"][i] = [p["options"][i][k] for k in keep]
    return 0


def play_slice(spec: BatchSpec, seeds: range) -> Tally:
    """Play a slice of the batch's seeds in this process and tally it (what a worker runs)."""
    engine, ledger = engine_for(spec.folder, spec.variant)
    tally = Tally(spec.seats)
    tally.count_patterns(spec.patterns)
    if spec.keep_games:
        tally.keep_games()
    folder = Path(spec.journals) if spec.journals else None
    for seed in seeds:
        try:
            record, journal = play_game(engine, ledger, spec, seed)
        except RuleError as err:
            raise BatchFailed(seed, err.report()) from None
        tally.add(record)
        if folder is not None and journal is not None:
            journal.save(folder / f"{engine.game.name}-{spec.seats}p-seed{seed}.json")
        settle()    # after a process's first game: what it loaded stays out of the collector's passes
    return tally
