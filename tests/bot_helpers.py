"""Helpers for the bots' tests: positions reached by random play, twin states, what a bot concluded."""

from __future__ import annotations

from functools import cache
from typing import Any

from interpreter.agents import GreedyAgent, MCTSAgent, RandomAgent, ValueAgent, bot_seed
from interpreter.agents.value import learned_value
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game

State = dict[str, Any]


@cache
def engine(game: str) -> Engine:
    """One engine per game for the whole test session (games never change)."""
    return Engine(load_game(game))


def advance(eng: Engine, state: State, until: str, seed: int = 0, skip: int = 0, seat: int | None = None) -> State:
    """Play at random (in place) until a decision on `until` is open for `seat` (any seat if None),
    letting `skip` such decisions go by first."""
    bots = [RandomAgent(bot_seed(seed, s)) for s in range(state["seats"])]
    while state["result"] is None:
        p = state["pending"]
        var = eng.program.chooses[p["spec"]].var
        if var == until and (seat is None or seat in eng.open_seats(state)):
            if skip == 0:
                return state
            skip -= 1
            # Let the whole decision go by before looking for the next one.
            while state["pending"] is p:
                s = eng.first_open_seat(state)
                eng.apply_index(state, s, bots[s].pick(eng, state, s))
            continue
        s = eng.first_open_seat(state)
        eng.apply_index(state, s, bots[s].pick(eng, state, s))
    raise AssertionError(f"the game ended before a decision on '{until}'")


def conclusions(eng: Engine, state: State, seat: int, seed: int = 5) -> dict[str, Any]:
    """Everything the bots conclude at a decision: their picks, greedy's and bot's value of every
    option, mcts's visits and estimates (mcts judging by the learned value, and by the declared
    evaluation), and the learned value of the position itself. Equal for two states means the bots
    could not tell them apart."""
    greedy = GreedyAgent(seed, samples=4, tries=2)
    mcts = MCTSAgent(seed, budget=60)
    declared = MCTSAgent(seed, budget=60, use_learned=False)
    bot = ValueAgent(seed)
    found = mcts.search(eng, state, seat)
    return {"greedy": greedy.pick(eng, state, seat), "greedy_values": greedy.option_values(eng, state, seat),
            "mcts": mcts.pick(eng, state, seat),
            "mcts_stats": sorted((o.index, o.visits, round(o.win_chance, 12)) for o in found),
            "mcts_declared": sorted((o.index, o.visits, round(o.win_chance, 12))
                                    for o in declared.search(eng, state, seat)),
            "bot": bot.pick(eng, state, seat), "bot_values": bot.option_values(eng, state, seat),
            "value": learned_value(eng).value(state, seat)}


def same_view(eng: Engine, a: State, b: State, seat: int) -> bool:
    """The seat sees the same in both states (its view, its options)."""
    return view(eng, a, seat) == view(eng, b, seat)
