"""make_agent, seeding and replay, and that the bots play every game to its end and play it well."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot_helpers import engine
from interpreter.agents import (
    DEFAULT_BOT,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    UnknownBot,
    ValueAgent,
    bot_seed,
    make_agent,
    parse_lineup,
)
from interpreter.agents.evaluation import Evaluation, UnknownProfile
from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.core.journal import Journal, replay
from interpreter.load.loader import game_ref, load_game
from lang_helpers import write_game

GAMES = [("downtown", 4), ("london", 3), ("city", 4), ("examples/harbour", 4)]


def test_make_agent_by_name_with_profiles_and_options() -> None:
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("greedy", 1), GreedyAgent)
    mcts = make_agent("MCTS:investor", 1, budget=40, samples=3)
    assert isinstance(mcts, MCTSAgent) and mcts.profile == "investor" and mcts.budget == 40
    assert type(make_agent("bot", 1)).name == DEFAULT_BOT
    with pytest.raises(UnknownBot, match="unknown bot 'clever'"):
        make_agent("clever", 1)
    with pytest.raises(UnknownBot, match="no profiles"):
        make_agent("random:investor", 1)


def test_a_line_up_is_checked_against_the_game() -> None:
    game = engine("downtown").game
    assert parse_lineup("mcts", game, 4) == ["mcts"] * 4
    assert parse_lineup("mcts:investor, random,greedy:hoarder,bot", game, 4)[0] == "mcts:investor"
    with pytest.raises(ValueError, match="no bot profile 'builder'"):
        parse_lineup("mcts:builder", game, 4)
    with pytest.raises(ValueError, match="3 bots for 4 seats"):
        parse_lineup("mcts,random,random", game, 4)


def test_an_unknown_profile_is_refused_when_the_bot_first_looks() -> None:
    with pytest.raises(UnknownProfile, match="no bot profile 'x'"):
        Evaluation(engine("city"), "x")


def test_without_declarations_the_score_field_judges(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    choose x from [1, 2] by seats[0]\n    end winners seats\n",
               seat={"points": ("int", 0)}, seats=(2, 2))
    data = yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))
    data["summary"] = {"score": "points"}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    eng = Engine(load_game(str(tmp_path)))
    state = eng.new_game(2, 0)
    state["seat"]["points"] = [4, 9]
    assert Evaluation(eng).values(state) == [4.0, 9.0]


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_a_resumed_game_gets_the_same_bot_answers(name: str) -> None:
    """Bots are seeded per decision: replaying the journal and asking again gives the same answers."""
    eng = engine("downtown")
    seats, seed = 4, 12
    bots = [make_agent(name, bot_seed(seed, s), budget=30, samples=2) for s in range(seats)]
    state = eng.new_game(seats, seed)
    journal = Journal(game_ref(eng.game), seats, seed, list(state["names"]), [name] * seats)
    for _ in range(25):
        s = eng.first_open_seat(state)
        k = bots[s].pick(eng, state, s)
        journal.choices.append((s, eng.option_id(state, s, k)))
        eng.apply_index(state, s, k)
    reloaded = Journal.load_text(journal.dumps())
    fresh = [make_agent(name, bot_seed(seed, s), budget=30, samples=2) for s in range(seats)]
    for i, (s, option) in enumerate(reloaded.choices):
        partial = Journal(reloaded.game, seats, seed, reloaded.names, reloaded.agents, reloaded.choices[:i])
        resumed = replay(eng, partial)
        assert eng.option_id(resumed, s, fresh[s].pick(eng, resumed, s)) == option


@pytest.mark.parametrize("game,seats", GAMES)
def test_greedy_and_mcts_play_every_game(game: str, seats: int) -> None:
    eng = engine(game)
    lineup = ["mcts", "greedy"] + ["random"] * (seats - 2)
    state, record = play_bots(eng, seats, 3, lineup=lineup, bot_options={"budget": 8, "samples": 1, "tries": 1},
                              max_decisions=250)
    assert state["result"] is not None or state["decisions"] == 250


def test_greedy_beats_random_bots_at_downtown() -> None:
    """A fixed set of seeds, so the figure is the same every run: greedy in every seat in turn."""
    eng = engine("downtown")
    wins = 0.0
    for seed in range(8):
        lineup = ["random"] * 4
        lineup[seed % 4] = "greedy"
        state, _ = play_bots(eng, 4, seed, lineup=lineup, bot_options={"samples": 4, "tries": 2})
        winners = state["result"]["winners"]
        wins += (seed % 4 in winners) / len(winners)
    assert wins >= 6, f"greedy won {wins} of 8 games against three random bots"


def test_mcts_search_reports_every_option_best_first() -> None:
    eng = engine("examples/harbour")
    state = eng.new_game(3, 4)
    seat = eng.first_open_seat(state)
    found = MCTSAgent(3, budget=60).search(eng, state, seat)
    assert sorted(o.index for o in found) == list(range(eng.option_count(state, seat)))
    assert [o.visits for o in found] == sorted((o.visits for o in found), reverse=True)
    assert sum(o.visits for o in found) == 60
    assert all(0.0 <= o.win_chance <= 1.0 for o in found)


def test_mcts_starts_from_bots_judgement_of_each_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a trained value, the search begins where `bot` stands: before any iteration, the option
    bot values most leads, with bot's value as its estimate; the visits reported are the search's own."""
    eng = engine("examples/harbour")
    state = eng.new_game(3, 4)
    seat = eng.first_open_seat(state)
    n = eng.option_count(state, seat)
    assert n > 1
    judged = [0.2] * n
    judged[n - 1] = 0.9
    monkeypatch.setattr(ValueAgent, "option_values", lambda self, engine, state, seat: list(judged))
    found = MCTSAgent(3, budget=0).search(eng, state, seat)
    assert found[0].index == n - 1 and found[0].win_chance == pytest.approx(0.9)
    assert [o.visits for o in found] == [0] * n
    searched = MCTSAgent(3, budget=40).search(eng, state, seat)
    assert sum(o.visits for o in searched) == 40


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_an_evaluation_that_always_fails_is_reported_at_its_line(name: str, tmp_path: Path) -> None:
    rules = ("formula broken(s: seat) = [1, 2][len(seats) + 5]\n\n"
             "phase main:\n    run turn(seats[0])\n    run turn(seats[1])\n    run turn(seats[0])\n"
             "    end winners seats\n\n"
             "phase turn(s: seat):\n    choose x from [1, 2] by s\n")
    write_game(tmp_path, rules, seats=(2, 2))
    data = yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))
    data["bots"] = {"evaluation": "broken", "playout": 1}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    eng = Engine(load_game(str(tmp_path)))
    state = eng.new_game(2, 0)
    with pytest.raises(RuleError) as caught:
        make_agent(name, 1, budget=5).pick(eng, state, 0)
    assert caught.value.span is not None and caught.value.span.line == 1
